/** A code block with a copy button. */
import { useState } from "react";
import { Button } from "./button";

/** A button that copies `text` and says so for two seconds. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant="secondary"
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

/** `code` in a scrollable block, captioned `label`, with "Copy `label`". */
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
