-- The preview of a request (llm_requests.preview, PREVIEW_CHARS in src/db/schema/requests.ts):
-- the start of the last user turn of its body, whitespace collapsed. IMMUTABLE (a generated
-- column may only call immutable functions), schema-qualified, built-ins only. PL/pgSQL, so the
-- turns are walked from the last one and the walk stops at the first user turn with text
-- (bench/results/list-preview.md).
--
-- sightline_turn_text: the text of one turn: `content` (OpenAI, Anthropic, Mistral, Cohere v2,
-- OpenAI Responses items) or `parts` (Gemini), a string or an array whose parts' `text` strings
-- are joined with blanks (tool results, images and other non-text parts are skipped).
CREATE OR REPLACE FUNCTION public.sightline_turn_text(turn jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  c jsonb := coalesce(turn -> 'content', turn -> 'parts');
  joined text;
BEGIN
  IF jsonb_typeof(c) = 'string' THEN
    RETURN c #>> '{}';
  END IF;
  IF jsonb_typeof(c) IS DISTINCT FROM 'array' THEN
    RETURN NULL;
  END IF;
  SELECT string_agg(p ->> 'text', ' ' ORDER BY n) INTO joined
  FROM jsonb_array_elements(c) WITH ORDINALITY AS x(p, n) WHERE jsonb_typeof(p -> 'text') = 'string';
  RETURN joined;
END
$$;--> statement-breakpoint
-- sightline_preview: the last turn with role `user` (or no role: Gemini contents) that has text,
-- in `messages`, `contents` or `input`; else `input`, `message` (Cohere v1) or `prompt`
-- (completions) when a string. At most 4 * max_chars characters are read; a text longer than
-- max_chars is cut at a word boundary, trailing words holding a digit are dropped (a number split
-- by blanks, e.g. a card, is never shown in part, where the PII masker could not recognise it),
-- and `…` is appended. Null when there is no text.
CREATE OR REPLACE FUNCTION public.sightline_preview(body jsonb, max_chars integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  turns jsonb := coalesce(body -> 'messages', body -> 'contents', body -> 'input');
  turn jsonb;
  raw text;
  t text;
BEGIN
  IF jsonb_typeof(turns) = 'array' THEN
    FOR i IN REVERSE jsonb_array_length(turns) - 1 .. 0 LOOP
      turn := turns -> i;
      IF coalesce(turn ->> 'role', 'user') = 'user' THEN
        raw := public.sightline_turn_text(turn);
        EXIT WHEN raw IS NOT NULL;
      END IF;
    END LOOP;
  END IF;
  raw := coalesce(
    raw,
    CASE WHEN jsonb_typeof(body -> 'input') = 'string' THEN body ->> 'input' END,
    CASE WHEN jsonb_typeof(body -> 'message') = 'string' THEN body ->> 'message' END,
    CASE WHEN jsonb_typeof(body -> 'prompt') = 'string' THEN body ->> 'prompt' END
  );
  t := nullif(btrim(regexp_replace(left(raw, max_chars * 4), '\s+', ' ', 'g')), '');
  IF t IS NULL OR length(t) <= max_chars THEN
    RETURN t;
  END IF;
  RETURN left(regexp_replace(regexp_replace(left(t, max_chars + 1), '\s+\S*$', ''), '(\s+\S*[0-9]\S*)+$', ''), max_chars) || '…';
END
$$;
