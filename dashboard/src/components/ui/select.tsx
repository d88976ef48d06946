/**
 * The one `Select` of the dashboard: a native `<select>` (keyboard, screen readers and mobile
 * pickers for free) styled like the other fields. `label` names it: shown above it, or only to
 * assistive technology with `hideLabel`.
 */
import { type SelectHTMLAttributes, useId } from "react";
import { cn } from "./cn";

/** An option: its value and the text shown. */
export interface SelectOption {
  value: string;
  label: string;
}

/** A labelled select over `options`. */
export function Select({
  label,
  hideLabel = false,
  options,
  className,
  id,
  ...props
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "children"> & { label: string; hideLabel?: boolean; options: readonly (SelectOption | string)[] }) {
  const fallback = useId();
  const selectId = id ?? fallback;
  return (
    <div className={cn("flex flex-col gap-1", hideLabel && "gap-0")}>
      <label htmlFor={selectId} className={hideLabel ? "sr-only" : "text-sm font-medium"}>
        {label}
      </label>
      <select
        id={selectId}
        className={cn("rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900", className)}
        {...props}
      >
        {options.map((o) => {
          const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </div>
  );
}
