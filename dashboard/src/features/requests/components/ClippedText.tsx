/**
 * Long text shown clipped: the first `limit` characters and a "Show all" button naming the full
 * length, so a 725,000-character prompt costs the page nothing until asked for.
 */
import { useState } from "react";
import { Button } from "../../../components/ui";

/** Characters shown before "Show all". */
export const CLIP_AT = 2_000;

/** `text`, clipped at `limit` characters until the reader asks for all of it. */
export function ClippedText({ text, limit = CLIP_AT, className }: { text: string; limit?: number; className?: string }) {
  const [all, setAll] = useState(false);
  const clipped = !all && text.length > limit;
  return (
    <>
      <span className={className}>{clipped ? `${text.slice(0, limit)}…` : text}</span>
      {clipped && (
        <Button variant="secondary" className="mt-1 flex" onClick={() => setAll(true)}>
          Show all ({text.length.toLocaleString()} characters)
        </Button>
      )}
    </>
  );
}
