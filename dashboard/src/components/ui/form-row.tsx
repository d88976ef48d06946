/** What every form control of the dashboard shares: its label above it, and its look. */
import type { ReactNode } from "react";
import { cn } from "./cn";

/** The look of a form control (text input, select) in both themes; add the horizontal padding. */
export const CONTROL = "rounded-md border border-zinc-300 bg-white py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900";

/** A form control (`children`, whose id is `id`) under its label; with `hideLabel` the label is for assistive technology only. */
export function FormRow({ id, label, hideLabel = false, children }: { id: string; label: string; hideLabel?: boolean; children: ReactNode }) {
  return (
    <div className={cn("flex flex-col gap-1", hideLabel && "gap-0")}>
      <label htmlFor={id} className={hideLabel ? "sr-only" : "text-sm font-medium"}>
        {label}
      </label>
      {children}
    </div>
  );
}
