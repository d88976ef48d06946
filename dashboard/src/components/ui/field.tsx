/** A labelled text input. */
import type { InputHTMLAttributes } from "react";
import { cn } from "./cn";

/** An `<input>` with its visible label. */
export function Field({ label, id, className, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        className={cn("rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900", className)}
        {...props}
      />
    </div>
  );
}
