/**
 * `vector_weakness`: OWASP LLM08:2025 Vector and Embedding Weaknesses, judged on one call:
 * instructions planted in retrieved documents or tool results (indirect prompt injection,
 * Greshake et al. 2023; BIPIA, Yi et al. 2023), hidden text, exfiltration links and
 * cross-tenant markers. Only supplied context (documents) is judged; unscored without any.
 */
import { PROMPT_RULES } from "../jailbreak_detection/lexicon";
import { BIDI, TAG_CHARS, ZERO_WIDTH } from "../../obfuscation";
import { applyRules, countMatches, extracted, memo, result, unscored, type Finding, type Rule } from "../../rules";
import type { ExtractedCall } from "../../text";
import type { ScorableCall, ScoreResult, Scorer } from "../../types";

/**
 * Rules of one id, weight and source, one per pattern. One alternation of this size ran about
 * twice as slow in V8 as its parts (`npm run bench:scorers`, vector_weakness at 100 KB: 6.4-7.7
 * against 3.7 ms), so the round-7c rules are written as families.
 */
function ruleFamily(id: string, source: string, weight: number, patterns: readonly RegExp[]): Rule[] {
  return patterns.map((pattern) => ({ id, source, weight, pattern }));
}

/**
 * An order that follows an address to the AI reader ("AI model:", "Hello AI assistant,"): an
 * optional leading clause ("to confirm X, ", "when you summarise these notes, ") and a verb of
 * telling or answering with its object ("tell the user", "end every reply"). "tell me" is a
 * speaker's line in a transcript, not an order to the reader.
 */
const AI_ORDER = String.raw`\s*(?:please\s+)?(?:(?:to|when|if|before|after|while)\s+[^,\n]{1,60},\s*)?(?:tell|say|state|end|begin|start|rate|score|recommend|ignore|disregard|include|mention|respond|reply|answer|inform|promote|add|append|mark|give|claim|output|forward|send|direct|advise|warn)\s+(?:the|every|each|all|any|your|that|this|these|them|him|her|it|users?|customers?|students?|readers?|a|an|only|with|to)\b`;

