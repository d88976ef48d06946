/**
 * The default question-answering prompts of the common RAG frameworks, recognised by their fixed
 * wording, so the retrieved context they carry is judged as documents and their scaffolding is
 * never read as the user's own words (issue 31.3: "template scaffolding is never jailbreak
 * evidence"). Each template is the framework's published default:
 * - LangChain hub `rlm/rag-prompt` (the RAG tutorial's prompt) and the chat variant used with
 *   `create_stuff_documents_chain` (system message "... Use the following pieces of retrieved
 *   context ...\n\n{context}");
 * - LangChain `RetrievalQA` / `load_qa_chain` "stuff" prompt ("Use the following pieces of context
 *   to answer the question at the end ... Helpful Answer:") and `ConversationalRetrievalChain`'s
 *   system template (context after a `----------------` line);
 * - LlamaIndex `DEFAULT_TEXT_QA_PROMPT_TMPL` ("Context information is below." between dashed lines,
 *   "Query: ... Answer:") and its refine prompt ("We have the opportunity to refine ...");
 * - Haystack 2 `PromptBuilder` RAG tutorial ("Given the following information, answer the
 *   question.\n\nContext:\n... Question: ... Answer:").
 * Matching is anchored on the opening sentence, then on the slot labels, so it is linear in the
 * text's length and an ordinary message never matches.
 */

/** One recognised template: its retrieved context and the question it wraps (either may be empty). */
export interface TemplateParts {
  /** Which framework's prompt it is (for tests and rationales). */
  template: string;
  /** The retrieved context slot, as filled in. */
  context: string;
  /** The question slot as the user asked it; "" when the template has none (a system message). */
  question: string;
}

interface TemplateSpec {
  template: string;
  /** The fixed opening (case-insensitive, at the start of the message). */
  opening: RegExp;
  /** Slots after the opening: named groups `context` and optionally `question`. */
  slots: RegExp;
}

/** Dashed separator line LlamaIndex and LangChain put around a context slot. */
const DASHES = String.raw`\n-{4,}\n`;

const TEMPLATES: readonly TemplateSpec[] = [
  {
    template: "langchain:rlm/rag-prompt",
    // The hub prompt opens with "You are an assistant for question-answering tasks."; applications
    // that copy it often drop or replace that persona sentence and keep the rest.
    opening: /^\s*(?:[^\n.]{1,200}\.\s+)?Use the following pieces of retrieved context to answer the question\./i,
    slots: /\n\s*Question:\s*(?<question>[\s\S]*?)\s*\n\s*Context:\s*(?<context>[\s\S]*?)\s*\n\s*Answer:\s*$/i,
  },
  {
    template: "langchain:stuff-chat",
    opening: /^\s*You are an assistant for question-answering tasks\. Use the following pieces of retrieved context to answer the question\./i,
    slots: /^[^\n]*\n[ \t]*\n(?<context>[\s\S]+)$/,
  },
  {
    template: "langchain:stuff-qa",
    opening: /^\s*Use the following pieces of context to answer (?:the question at the end|the user's question)\./i,
    slots: new RegExp(
      String.raw`^[\s\S]*?(?:make up an answer\.|don't know\.)[ \t]*(?:${DASHES}|\n\s*\n)(?<context>[\s\S]*?)(?:\n\s*\n\s*Question:\s*(?<question>[\s\S]*?)\s*\n\s*Helpful Answer:\s*)?$`,
      "i",
    ),
  },
  {
    template: "llamaindex:text_qa",
    opening: /^\s*Context information is below\.\s*\n-{4,}\n/i,
    slots: new RegExp(
      String.raw`^[^\n]*${DASHES}(?<context>[\s\S]*?)${DASHES}\s*Given the context information[^\n]*\n\s*Query:\s*(?<question>[\s\S]*?)\s*\n\s*Answer:\s*$`,
      "i",
    ),
  },
  {
    template: "llamaindex:refine",
    opening: /^\s*The original query is as follows:/i,
    slots: new RegExp(
      String.raw`^\s*The original query is as follows:\s*(?<question>[^\n]*)\n[\s\S]*?refine the existing answer[^\n]*${DASHES}(?<context>[\s\S]*?)${DASHES}`,
      "i",
    ),
  },
  {
    template: "haystack:rag",
    opening: /^\s*Given the following information, answer the question\./i,
    slots: /\n\s*Context:\s*\n(?<context>[\s\S]*?)\n\s*Question:\s*(?<question>[\s\S]*?)\s*\n\s*Answer:\s*$/i,
  },
];

/**
 * The parts of `text` when it is one of the known RAG templates (filled in), else null. The
 * first template whose opening and slots both match wins; then any prompt built on the same
 * slots (`slotParts`).
 */
export function templateParts(text: string): TemplateParts | null {
  for (const t of TEMPLATES) {
    if (!t.opening.test(text)) continue;
    const m = t.slots.exec(text);
    if (!m?.groups) continue;
    const context = (m.groups.context ?? "").trim();
    if (!context) continue;
    return { template: t.template, context, question: (m.groups.question ?? "").trim() };
  }
  return slotParts(text);
}

/** The "Answer:" line a question-answering prompt ends with, for the model to fill. */
const ANSWER_SLOT = /\n[ \t]*Answer:[ \t]*$/i;
/** Slot labels at a line start: the context slot and the question slot. */
const SLOT_LABEL = /(?:^|\n)[ \t]*(?:(?<context>Context|Retrieved context|Documents)|(?<question>Question|Query)):[ \t]*/gi;

/**
 * Any question-answering prompt on the slots the frameworks share: a "Context:" and a
 * "Question:" (or "Query:") slot in either order, ending with an "Answer:" line (the shape of
 * LangChain's, LlamaIndex's and Haystack's defaults, and of the prompts written after them).
 * Whichever slot comes first ends at the first label of the other kind, and the second runs to
 * "Answer:", so a document with "Question:" lines of its own (an FAQ) stays inside the context
 * when the context comes first, and the reverse. Linear in the text: one scan of the labels.
 */
function slotParts(text: string): TemplateParts | null {
  const trimmed = text.trimEnd();
  const tail = Math.max(0, trimmed.length - 40);
  const answer = ANSWER_SLOT.exec(trimmed.slice(tail));
  if (!answer) return null;
  const body = trimmed.slice(0, tail + answer.index);
  let first: { kind: "context" | "question"; end: number } | null = null;
  let second: { start: number; end: number } | null = null;
  for (const m of body.matchAll(SLOT_LABEL)) {
    const kind = m.groups?.context ? "context" : "question";
    if (!first) first = { kind, end: m.index + m[0].length };
    // The first label of the other kind; with the context first, the last question label (an
    // FAQ's own "Question:" lines stay inside the context).
    else if (kind !== first.kind && (!second || first.kind === "context")) second = { start: m.index, end: m.index + m[0].length };
  }
  if (!first || !second) return null;
  const a = body.slice(first.end, second.start).trim();
  const b = body.slice(second.end).trim();
  const [context, question] = first.kind === "context" ? [a, b] : [b, a];
  return context ? { template: "generic:context-question-answer", context, question } : null;
}

/**
 * Passages of a template's context slot: LangChain's `format_docs` and Haystack's loop join
 * documents with blank lines, LlamaIndex with blank lines after `file_path: ...` headers; each
 * paragraph is one passage (leading indentation of a Jinja loop removed).
 */
export function contextPassages(context: string): string[] {
  return context
    .split(/\n[ \t]*\n/)
    .map((p) =>
      p
        .split("\n")
        .map((l) => l.trim())
        .join("\n")
        .trim(),
    )
    .filter((p) => p.length > 0);
}
