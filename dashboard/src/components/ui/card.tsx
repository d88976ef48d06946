/** A bordered section with a heading and optional actions beside it. */
import type { ReactNode } from "react";
import { cn } from "./cn";

/** A card; `title` names the section (its landmark label and h2). */
export function Card({ title, children, actions, className }: { title?: string; children: ReactNode; actions?: ReactNode; className?: string }) {
  return (
    <section className={cn("rounded-lg border border-zinc-200 p-5 dark:border-zinc-800", className)} aria-label={title}>
      {(title || actions) && (
        <div className="mb-3 flex items-center justify-between gap-2">
          {title && <h2 className="text-lg font-semibold">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}