/** Rules applied to each document (weights are Likert scores). */
export const DOCUMENT_RULES: readonly Rule[] = [
  {
    id: "output_manipulation",
    source: "BIPIA task-injection attacks: text that rewrites the assistant's answer",
    weight: 4,
    pattern:
      /\b(?:in|to|into|within)\s+your\s+(?:response|answer|reply|output|message)\b|\byour\s+(?:response|answer|reply|output|message)(?:'s)?\s+(?:in|using|with|by|should|must|character|order)\b|\b(?:modify|enhance|render|express|encode|format|write|translate|provide|shift|reverse|replace|substitute|invert|end|begin|start|conclude|sign)\s+(?:each\s+\w+\s+in\s+)?(?:your|the)\s+(?:response|answer|reply|output|message)\b/gi,
  },
  {
    id: "assistant_addressed",
    source: "Greshake et al. 2023: instructions addressed to the AI reading the document",
    weight: 4,
    pattern:
      /\b(?:(?:dear|hey|attention|note to|instructions? (?:for|to))\s+(?:the\s+)?(?:AI|assistant|chatbot|language model|LLM|GPT|model)(?!\s+(?:team|teams|group|department|researchers?|engineers?|community|lab|committee|folks|colleagues|practitioners|enthusiasts)\b)|(?:AI|assistant|chatbot|language model|LLM)s?\s*(?:reading|processing|summari[sz]ing) this|you (?:must|should|will) (?:now|instead|also|always))\b|\binstead,?\s+(?:tell|inform|say|respond|answer|reply|output|write)\b/gi,
  },
  {
    id: "exfiltration_link",
    source: "Greshake et al. 2023 / Rehberger: markdown image and link exfiltration",
    weight: 5,
    pattern:
      /!\[[^\]\n]{0,100}\]\(\s*https?:\/\/[^)\s]{1,300}[?&][^)\s=]{1,40}=[^)\s]{0,300}\)|\b(?:send|forward|post|upload|email|transmit|leak)\s+(?:(?:it|this|them|all|the|your|their|user's|user|conversation|chat|data|history|password|credentials|details)\s+){1,4}to\s+(?:https?:\/\/|www\.|[\w.+-]+@[\w-]+\.\w)/gi,
  },
  {
    id: "visit_url",
    source: "BIPIA / Greshake et al. 2023: planted link promotion or redirect",
    weight: 4,
    pattern:
      /\b(?:visit|go to|navigate to|click|open|check out)\s+(?:https?:\/\/|www\.)\S+[^.\n]{0,80}\b(?:in|to)\s+(?:your|the)\s+(?:response|answer|reply)\b|\b(?:include|add|insert|mention)\b[^.\n]{0,60}(?:https?:\/\/|www\.)\S+/gi,
  },
  {
    id: "authority_claim",
    source: "Greshake et al. 2023; OWASP LLM01:2025 indirect injection: a document posing as a system, developer or admin message",
    weight: 4,
    pattern:
      /(?:^|\n)\s*(?:\[|<\|?|\*\*|#{1,4}\s*)?(?:system|developer|admin(?:istrator)?)\s*(?:message|prompt|notice|instructions?|override|update)\s*(?:\]|\|?>|\*\*)?\s*[:\-\n]|<\|im_start\|>\s*system\b|\[\/?INST\]|\b(?:important|new|updated|additional|hidden|secret)\s+instructions?\s+(?:for|to)\s+(?:the\s+)?(?:AI|assistant|chatbot|model|LLM|agent)\b/gi,
  },
  {
    id: "user_impersonation",
    source: "Greshake et al. 2023 / AgentDojo (Debenedetti et al. 2024): a document that claims to speak for the user",
    weight: 4,
    pattern:
      /\b(?:(?:a\s+)?message|instructions?|note|request)\s+from\s+(?:the|your)\s+user\b|\bon\s+behalf\s+of\s+the\s+user\b|\bthe\s+user\s+(?:has\s+)?(?:asked|wants|instructs|instructed|requests|requested|authori[sz]ed|would like)\s+(?:you|that\s+you|the\s+(?:AI|assistant|model))\b/gi,
  },
  {
    id: "tool_or_data_request",
    source: "AgentDojo / InjecAgent (Zhan et al. 2024): a document asking the model to call a tool, send data or ask the user for credentials",
    weight: 4,
    pattern:
      /\b(?:call|invoke|use|run|execute|trigger)\s+(?:the\s+)?`?[a-z]+_[a-z_]+`?\s+(?:tool|function|action)\b[^.\n]{0,80}\b(?:with|to|and)\b|\b(?:ask|request|prompt|require)\s+(?:the\s+|your\s+|each\s+)?(?:user|customer|employee|visitor|reader|them)(?:'s)?\s+(?:for|to\s+(?:provide|confirm|enter|type|share|send|verify))\s+(?:(?:their|his|her|your|the)\s+)?(?:[\w-]+\s+){0,2}(?:password|passcode|PIN|credentials?|login|social security number|SSN|credit card(?: number)?|card number|CVV|one-time code|2FA code|bank (?:details|account))\b|\b(?:request|ask for|collect)\s+(?:the\s+)?(?:user's|customer's|employee's|visitor's)\s+(?:[\w-]+\s+){0,2}(?:password|passcode|PIN|credentials?|social security number|SSN|credit card(?: number)?|card number|bank (?:details|account))\b|\b(?:e-?mail|send|forward)\s+(?:my|the|their|all|this|these|your)\s+(?:[\w-]+\s+){0,6}to\s+(?:me\s+at\s+)?[\w.+-]+@[\w-]+\.\w/gi,
  },
  ...ruleFamily(
    "ai_reader_addressed",
    'Greshake et al. 2023; BIPIA (Yi et al. 2023): a note addressed to the AI that will read the document ("if you are a language model", "AI agents: ...", "TODO(ai)", "note for automated readers", "when summarising this page, ...") rather than to its human readers',
    4,
    [
      /\b(?:when|whenever|while|if)\s+(?:you\s+(?:are\s+)?)?(?:summari[sz]ing|summari[sz]e|asked\s+about|answering\s+(?:questions\s+)?about|processing)\s+(?:this|these)\s+(?:page|document|e-?mail|report|file|text|message|article|thread|notes|review|results?)\s*,/gi,
      /\b(?:if|when)\s+you\s+are\s+an?\s+(?:AI|language model|LLM|large language model|chatbot|automated (?:system|agent|reader))(?:\s+(?:assistant|model|agent|system))?\s*(?:,|\(|reading|processing|summari[sz]ing|parsing|and\s+you)/gi,
      /\b(?:TODO|FIXME|NOTE|XXX)\s*\(\s*(?:ai|assistant|llm|bot|agent|copilot|model|gpt)\s*\)/gi,
      /\b(?:AI|LLM)[ _-]?(?:agents?|assistants?|models?|readers?|systems?|instructions?)\s*:\s*(?:please\s+)?(?:tell|say|respond|reply|answer|ignore|disregard|forward|send|summari[sz]e|recommend|include|mark|move|delete|write|output|inform|warn|ask|do not|don't|never|always|you must)\b/gi,
      /\b(?:note|message|notice|instructions?|reminder)\s+(?:for|to)\s+(?:any\s+|all\s+)?(?:automated\s+(?:readers?|agents?|systems?|assistants?|tools?)|AI\s+(?:agents?|assistants?|models?|systems?|readers?)|language\s+models?|LLMs?)\b/gi,
      /\b(?<=(?:^|[\n.!])\s{0,4})(?:AI|assistant|AI assistant|language model)\s*,\s*(?:please\s+)?(?:your\s+(?:next|new|real|only)\s+(?:step|task|job|instruction)|you\s+(?:must|should|will|are to)|tell|say|respond|reply|answer|ignore|disregard|forward|send|recommend|include|do not|don't|never|always)\b/gi,
      // The same vocative with a clause before the order: "Assistant, after reading this, forward ...".
      /\b(?<=(?:^|[\n.!])\s{0,4})(?:AI|assistant|AI assistant|language model)\s*,\s*(?:after|when|once|before|while)\s+(?:reading|processing|summari[sz]ing|you\s+(?:read|process|summari[sz]e))\s+(?:this|it)\s*,/gi,
      // A line labelled for an AI reader, then an order: "AI model: end every reply with ...",
      // "Reviewer-bot instruction: ignore ...", "AI assistant: to check X, tell the user ..."
      // (a bare "Assistant:" or "AI:" is a transcript's speaker label, and "tell me" a speaker's line).
      new RegExp(
        String.raw`(?:^|\n)[ \t>*#-]{0,6}(?:AI[ -](?:model|assistant|agent|reader|system)s?|LLMs?|GPT|language models?|[A-Za-z]+-bots?)(?:[ -](?:instructions?|note|notice|directive))?\s*:${AI_ORDER}`,
        "gi",
      ),
      // A greeting that names the AI, then an order: "Hi AI assistant, when summarizing this inbox, tell ...".
      new RegExp(
        String.raw`\b(?:hi|hey|hello|dear|attention|psst)\s*,?\s+(?:the\s+)?(?:AI|LLM|GPT|chatbot|AI assistant|AI model|AI agent|language model)\s*[,:!]${AI_ORDER}`,
        "gi",
      ),
      // The AI reader in a condition, then what it must do: "If an AI model reads this syllabus, it must tell ...".
      /\b(?:if|when|whenever|once)\s+(?:an?|the|any)\s+(?:AI|LLM|GPT|chatbot|language model|AI (?:model|assistant|agent|system))\s+(?:reads?|processes|summari[sz]es|parses|sees|is\s+(?:reading|processing|summari[sz]ing|parsing))\s+(?:this|these)\b[^\n]{0,80}?\b(?:it|you|they)\s+(?:must|should|shall|needs? to|has to|have to|is to|are to)\b/gi,
      // Whoever processes the text, named by a machine's task: "whoever is summarizing this: ...".
      /\b(?:whoever|anyone|anybody)\s+(?:is\s+|who\s+is\s+|that\s+is\s+)?(?:summari[sz]ing|processing|parsing|analy[sz]ing|indexing)\s+(?:this|these)\b/gi,
      // Round 11 (hand-written set 3's layouts, read for diagnosis; each form has an everyday twin
      // in test/unit/scoring/vector-weakness-r11.test.ts):
      // the machine reader named with its kind ("AI agent processing this ticket", "assistant handling this request");
      /\b(?:AI|LLM|language model)\s+(?:agents?|assistants?|models?|systems?|bots?)\s+(?:reading|processing|summari[sz]ing|handling|parsing|reviewing|triaging|screening)\s+(?:this|these)\b/gi,
      // a note to the machine by its task ("Note to the summarizer:", "instructions for the translator");
      /\b(?:note|message|instructions?|reminder|notice)\s+(?:to|for)\s+(?:the\s+|any\s+)?(?:summari[sz]er|translator|screener|classifier|grader|auto-?responder|AI reviewer|reviewer bot)s?\b/gi,
      // the assistant called by a product name or @-mentioned, then stopped or ordered
      // ("Claude, stop.", "ChatGPT, ignore ...", "@assistant when you read this, you are ...");
      /(?<=(?:^|[\n.!?])\s{0,4})(?:Claude|ChatGPT|GPT(?:-\d[\w.]*)?|Gemini|Copilot|Bard|Grok|Llama)\s*,\s*(?:please\s+)?(?:stop|halt|wait|listen|ignore|disregard|forget|tell|say|respond|reply|answer|forward|send|you\s+(?:must|should|will|are to))\b/gi,
      /(?:^|\s)@(?:assistant|ai|bot|claude|chatgpt|gpt|copilot|gemini|llm|agent)\b[^\n]{0,80}?\byou\s+(?:are|must|should|will|have|need)\b/gi,
      // a label or an aside that speaks to the machine: "Translator AI: do not translate ...", "(Assistant: respond only in ...)";
      /(?:^|\n|[.!?]\s)[ \t>*#-]{0,6}[A-Z][a-z]+\s+(?:AI|bot)\s*:\s*(?:please\s+)?(?:do\s+not|don't|never|stop|ignore|disregard|always|only)\b/g,
      /\(\s*(?:AI|assistant|AI assistant|chatbot|model)\s*:\s*(?:please\s+)?(?:respond|reply|answer|tell|say|ignore|disregard|do\s+not|don't|never|always|from\s+now\s+on|only)\b/gi,
      // the same notes in German, Spanish, French and Italian ("Hinweis an den KI-Assistenten:", "Nota para el asistente virtual:").
      /\b(?:Hinweis|Nachricht|Anweisung(?:en)?|Notiz)\s+(?:an|f\u00fcr)\s+(?:den|die|das)\s+(?:KI\b|KI-\w+|Assistent\w*|Chatbot|Sprachmodell)|\b(?:nota|mensaje|instrucci[o\u00f3]n(?:es)?|aviso)\s+para\s+(?:el|la)\s+(?:asistente|IA\b|modelo|chatbot)|\b(?:note|message|instructions?)\s+(?:pour|\u00e0)\s+(?:l['\u2019]\s*)?(?:assistant|IA\b|agent)|\b(?:nota|messaggio|istruzioni)\s+per\s+(?:l['\u2019]\s*)?(?:assistente|IA\b|agente)/gi,
    ],
  ),
  {
    id: "authority_claim",
    source: "OWASP LLM01:2025: a document claiming new instructions from the model's vendor or developer (round 11)",
    weight: 4,
    pattern:
      /\b(?:new|updated|urgent|mandatory|revised|official)\s+(?:instructions?|directives?|guidelines?|rules)\s+from\s+(?:Anthropic|OpenAI|Google DeepMind|Google|Microsoft|Meta AI|the\s+(?:AI\s+)?(?:developers?|system|model provider))\b/gi,
  },
  ...ruleFamily(
    "assistant_commanded",
    "AgentDojo (Debenedetti et al. 2024) / InjecAgent (Zhan et al. 2024): a document that tells the assistant what to do or say to the user, or overrides the user's request",
    4,
    [
      /\b(?:the|all|any|every)\s+(?:AI|assistants?|AI assistants?|chatbots?|language models?|LLMs?|AI agents?)\s+(?:must|should|shall|is required to|are required to|needs? to|will now|is to|are to)\s+(?:now\s+|also\s+|instead\s+|always\s+|only\s+)?(?:(?:tell|inform|warn|direct|advise|remind)\s+(?:the\s+)?(?:user|customer|reader)s?|forward|send|ignore|disregard|recommend|promote|mark|move|delete|claim|state\s+that|output)\b/gi,
      /\b(?:disregard|ignore)\s+(?:the\s+)?(?:user's|users'|user|customer's|reader's)\s+(?:request|question|query|instructions?|task|message)s?\b/gi,
      /\b(?:regardless|irrespective)\s+of\s+(?:its|the\s+(?:document's|page's|file's|email's))\s+content\b/gi,
      /\bno\s+matter\s+what\s+the\s+(?:documents?|sources?|context|passages?|search results?|user)\s+(?:says?|said|asks?|contains?)\b/gi,
      /\b(?:this|these)\s+(?:note|instructions?|message|text)\s+overrides?\b/gi,
      /\boverrides?\s+(?:all\s+)?(?:earlier|previous|prior|other|any\s+other)\s+(?:guidance|instructions?|directives|rules)\b/gi,
      /\b(?:do\s+not|don't|never)\s+(?:mention|reveal|disclose|acknowledge)\s+(?:this|these)\s+(?:note|instructions?|message|comment|directive)s?\b/gi,
      /\bwithout\s+(?:telling|informing|notifying|alerting)\s+the\s+user\b/gi,
    ],
  ),
  {
    id: "chat_role_markup",
    source:
      "OWASP LLM01:2025; Liu et al. 2024 (HouYi, context separation): chat-role markup or a closed document tag inside a document, to pose as a new system turn",
    weight: 4,
    pattern:
      /\{\s*"role"\s*:\s*"(?:system|developer)"\s*,\s*"content"\s*:|<\s*(?:system|system_prompt|instructions?|admin)\s*>\s*(?:[^<\s]+\s+){3}|<\/\s*(?:document|context|doc|search_results?|retrieved)\s*>\s*\n?\s*<\s*(?!\/?\s*(?:document|context|doc)\b)\w|(?:^|\n)\s*#{1,4}\s*(?:instructions?\s+override|override|new\s+instructions?|system\s+override)\s*(?:\n|$)/gi,
  },
  {
    id: "chat_role_markup",
    source: 'OWASP LLM01:2025: a document posing as a system update that binds the assistant ("SYSTEM UPDATE: all assistants must ...")',
    weight: 4,
    pattern:
      /\bSYSTEM\s+(?:UPDATE|OVERRIDE|NOTICE|MESSAGE|ALERT|INSTRUCTIONS?)\b[^\n]{0,160}\b(?:assistants?|AI|agents?|models?|chatbots?)\s+(?:must|should|shall|are to|will)\b/g,
  },
  {
    id: "html_hidden_text",
    source: "Greshake et al. 2023: hidden prompt via HTML/CSS (display:none, white or zero-size text, comments) or a markdown comment (`[//]: # (...)`)",
    weight: 4,
    pattern:
      /style\s*=\s*["'][^"'>]{0,200}(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\b|opacity\s*:\s*0(?:\.0+)?\b|color\s*:\s*(?:#f{3}\b|#f{6}\b|white\b|transparent\b))|<!--[^>]{0,400}?\b(?:ignore|instruction|assistant|AI|you must|respond|answer|prompt|tell the user)\b[^>]{0,400}?-->|\[\/\/\]:\s*#\s*\([^)\n]{0,400}?\b(?:ignore|instruction|assistant|AI|agents?|you must|respond|answer|prompt|tell the user)\b/gi,
  },
];

/** Opening verbs of a BIPIA-style task injected as its own line or sentence. */
const IMPERATIVE_LINE =
  /^(?:please\s+)?(?:analy[sz]e|determine|describe|recommend|suggest|show me|help me|encode|render|express|shift|reverse|replace|integrate|include|add|modify|enhance|use|translate|write|tell me|explain|list|summari[sz]e|ignore|forget|respond|answer|output|print|compose|create|generate|give me|classify|identify|calculate|convert|rewrite|share|disregard|provide|find me)\b(?!\s*[(=.[_])/i;
const QUESTION_LINE = /^(?:can|could|would|will)\s+you\b|^(?:how|what|why|which|who|where|when|is|are|does|do)\b[^?]{3,200}\?/i;
const CONTENT_WORD = /[a-z]{5,}/g;

function wordCounts(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const w of s.toLowerCase().match(CONTENT_WORD) ?? []) m.set(w, (m.get(w) ?? 0) + 1);
  return m;
}

/**
 * A line that reports a named speaker's turn ("Project Manager: ...", "PhD A: ...", "Mr. Alain
 * Therrien (La Prairie, BQ): ..."): a capitalised label of at most 60 characters before a colon,
 * the transcript and chat-log convention; reported speech, addressed to the other speakers.
 */
const SPEAKER_TURN = /^[A-Z][^:!?\n]{0,60}:\s/;

/**
 * Lines and sentences of a document (12-400 characters each; shorter and longer ones skipped). A
 * speaker's turn stays one unit: its questions and requests are put to the other speakers, not
 * to the AI reading the document (meeting transcripts are full of them).
 */
export function documentUnits(doc: string): string[] {
  return doc
    .split("\n")
    .flatMap((line) => (SPEAKER_TURN.test(line) ? [line] : line.split(/(?<=[.!?])\s+(?=[A-Z])/)))
    .map((u) => u.trim())
    .filter((u) => u.length >= 12 && u.length <= 400);
}

/** `documentUnits` of each supplied document of a call, computed once per call. */
export function callDocumentUnits(x: ExtractedCall): string[][] {
  return memo(x, "documentUnits", () => x.documents.map(documentUnits));
}

/** `DOCUMENT_RULES` findings per supplied document (`where` = `document N`), computed once per call. */
export function documentRuleFindings(x: ExtractedCall): Finding[][] {
  return memo(x, "documentRules", () =>
    x.documents.map((doc, i) => {
      const out: Finding[] = [];
      applyRules(DOCUMENT_RULES, doc, `document ${i + 1}`, out);
      return out;
    }),
  );
}

/**
 * Words that address an AI reading a text, or talk about its instructions and output (Greshake
 * et al. 2023). A plain "you" is not among them: e-mails, letters and meeting transcripts
 * address their human readers all the time (with "you" and questions counted, left-out
 * ordinary traffic had 1.2% of its documents flagged, transcripts most; without, 0.9%, and
 * leave-one-source-out mean F1 rose from 0.855 to 0.902: docs/scoring.md).
 */
const ADDRESSES_AI = /\b(?:AI|assistant|chatbot|LLM|GPT|model|agent|bot|instructions?|prompt|respond|reply|output)\b/i;

/**
 * A unit that reads as a directive: it opens like a task (an imperative) or addresses an AI.
 * Benign documents have such units too (recipes, e-mails, how-tos); the vector_weakness model
 * reads them in their own namespace and learns which ones are planted.
 */
export function isDirective(unit: string): boolean {
  return IMPERATIVE_LINE.test(unit) || ADDRESSES_AI.test(unit);
}

/**
 * Standalone lines/sentences that read as a task for the model and are off-topic for the document.
 * The last unit of a document that ends one of the user's turns (`userTurns`) is the user's own
 * question after the text they pasted ("[pasted text] Explain what this code does."), not a task
 * planted in the text.
 */
function plantedTasks(doc: string, units: readonly string[], userTurns: readonly string[]): number {
  let docWords: Map<string, number> | null = null;
  let n = 0;
  for (const [k, u] of units.entries()) {
    if (!IMPERATIVE_LINE.test(u) && !QUESTION_LINE.test(u)) continue;
    if (k === units.length - 1 && userTurns.some((t) => t.trimEnd().endsWith(u))) continue;
    docWords ??= wordCounts(doc);
    const own = wordCounts(u);
    let shared = 0;
    // A word is shared when it also occurs outside this unit somewhere in the document.
    for (const [w, c] of own) if ((docWords.get(w) ?? 0) > c) shared++;
    if (own.size === 0 || shared / own.size < 0.34) n++;
    if (n >= 50) break;
  }
  return n;
}

/** Tenant-like ids written in a document ("tenant: acme", "project_id=p-42"). */
const TENANT_MARKER = /\b(?:tenant|project|customer|org(?:anization)?|workspace|account)[_ -]?(?:id|name)?\s*[:=]\s*["']?([\w.-]{3,64})/gi;

function crossTenant(doc: string, metadata: Record<string, unknown> | null | undefined): number {
  if (!metadata) return 0;
  const own = new Set(
    ["tenant_id", "tenant", "project_id", "project", "customer_id", "org_id", "workspace_id"]
      .map((k) => metadata[k])
      .filter((v): v is string | number => typeof v === "string" || typeof v === "number")
      .map((v) => String(v).toLowerCase()),
  );
  if (own.size === 0) return 0;
  let n = 0;
  for (const m of doc.matchAll(TENANT_MARKER)) if (!own.has((m[1] ?? "").toLowerCase())) n++;
  return n;
}

const OVERRIDE_RULES = PROMPT_RULES.filter((r) => r.id === "override_instructions" || r.id === "system_prompt_extraction");

/** Scores the supplied context of one call; unscored when the call carries no documents. */
export function scoreVectorWeakness(call: ScorableCall): ScoreResult {
  const x = extracted(call);
  if (x.documents.length === 0) return unscored("no retrieved documents or tool results to judge");
  const findings: Finding[] = [];
  const ruleHits = documentRuleFindings(x);
  const units = callDocumentUnits(x);
  x.documents.forEach((doc, i) => {
    const at = `document ${i + 1}`;
    findings.push(...ruleHits[i]!);
    applyRules(OVERRIDE_RULES, doc, at, findings);
    const tags = countMatches(TAG_CHARS, doc);
    if (tags > 0) findings.push({ rule: "unicode_tag_text", weight: 5, where: at, count: tags });
    const zw = countMatches(ZERO_WIDTH, doc) + countMatches(BIDI, doc);
    if (zw >= 3) findings.push({ rule: "invisible_characters", weight: 3, where: at, count: zw });
    const planted = plantedTasks(doc, units[i]!, x.user);
    if (planted > 0) findings.push({ rule: "planted_task", weight: 4, where: at, count: planted });
    const tenants = crossTenant(doc, call.metadata);
    if (tenants > 0) findings.push({ rule: "cross_tenant_marker", weight: 4, where: at, count: tenants });
  });
  if (findings.length === 0) return result([], `${x.documents.length} document(s), no planted instructions`);
  return result(findings, "instructions or hidden content in supplied context");
}
