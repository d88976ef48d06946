/**
 * Text extraction: turns a logged request/response pair into role-separated text that the
 * scorers judge. Understands OpenAI chat (incl. streamed `delta` chunks and the Responses API
 * `input`/`output`), Anthropic messages, Cohere chat v1/v2 and plain trace payloads (any JSON:
 * all strings are collected, `output`-like keys count as completion).
 */
import { isObject } from "../util";
import { contextPassages, templateParts } from "./rag-templates";

/** Generation parameters that matter for consumption scoring; undefined when not logged. */
export interface GenerationParams {
  /** `max_tokens`, `max_completion_tokens` or `max_output_tokens`, in tokens. */
  maxTokens?: number;
  /** Number of completions requested (`n`, Cohere `num_generations`). */
  n?: number;
  /** True when `logprobs` was requested. */
  logprobs?: boolean;
  /** `top_logprobs` (alternatives per token). */
  topLogprobs?: number;
  stream?: boolean;
}

/** Role-separated text of one call. Every list keeps the logged order. */
export interface ExtractedCall {
  /** System/developer prompts, `preamble`, `instructions`, tool definitions. */
  system: string[];
  /** User turns (and every string of a plain trace request). */
  user: string[];
  /** Context supplied to the model: tool results, retrieved documents, one entry per passage. */
  documents: string[];
  /** Assistant turns replayed in the request (conversation history). */
  history: string[];
  /** Model output: message text, tool-call arguments, reassembled stream deltas. */
  completion: string[];
  params: GenerationParams;
  /** Finish/stop reasons as logged (`stop`, `length`, `end_turn`, `MAX_TOKENS`, ...). */
  finishReasons: string[];
}

/**
 * Leading labels that mark a system or user message as retrieved context (RAG templates,
 * BIPIA/PoisonedRAG builders): such a message counts as documents, not as instructions.
 */
