-- The preview of a request (llm_requests.preview, PREVIEW_CHARS in src/db/schema/requests.ts):
-- the start of the last user turn of its body, whitespace collapsed. IMMUTABLE (a generated
-- column may only call immutable functions), schema-qualified, built-ins only.
--
-- sightline_turn_text: the text of one turn: `content` (OpenAI, Anthropic, Mistral, Cohere v2,
-- OpenAI Responses items) or `parts` (Gemini), a string or an array whose parts' `text` strings
-- are joined with blanks (tool results, images and other non-text parts are skipped).
CREATE OR REPLACE FUNCTION public.sightline_turn_text(turn jsonb) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
  SELECT CASE jsonb_typeof(c)
    WHEN 'string' THEN c #>> '{}'
    WHEN 'array' THEN (SELECT string_agg(p ->> 'text', ' ' ORDER BY n) FROM jsonb_array_elements(c) WITH ORDINALITY AS x(p, n) WHERE jsonb_typeof(p -> 'text') = 'string')
  END
  FROM (SELECT coalesce(turn -> 'content', turn -> 'parts') AS c) AS t
);--> statement-breakpoint
-- sightline_preview: the last turn with role `user` (or no role: Gemini contents) that has text,
-- in `messages`, `contents` or `input`; else `input`, `message` (Cohere v1) or `prompt`
-- (completions) when a string. At most 4 * max_chars characters are read; a text longer than
-- max_chars is cut at a word boundary, trailing words holding a digit are dropped (a number split
-- by blanks, e.g. a card, is never shown in part, where the PII masker could not recognise it),
-- and `…` is appended. Null when there is no text.
CREATE OR REPLACE FUNCTION public.sightline_preview(body jsonb, max_chars integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
  SELECT CASE WHEN length(t) <= max_chars THEN t
    ELSE left(regexp_replace(regexp_replace(left(t, max_chars + 1), '\s+\S*$', ''), '(\s+\S*[0-9]\S*)+$', ''), max_chars) || '…' END
  FROM (
    SELECT nullif(btrim(regexp_replace(left(raw, max_chars * 4), '\s+', ' ', 'g')), '') AS t
    FROM (
      SELECT coalesce(
        (SELECT public.sightline_turn_text(m)
          FROM jsonb_array_elements(CASE WHEN jsonb_typeof(turns) = 'array' THEN turns ELSE '[]'::jsonb END) WITH ORDINALITY AS e(m, n)
          WHERE coalesce(m ->> 'role', 'user') = 'user' AND public.sightline_turn_text(m) IS NOT NULL
          ORDER BY n DESC LIMIT 1),
        CASE WHEN jsonb_typeof(body -> 'input') = 'string' THEN body ->> 'input' END,
        CASE WHEN jsonb_typeof(body -> 'message') = 'string' THEN body ->> 'message' END,
        CASE WHEN jsonb_typeof(body -> 'prompt') = 'string' THEN body ->> 'prompt' END
      ) AS raw
      FROM (SELECT coalesce(body -> 'messages', body -> 'contents', body -> 'input') AS turns) AS s
    ) AS r
  ) AS p
);
