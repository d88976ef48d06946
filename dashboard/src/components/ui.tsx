/**
 * Small shadcn-style primitives on Tailwind: buttons, fields, cards, alerts, code blocks with
 * a copy button. Dialogs are Radix (components/dialogs.tsx).
 */
import { useState, type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode } from "react";

const variants = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 dark:bg-indigo-500 dark:hover:bg-indigo-400 dark:text-zinc-950",
  secondary: "border border-zinc-300 bg-white hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:bg-zinc-800",
  danger: "bg-red-700 text-white hover:bg-red-800 dark:bg-red-500 dark:text-zinc-950 dark:hover:bg-red-400",
  ghost: "hover:bg-zinc-100 dark:hover:bg-zinc-800",
};

/** A button; `variant` picks the colour. */
export function Button({ variant = "primary", className = "", ...props }: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof variants }) {
  return (
    <button
      className={`inline-flex items-center justify-center gap-2 rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-50 ${variants[variant]} ${className}`}
      {...props}
    />
  );
}

/** A labelled text input. */
export function Field({ label, id, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} className="rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm dark:border-zinc-700 dark:bg-zinc-900" {...props} />
    </div>
  );
}

/** A bordered section with a heading. */
export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="rounded-lg border border-zinc-200 p-5 dark:border-zinc-800" aria-label={title}>
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

const tones = {
  info: "border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100",
  warning: "border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100",
  error: "border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
  success: "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100",
};

/** A message box; errors and warnings are announced (role=alert), the rest politely. */
export function Alert({ tone = "info", children }: { tone?: keyof typeof tones; children: ReactNode }) {
  return (
    <div role={tone === "error" || tone === "warning" ? "alert" : "status"} className={`rounded-md border px-3 py-2 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

/** A button that copies `text` and says so. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
      type="button"
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopied(true);
        setTimeout(() => setCopied(false), 2000);
      }}
    >
      {copied ? "Copied" : label}
    </Button>
  );
}

/** A code block with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="flex items-center justify-between text-sm font-medium">
        {label}
        <CopyButton text={code} label={`Copy ${label}`} />
      </figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1) */}
      <pre className="overflow-x-auto rounded-md bg-zinc-100 p-3 text-xs dark:bg-zinc-900" tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

/** Page title. */
export function PageTitle({ children, subtitle }: { children: ReactNode; subtitle?: ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-semibold">{children}</h1>
      {subtitle && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>}
    </div>
  );
}

/** Formats an ISO time for people (locale date and time), or a dash. */
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : "—");

/**
 * A page whose query has no data yet: its title, then "Loading…" while pending or the error's
 * message once failed. Pages render it until `query.isSuccess`, which narrows `query.data`.
 */
export function QueryStatus({ query, title }: { query: { isPending: boolean; error: Error | null }; title: ReactNode }) {
  return (
    <>
      {title}
      {query.isPending ? <p>Loading…</p> : <Alert tone="error">{query.error?.message}</Alert>}
    </>
  );
}

/** The header row of a data table: one column header per label. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead className="border-b border-zinc-200 dark:border-zinc-800">
      <tr>
        {columns.map((h) => (
          <th key={h} scope="col" className="py-2 pr-3 font-medium">
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}
