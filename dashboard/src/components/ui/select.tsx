/**
 * The one `Select` of the dashboard: a native `<select>` (keyboard, screen readers and mobile
 * pickers for free) styled like the other fields. `label` names it: shown above it, or only to
 * assistive technology with `hideLabel`.
 */
import { type SelectHTMLAttributes, useId } from "react";
import { cn } from "./cn";
import { CONTROL, FormRow } from "./form-row";

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
    <FormRow id={selectId} label={label} hideLabel={hideLabel}>
      <select id={selectId} className={cn(CONTROL, "px-2", className)} {...props}>
        {options.map((o) => {
          const { value, label: text } = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
    </FormRow>
  );
}
