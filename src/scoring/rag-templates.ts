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
    opening: /^\s*You are an assistant for question-answering tasks\. Use the following pieces of retrieved context to answer the question\./i,
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
 * first template whose opening and slots both match wins.
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
  return null;
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
