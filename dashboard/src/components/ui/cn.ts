/**
 * `cn(...)`: joins class names (clsx: strings, arrays, `{class: condition}` objects) and lets a
 * later Tailwind class override an earlier one of the same utility (tailwind-merge), so a
 * primitive's defaults can be overridden with `className`, as shadcn/ui does.
 */
import { type ClassValue, clsx } from "clsx";
import { twMerge } from "tailwind-merge";

/** Class names of `inputs`, conflicting Tailwind utilities resolved in favour of the last. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
