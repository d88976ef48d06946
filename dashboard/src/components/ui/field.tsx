/** A labelled text input. */
import type { InputHTMLAttributes } from "react";
import { cn } from "./cn";
import { CONTROL, FormRow } from "./form-row";

/** An `<input>` with its visible label. */
export function Field({ label, id, className, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string }) {
  return (
    <FormRow id={id} label={label}>
      <input id={id} className={cn(CONTROL, "px-3", className)} {...props} />
    </FormRow>
  );
}