const CONTEXT_HEADER =
  /^\s*(?:#+\s*)?(?:retrieved (?:documents?|passages?|context)|context(?: documents?)?|search results?|documents?|sources?|reference(?:s| documents?)?|knowledge(?: base)?|passages?|tool (?:output|results?)|web results?)\s*:/i;

/**
 * Passage markers at a line start, as RAG templates write them: `[1] ...`, `Document 2 (Title):`,
 * `Source 3:`, `<doc id="1" ...>`, one JSON object per passage (`{"id": 1, "title": ...}`),
 * and, inside a context block, markdown headings (`### Title`) and bullets.
 */
/** A line that opens a list of passages: a bullet or a markdown heading ("- Note: ...", "### Title"). */
export const LIST_OPENING = /^\s*(?:[-*\u2022]|#{1,4})\s+\S/;

const PASSAGE_MARK =
  /^\s*(?:\[\d{1,3}\]|(?:document|passage|source|doc|result|snippet|excerpt|chunk)\s*#?\d{1,3}\b|<doc\b|\{\s*"(?:id|doc_id|title)"\s*:|#{1,4}\s+\S|[-*\u2022]\s+\S)/i;

/** Strong passage markers: enough on their own to show that a message carries documents. */
const STRONG_PASSAGE_MARK =
  /^\s*(?:\[\d{1,3}\]\s*\S|(?:document|passage|source|doc|snippet|excerpt|chunk)\s*#?\d{1,3}\s*(?:\([^)\n]{1,120}\))?\s*[:.)-]|<doc\b[^>\n]*>|\{\s*"(?:id|doc_id)"\s*:\s*"?\d)/i;

/**
 * Passage markers of a tool's or a document's own text, beside `STRONG_PASSAGE_MARK`: search tools
 * number their hits ("Result 1: ...", "Hit 2 -", "Match #3."). Not used to decide that a user's
 * message carries documents ("Result 1: pass" in a test log is no retrieval).
 */
const TOOL_PASSAGE_MARK = new RegExp(
  `${STRONG_PASSAGE_MARK.source}|^\\s*(?:result|hit|match|entry|record)\\s*#?\\d{1,3}\\s*(?:\\([^)\\n]{1,120}\\))?\\s*[:.)-]`,
  "i",
);

/**
 * A line that opens a context block inside a system prompt or user turn: "Relevant passages:",
 * "Here is what I found:", "I pasted the relevant text below.", "Use these notes to answer.".
 */
const EMBEDDED_HEADER =
  /^\s*(?:#+\s*)?(?:(?:relevant|retrieved|supporting|reference|attached|following)\s+)?(?:retrieved (?:documents?|passages?|context)|context(?: documents?)?|search results?|documents?|sources?|references?|knowledge(?: base)?(?: results?)?|passages?|tool (?:output|results?)|web results?|notes|excerpts?|snippets?|articles?|results|contexto|contexte|kontext|contesto|documentos|dokumente|fuentes|quellen|referencias)\s*:\s*$|^\s*(?:here (?:is|are) (?:what i found|the (?:relevant )?(?:documents?|passages?|notes|context|sources?|results))|i (?:pasted|copied|included|attached) (?:the )?(?:relevant )?(?:text|documents?|notes|passages?|context)\b[^\n]{0,30}|use (?:these|the following) (?:notes|documents?|passages?|sources?)\b[^\n]{0,40})[.:]?\s*$/i;

/**
 * Nouns that name a pasted text ("Summarize this email:", "the handbook below", "CANDIDATE
 * RESUME:"), in English and in the languages ordinary traffic uses most after it (es, fr, de, it,
 * pt). A line that introduces such a text is where the user's own words end.
 */
const DOC_NOUN = String.raw`(?:e-?mails?|mails?|messages?|articles?|documents?|docs?|texts?|notices?|letters?|reports?|pages?|posts?|threads?|reviews?|tickets?|transcripts?|r[eé]sum[eé]s?|cvs?|contracts?|passages?|paragraphs?|excerpts?|notes|tables?|spreadsheets?|logs?|handbook|manual|information|background|data|knowledge(?: base)?|faqs?|sources?|guides?|wiki|materials?|correos?|art[ií]culos?|documentos?|textos?|courriels?|textes?|artikel|dokumente?|nachricht(?:en)?|texte?|documenti|testo)`;

/**
 * A line that introduces a pasted text and ends the user's (or developer's) own words: it names
 * a text (`DOC_NOUN`) and ends with a colon ("Summarize this email for me:", "Fass mir die Mail
 * kurz zusammen:"), or points below or to what follows ("Below is some background information.",
 * "Answer only from the handbook below."), or labels the text in capitals ("CANDIDATE RESUME:
 * Jordan Ellis"). The text starts on the next line, or on this one after a capital label.
 */
const PASTE_INTRO = new RegExp(
  String.raw`^[^\n]{0,160}\b${DOC_NOUN}\b[^\n]{0,60}[:\uff1a]\s*$|^[^\n]{0,120}\b(?:below|following)\b[^\n]{0,40}\b${DOC_NOUN}\b[^\n]{0,40}[.:]\s*$|^[^\n]{0,120}\b${DOC_NOUN}\b[^\n]{0,40}\bbelow\b[^\n]{0,40}[.:]\s*$`,
  "iu",
);

/** A label in capitals, with the text's first words after it: "CANDIDATE RESUME: Jordan Ellis". */
const CAPITAL_LABEL = /^\s*((?:[A-Z\u00C0-\u00DE]{2,}\s+){0,2}[A-Z\u00C0-\u00DE]{2,})\s*:\s*\S/u;
const DOC_NOUN_ALONE = new RegExp(String.raw`(?:^|\s)${DOC_NOUN}$`, "iu");

/** Whether `line` opens with a label in capitals that names a text (`CAPITAL_LABEL`, `DOC_NOUN`). */
function capitalLabel(line: string): boolean {
  const m = CAPITAL_LABEL.exec(line);
  return m !== null && DOC_NOUN_ALONE.test(m[1]!);
}

/** Separator lines between instructions and a pasted text ("=====", "-----", LlamaIndex's dashes). */
const SEPARATOR_LINE = /^\s*(?:={5,}|-{5,}|\*{5,}|_{5,}|~{5,}|#{5,})\s*$/;

/** Quote fences around pasted prose (a backtick fence is code, not a pasted text). */
const QUOTE_FENCE = /^\s*(?:"""|''')\s*$/;

/** A markdown table row ("| North | Q1 | 184,200 |"). */
const TABLE_ROW = /^\s*\|.*\|\s*$/;

/**
 * The opening tag of an XML-tagged text at a line start (`<article title="...">`, `<reviews>`,
 * `<retrieved_tickets>`), Anthropic's recommended way to pass documents; HTML and component
 * markup (a user's own code) is not a pasted text.
 */
const XML_OPEN = /^\s*<([A-Za-z][\w.-]{1,40})(?:\s[^<>\n]{0,300})?>/;
const MARKUP_TAGS = new Set(
  "html head body div span p a ul ol li table thead tbody tr td th script style svg template button form input img br hr section header footer nav main h1 h2 h3 h4 h5 h6 label select option textarea iframe link meta title code pre em strong b i u small sub sup canvas video audio source picture figure figcaption blockquote view text image slot xml project configuration dependency dependencies plugin build".split(
    " ",
  ),
);

/**
 * Where an XML-tagged text opening at line `i` of `text` ends (the line after its last closing
 * tag), or -1: one native search for the closing tag, then a count of the line breaks before it.
 */
function xmlBlockEnd(text: string, lines: readonly string[], i: number): number {
  const m = XML_OPEN.exec(lines[i]!);
  if (!m || MARKUP_TAGS.has(m[1]!.toLowerCase())) return -1;
  const close = `</${m[1]}>`;
  const at = text.lastIndexOf(close);
  if (at < 0) return -1;
  // The line of the last closing tag: count the line breaks before it (one native pass).
  let line = 0;
  for (let k = text.indexOf("\n"); k >= 0 && k < at; k = text.indexOf("\n", k + 1)) line++;
  return line >= i ? line + 1 : -1;
}

/**
 * Passages of an XML-tagged text that repeats one tag at line starts: one passage per
 * `<review>...</review>` or `<ticket id="...">` under a wrapper (`<reviews>`, whose own line is
 * left out), or per sibling (`<document index="1">` ... `<document index="2">`). Null when no tag
 * opens two lines.
 */
function xmlChildren(lines: readonly string[]): string[] | null {
  const counts = new Map<string, number>();
  for (const l of lines) {
    const m = XML_OPEN.exec(l);
    if (m) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  }
  let child: string | undefined;
  for (const [tag, n] of counts) if (n >= 2 && (!child || n > counts.get(child)!)) child = tag;
  if (!child) return null;
  const open = new RegExp(String.raw`^\s*<${child.replace(/[.-]/g, "\\$&")}[\s>]`);
  const first = lines.findIndex((l) => l.trim());
  const wrapped = !open.test(lines[first]!);
  return splitAtMarks(wrapped ? lines.slice(first + 1) : lines, open);
}

/** A question line after pasted documents ("Q: ...", "Question: ..."): the user's, not a document's. */
const TRAILING_QUESTION = /^\s*(?:Q|Question)\s*:/i;

/** An empty answer slot closing a prompt ("Answer:", "Helpful Answer:", "A:"): scaffolding, not the question. */
const ANSWER_SLOT = /^\s*(?:A|Answer|Helpful Answer|Response)\s*:\s*$/i;

/**
 * The user's question closing a message that opens with a context header ("Context: ...
 * Question: Who discovered penicillin?\nAnswer:"): from its last "Question:"/"Q:" line within
 * the last 20 lines on, the answer slot dropped; "" when there is none.
 */
function trailingQuestion(text: string): string {
  const lines = text.split("\n");
  let end = lines.length;
  while (end > 0 && (!lines[end - 1]!.trim() || ANSWER_SLOT.test(lines[end - 1]!))) end--;
  for (let i = end - 1; i > 0 && i >= end - 20; i--) {
    if (TRAILING_QUESTION.test(lines[i]!)) return lines.slice(i, end).join("\n").trim();
  }
  return "";
}

/** Fence lines around pasted text (`"""`, ```` ``` ````). */
const FENCE = /^\s*(?:"""|```\w*|''')\s*$/;

const MAX_DEPTH = 24;
/** Structural keys whose string values are not text (block types, ids, media types, images). */
const SKIP_KEYS = new Set(["type", "id", "tool_use_id", "tool_call_id", "media_type", "image_url", "b64_json", "embedding", "cache_control", "signature"]);

/** Every string under `v` (depth-bounded, linear in size), skipping base64 image data keys. */
export function collectStrings(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > MAX_DEPTH || v === null || v === undefined) return out;
  if (typeof v === "string") {
    if (v.length > 0) out.push(v);
  } else if (Array.isArray(v)) {
    for (const x of v) collectStrings(x, out, depth + 1);
  } else if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (SKIP_KEYS.has(k)) continue;
      collectStrings(x, out, depth + 1);
    }
  }
  return out;
}

/** Text of a content value: string, OpenAI/Anthropic/Cohere part arrays, or any JSON. */
function contentText(c: unknown): string[] {
  if (typeof c === "string") return c ? [c] : [];
  if (Array.isArray(c)) return c.flatMap((p) => partText(p));
  if (isObject(c)) return partText(c);
  return [];
}

function partText(p: unknown): string[] {
  if (typeof p === "string") return [p];
  if (!isObject(p)) return [];
  if (typeof p.text === "string") return [p.text];
  if (p.type === "image" || p.type === "image_url" || p.type === "input_image") return [];
  return collectStrings(p);
}

/**
 * The passages of a tool result that is JSON holding a list: the elements of its first list of two
 * or more elements (`{"passages": [...]}`, `{"results": [...]}`, a bare array), each one passage
 * (its strings joined by newlines). Null when `text` is not JSON or holds no such list (it is then
 * one passage, as written).
 */
function jsonPassages(text: string): string[] | null {
  const v = parseIfJson(text);
  if (v === text || v === null || typeof v !== "object") return null;
  const list = firstList(v, 0);
  if (!list) return null;
  return list.map((item) => collectStrings(item).join("\n")).filter((p) => p.trim().length > 0);
}

/** The first array of two or more elements under `v`, depth-first and depth-bounded. */
function firstList(v: unknown, depth: number): unknown[] | null {
  if (depth > 4) return null;
  if (Array.isArray(v)) return v.length >= 2 ? v : null;
  if (!isObject(v)) return null;
  for (const [k, x] of Object.entries(v)) {
    if (SKIP_KEYS.has(k)) continue;
    const found = firstList(x, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Adds a tool's or a document block's text: one entry per JSON list element or per marked passage. */
function pushToolResult(out: ExtractedCall, text: string): void {
  const json = jsonPassages(text);
  if (json) {
    for (const p of json) pushDocument(out, p, TOOL_PASSAGE_MARK);
  } else pushDocument(out, text, TOOL_PASSAGE_MARK);
}

/** Adds a context text, one entry per passage when it has passage markers. */
function pushDocument(out: ExtractedCall, text: string, strong: RegExp = STRONG_PASSAGE_MARK): void {
  const body = text.replace(CONTEXT_HEADER, "");
  const lines = body.split("\n").filter((l) => !FENCE.test(l) && !/^\s*<\/doc>\s*$/i.test(l));
  // Bullets and headings split passages only where they lead the block (a list of passages),
  // not inside a passage that happens to contain a list.
  const first = lines.find((l) => l.trim()) ?? "";
  const mark = LIST_OPENING.test(first) ? PASSAGE_MARK : strong;
  const children = XML_OPEN.test(first) ? xmlChildren(lines) : null;
  out.documents.push(...(children ?? splitAtMarks(lines, mark)));
}

/**
 * `lines` cut before each line that `mark` matches (not before the first non-blank one): one
 * trimmed, non-empty passage per mark.
 */
function splitAtMarks(lines: readonly string[], mark: RegExp): string[] {
  const passages: string[] = [];
  let cur: string[] = [];
  for (const line of lines) {
    if (mark.test(line) && cur.some((l) => l.trim())) {
      passages.push(cur.join("\n"));
      cur = [];
    }
    cur.push(line);
  }
  if (cur.some((l) => l.trim())) passages.push(cur.join("\n"));
  return passages.map((p) => p.trim()).filter((p) => p.length > 0);
}

/**
 * Passages of a RAG template's context slot: its paragraphs (`contextPassages`), each cut again
 * at strong passage markers, since applications that number their documents ("[1] ...",
 * "Passage 2: ...", "Document 3 (Title):") often join them with single newlines.
 */
function templatePassages(context: string): string[] {
  return contextPassages(context).flatMap((p) => splitAtMarks(p.split("\n"), STRONG_PASSAGE_MARK));
}

/**
 * Documents embedded in a system prompt or user turn after its instructions: from the first
 * context-header line or strong passage marker on, minus a trailing question line. Texts pasted
 * the other common ways count too (issue 31.3, "documents wherever applications put them"):
 * after a line that introduces a text (`PASTE_INTRO`, `CAPITAL_LABEL`), between quote fences,
 * after a separator line, an XML-tagged block (to its closing tag), or a markdown table. The
 * message itself stays whole in `system`/`user` (other scorers judge it as written); the block is
 * added to `documents` as well. Null when the message embeds no documents. `pasted` false looks
 * only for a context header or passage marks (`ownWords`).
 */
export function embeddedDocuments(text: string, pasted = true): string | null {
  if (text.length < 80) return null;
  const lines = text.split("\n");
  const found = markedStart(lines) ?? (pasted ? pastedStart(text, lines) : null);
  if (!found) return null;
  const { start } = found;
  let { end } = found;
  if (start >= lines.length) return null;
  while (end > start && (!lines[end - 1]!.trim() || TRAILING_QUESTION.test(lines[end - 1]!))) end--;
  const block = lines.slice(start, end).join("\n");
  return block.trim().length >= 40 ? block : null;
}

/** Where an embedded block starts by its context header or first strong passage marker (first 400 lines). */
function markedStart(lines: readonly string[]): { start: number; end: number } | null {
  for (let i = 0; i < lines.length && i < 400; i++) {
    if (EMBEDDED_HEADER.test(lines[i]!)) return { start: i + 1, end: lines.length };
    if (STRONG_PASSAGE_MARK.test(lines[i]!)) return { start: i, end: lines.length };
  }
  return null;
}

/**
 * Where a text pasted without a context header starts (first 400 lines): after a line that
 * introduces it or a separator line, at a capital label, a quote fence or a markdown table, or
 * an XML-tagged block (which ends at its closing tag).
 */
function pastedStart(text: string, lines: readonly string[]): { start: number; end: number } | null {
  for (let i = 0; i < lines.length && i < 400; i++) {
    const line = lines[i]!;
    if (PASTE_INTRO.test(line) || (i > 0 && SEPARATOR_LINE.test(line))) return { start: i + 1, end: lines.length };
    if (capitalLabel(line) || (i > 0 && QUOTE_FENCE.test(line))) return { start: i, end: lines.length };
    if (TABLE_ROW.test(line) && TABLE_ROW.test(lines[i + 1] ?? "")) return { start: i, end: lines.length };
    const xmlEnd = xmlBlockEnd(text, lines, i);
    if (xmlEnd > i) return { start: i, end: xmlEnd };
  }
  return null;
}

/**
 * A system prompt or user turn as its author wrote it: the text with its embedded document
 * block under a context header or passage marks removed; the text itself when it embeds none.
 * A text pasted after "Translate this:" or between quote fences stays: jailbreak_detection reads
 * these words, and payload splitting hides its attack exactly there (Kang et al. 2023,
 * "Exploiting Programmatic Behavior of LLMs").
 */
export function ownWords(text: string): string {
  return withoutBlock(text, embeddedDocuments(text, false));
}

/** The user's question without any embedded or pasted text (`embeddedDocuments`), for relating an answer to its passages. */
export function askedWords(text: string): string {
  return withoutBlock(text, embeddedDocuments(text));
}

/** `text` with the embedded block `docs` blanked; `text` itself when there is none. */
const withoutBlock = (text: string, docs: string | null) => (docs === null ? text : text.replace(docs, " "));

/** Roles whose messages may carry pasted or templated documents. */
const INSTRUCTION_ROLES = new Set(["system", "user", "developer"]);

function pushByRole(out: ExtractedCall, role: string, texts: string[]): void {
  for (const t of texts) {
    const template = INSTRUCTION_ROLES.has(role) ? templateParts(t) : null;
    if (template) {
      // A framework's QA prompt: the context slot is documents, the question slot the user's own
      // words; the fixed scaffolding is neither (./rag-templates.ts).
      out.documents.push(...templatePassages(template.context));
      if (template.question) (role === "user" ? out.user : out.system).push(template.question);
    } else if (role === "tool" || role === "function" || role === "document") pushToolResult(out, t);
    else if (CONTEXT_HEADER.test(t) && (role === "system" || role === "user" || role === "developer")) {
      // "Context: ... Question: ...": the question is also the author's own words (the
      // documents keep it: the models were fitted on passages read that way).
      pushDocument(out, t);
      const question = trailingQuestion(t);
      if (question) (role === "user" ? out.user : out.system).push(question);
    } else {
      if (role === "system" || role === "developer") out.system.push(t);
      else if (role === "assistant" || role === "chatbot" || role === "model") out.history.push(t);
      else out.user.push(t);
      if (role !== "assistant" && role !== "chatbot" && role !== "model") {
        const docs = embeddedDocuments(t);
        if (docs !== null) pushDocument(out, docs);
      }
    }
  }
}

/** One request message in any supported dialect. */
function readMessage(out: ExtractedCall, m: unknown): void {
  if (typeof m === "string") {
    pushByRole(out, "user", [m]);
    return;
  }
  if (!isObject(m)) return;
  // OpenAI Responses API input items: a tool's output is supplied context, a call the model's own.
  if (m.type === "function_call_output" || m.type === "custom_tool_call_output" || m.type === "mcp_call_output") {
    pushByRole(out, "document", collectStrings(parseIfJson(m.output)));
    return;
  }
  if (m.type === "function_call" || m.type === "custom_tool_call") {
    out.history.push(...collectStrings(parseIfJson(m.arguments ?? m.input)));
    return;
  }
  const role = String(m.role ?? "user").toLowerCase();
  const content = m.content ?? m.message;
  if (Array.isArray(content)) {
    for (const part of content) {
      if (isObject(part) && (part.type === "tool_result" || part.type === "document" || part.type === "search_result")) {
        pushByRole(out, "document", collectStrings(part.content ?? part.source ?? part.document ?? part));
      } else if (isObject(part) && part.type === "tool_use") {
        out.history.push(...collectStrings(part.input));
      } else pushByRole(out, role, partText(part));
    }
  } else pushByRole(out, role, contentText(content));
  if (Array.isArray(m.tool_calls)) out.history.push(...collectStrings(m.tool_calls.map((t) => (isObject(t) ? t.function : t))));
  if (Array.isArray(m.tool_results)) pushByRole(out, "document", collectStrings(m.tool_results));
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function readParams(req: Record<string, unknown>): GenerationParams {
  const params: GenerationParams = {};
  const maxTokens = num(req.max_completion_tokens) ?? num(req.max_tokens) ?? num(req.max_output_tokens);
  if (maxTokens !== undefined) params.maxTokens = maxTokens;
  const n = num(req.n) ?? num(req.num_generations);
  if (n !== undefined) params.n = n;
  if (req.logprobs === true || (typeof req.logprobs === "number" && req.logprobs > 0)) params.logprobs = true;
  const top = num(req.top_logprobs);
  if (top !== undefined) params.topLogprobs = top;
  if (typeof req.stream === "boolean") params.stream = req.stream;
  return params;
}

function parseIfJson(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const s = v.trim();
  if (!(s.startsWith("{") || s.startsWith("["))) return v;
  try {
    return JSON.parse(s) as unknown;
  } catch {
    return v;
  }
}

const REQUEST_KEYS = new Set(["messages", "system", "preamble", "message", "chat_history", "documents", "tools", "prompt", "input", "instructions"]);

function readRequest(out: ExtractedCall, raw: unknown): void {
  const req = parseIfJson(raw);
  if (!isObject(req)) {
    pushByRole(out, "user", collectStrings(req));
    return;
  }
  out.params = readParams(req);
  if (!Object.keys(req).some((k) => REQUEST_KEYS.has(k))) {
    pushByRole(out, "user", collectStrings(req)); // plain trace: {args, kwargs} or any JSON
    return;
  }
  pushByRole(out, "system", contentText(req.system));
  pushByRole(out, "system", contentText(req.preamble));
  pushByRole(out, "system", contentText(req.instructions));
  if (Array.isArray(req.tools)) out.system.push(...collectStrings(req.tools));
  if (Array.isArray(req.chat_history)) for (const m of req.chat_history) readMessage(out, m);
  if (Array.isArray(req.messages)) for (const m of req.messages) readMessage(out, m);
  if (Array.isArray(req.input)) for (const m of req.input) readMessage(out, m);
  else if (req.input !== undefined) pushByRole(out, "user", collectStrings(req.input));
  if (typeof req.message === "string") pushByRole(out, "user", [req.message]);
  if (req.prompt !== undefined) pushByRole(out, "user", collectStrings(req.prompt));
  if (Array.isArray(req.documents)) for (const d of req.documents) pushByRole(out, "document", collectStrings(d));
}

/** Reads one response object (or stream chunk); returns false when it has no known shape. */
function readResponseObject(out: ExtractedCall, res: Record<string, unknown>, deltas: Map<number, string[]>): boolean {
  let known = false;
  if (Array.isArray(res.choices)) {
    known = true;
    res.choices.forEach((c, i) => {
      if (!isObject(c)) return;
      const msg = c.message;
      if (isObject(msg)) {
        out.completion.push(...contentText(msg.content));
        if (typeof msg.refusal === "string") out.completion.push(msg.refusal);
        if (Array.isArray(msg.tool_calls)) out.completion.push(...collectStrings(msg.tool_calls.map((t) => (isObject(t) ? t.function : t))));
        if (isObject(msg.function_call)) out.completion.push(...collectStrings(msg.function_call));
      }
      if (isObject(c.delta)) {
        const idx = num(c.index) ?? i;
        const acc = deltas.get(idx) ?? [];
        acc.push(...contentText(c.delta.content));
        if (Array.isArray(c.delta.tool_calls)) acc.push(...collectStrings(c.delta.tool_calls));
        deltas.set(idx, acc);
      }
      if (typeof c.text === "string") out.completion.push(c.text);
      if (typeof c.finish_reason === "string") out.finishReasons.push(c.finish_reason);
    });
  }
  if (Array.isArray(res.content)) {
    known = true;
    for (const b of res.content) {
      if (isObject(b) && b.type === "tool_use") out.completion.push(...collectStrings(b.input));
      else out.completion.push(...partText(b));
    }
  }
  if (isObject(res.message) && res.message.content !== undefined) {
    known = true;
    out.completion.push(...contentText(res.message.content));
    if (Array.isArray(res.message.tool_calls)) out.completion.push(...collectStrings(res.message.tool_calls));
  }
  if (typeof res.text === "string") {
    known = true;
    out.completion.push(res.text);
  }
  if (typeof res.output_text === "string") {
    known = true;
    out.completion.push(res.output_text);
  } else if (Array.isArray(res.output)) {
    known = true;
    out.completion.push(...collectStrings(res.output.map((o) => (isObject(o) ? (o.content ?? o.arguments ?? o) : o))));
  }
  for (const k of ["stop_reason", "finish_reason"] as const) {
    if (typeof res[k] === "string") {
      known = true;
      out.finishReasons.push(res[k] as string);
    }
  }
  return known;
}

function readResponse(out: ExtractedCall, raw: unknown): void {
  const res = parseIfJson(raw);
  if (res === null || res === undefined) return;
  const deltas = new Map<number, string[]>();
  const chunks = Array.isArray(res) ? res : isObject(res) && Array.isArray(res.chunks) ? res.chunks : null;
  if (chunks && chunks.some((c) => isObject(c) && (Array.isArray(c.choices) || typeof c.type === "string"))) {
    for (const c of chunks) {
      if (!isObject(c)) continue;
      if (isObject(c.delta) && typeof c.delta.text === "string") out.completion.push(c.delta.text); // Anthropic SSE
      if (isObject(c.delta) && typeof c.delta.stop_reason === "string") out.finishReasons.push(c.delta.stop_reason);
      readResponseObject(out, c, deltas);
    }
  } else if (!isObject(res) || !readResponseObject(out, res, deltas)) {
    out.completion.push(...collectStrings(res)); // plain trace: {output: ...} or any JSON
  }
  for (const parts of deltas.values()) if (parts.length) out.completion.push(parts.join(""));
}

/** Extracts role-separated text, parameters and finish reasons from a logged call. */
export function extractCall(requestBody: unknown, responseBody: unknown): ExtractedCall {
  const out: ExtractedCall = { system: [], user: [], documents: [], history: [], completion: [], params: {}, finishReasons: [] };
  readRequest(out, requestBody);
  readResponse(out, responseBody);
  return out;
}

/** Total characters of text the scorers can judge (0 means "nothing to judge"). */
export function textLength(x: ExtractedCall): number {
  let n = 0;
  for (const list of [x.system, x.user, x.documents, x.history, x.completion]) for (const s of list) n += s.length;
  return n;
}
