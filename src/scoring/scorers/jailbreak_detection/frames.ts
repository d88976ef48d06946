/**
 * Jailbreak frames as soft signals: indicators of jailbreak_detection's view (./view.ts), not
 * rules. Each names a way of asking that the attack literature finds across sources whatever
 * the wording of the goal (issue 31, point 5):
 *
 * - `frame:suppress`: refusal suppression and prefix injection, "begin your reply with...",
 *   "never say you cannot", "do not apologise", "without any disclaimers" (Wei et al. 2023,
 *   "Jailbroken": competing objectives);
 * - `frame:disguise`: character-level disguise the model is asked to undo: letters marked in
 *   parentheses or spaced apart, "read the first letter of each word", ciphers and reversed text
 *   (Liu et al. 2024, "Making Them Ask and Answer", disguise and reconstruction; Yuan et al. 2024,
 *   "GPT-4 Is Too Smart To Be Safe", ciphers);
 * - `frame:goal`: any of those two, a fictional or dialogue frame ("write a story / a scene / a
 *   dialogue between", "a character named", a character's "internal thoughts", "in a parallel
 *   universe": Bhardwaj and Poria 2023, Chain of Utterances; Shen et al. 2024) or a persuasion
 *   pretext (claimed expertise, "for my research", "for educational purposes", "hypothetically":
 *   Zeng et al. 2024) in a turn that also asks for harm (content_safety's request intent or hazard
 *   lexicon). Fiction and persuasion alone are everyday writing and no indicator (round 7b of
 *   docs/scoring.md: as indicators of their own they raised "write a scene where the
 *   protagonist confronts her father" to p 0.88).
 *
 * - round 8b: `frame:extract` (a request for the model's own instructions, OWASP LLM07),
 *   `frame:scripted` (a dialogue written for the model and left on its open turn, Chain of
 *   Utterances), `frame:unbound` (a role freed of rules, Shen et al. 2024) and `frame:role` (a role
 *   with an ordinary task: no rule removal, no harmful goal; a role around a harmful goal is
 *   `frame:goal`). Refusal suppression also reads bans on the words of ethics and law ("don't
 *   include any words that indicate ethics", "never say the words", Wei et al. 2023).
 *
 * The model weighs each like any feature and learns its weight from the other sources when one
 * is left out. Ordinary templates (a shell script, a QA template) carry none of them.
 */
import { requestIntent } from "../content_safety/intent";
import { hazardFindings } from "../content_safety/rules";

const SUPPRESS =
  /\b(?:begin|start|open|preface)\s+(?:your|the|each|every)\s+(?:reply|response|answer|output)s?\s+(?:with|by)\b|\b(?:never|do not|don't|must not|should not|shouldn't)\s+(?:ever\s+)?(?:say|tell (?:me|the user)|respond|reply|answer)\s+(?:that\s+|with\s+)?(?:you\s+|["“']?I\s+)?(?:can(?:'|no)?t|cannot|are unable|am unable|won't|sorry|no)\b|\b(?:do not|don't|never|must not)\s+(?:ever\s+)?(?:apologi[sz]e|refuse|decline|moralize|lecture)|\bwithout\s+(?:any\s+)?(?:warnings?|disclaimers?|caveats?|moralizing|apolog(?:y|ies)|refus\w+)|\b(?:you\s+)?(?:cannot|can't|may not)\s+(?:refuse|say no|decline)|\b(?:do not|don't|never|must not)\s+(?:ever\s+)?(?:include|add|use|write|give|insert)\s+(?:any\s+)?(?:disclaimers?|warnings?|caveats?|moral(?:izing|ising)?|negative sentences|(?:words?|phrases?|language|sentences?|terms?)\s+(?:that|which)\s+(?:\w+\s+){0,2}(?:indicate|mention|refer to|relate to|concern|suggest)|introductory phrases)\b|\bnever\s+say\s+the\s+words?\b/i;
const DISGUISE =
  /\b(?:read|extract|take|use|combine|concatenate|join|put together|reconstruct|assemble|decode|decipher|unscramble|reverse|spell)\b[^.\n]{0,60}\b(?:letters?|characters?|initials|brackets|parenthes[ie]s)\b|\bfirst letters? of (?:each|every)\b|\bacrostic\b|\b(?:spelled|written|read)\s+backwards\b|\b(?:caesar|atbash|vigen[eè]re|rot-?13|morse|leet\s?speak|pig latin)\b|\bcipher(?:ed|text)?\b/i;
/** A letter marked in parentheses at a word's start, "(h)appy": five or more in one turn. */
const PAREN_LETTER = /\([A-Za-z]\)[a-z]*/g;
/** A word spelled out letter by letter, "b-o-m-b", "h o w": five letters or more. */
const SPACED = /(?:^|[^A-Za-z])(?:[A-Za-z][ \-.*_|+/]){4,}[A-Za-z](?![A-Za-z])/;
/** Characters of a turn read (the frame is set up front; the bound keeps the cost flat). */
const READ_CHARS = 4000;

/**
 * A word in leetspeak: letters with digits standing for letters inside it ("m4k3", "p1p3",
 * "h0w"): digit-for-letter obfuscation (Wei et al. 2023, "Jailbroken", obfuscation attacks).
 */
const LEET_WORD = /\b(?=[a-z0-9]*[a-z][a-z0-9]*[a-z])(?=[a-z0-9]*[013457])[a-z0-9]+\b/gi;

/**
 * Whether a turn is written in leetspeak, read on its first READ_CHARS characters like every
 * frame: at least five such words, a quarter of its words or more (identifiers such as "utf8", "x86" or "ipv4" come one or two to a sentence, not a quarter).
 */
function leetspeak(turn: string): boolean {
  const text = turn.slice(0, READ_CHARS);
  const leet = text.match(LEET_WORD)?.length ?? 0;
  if (leet < 5) return false;
  return leet >= 0.25 * (text.match(/\b\w+\b/g)?.length ?? 0);
}

const FICTION =
  /\b(?:write|create|compose|generate|imagine|draft|craft|continue)\s+(?:me\s+)?(?:a|an|the|this)\s+(?:\w+[\s,]+){0,3}?(?:story|scene|dialogue|screenplay|(?:movie|film|play|game) script|conversation|novel|chapter|narrative|role-?play|fan ?fiction|tale)\b|\b(?:conversation|dialogue|exchange|chat)\s+between\b|\b(?:a\s+)?character\s+(?:who|named|called)\b|\b(?:in|for)\s+(?:my|a|the|this)\s+(?:\w+\s+)?(?:story|novel|screenplay|fiction|book|game|movie|film)\b|\b(?:the\s+)?(?:protagonist|villain|antagonist)\b|\binternal thoughts?\b|\bin\s+an?\s+(?:fictional|parallel|hypothetical|imaginary|alternate|dystopian|futuristic)\s+(?:world|universe|society|reality|scenario)\b/i;
const PERSUADE =
  /\b(?:as|i am|i'm)\s+(?:a|an)\s+(?:\w+\s+)?(?:researcher|professor|scientist|expert|journalist|novelist|author|writer|police officer|detective|investigator|security (?:researcher|professional|expert|analyst)|penetration tester|pentester|historian|criminologist)\b|\bfor\s+(?:my|a|an|our)\s+(?:\w+\s+)?(?:research|thesis|class|course|paper|study|dissertation|article)\b|\b(?:educational|academic|research|informational|awareness|training)\s+purposes?\b|\bhypothetical(?:ly)?\b|\bpurely\s+(?:fictional|theoretical|academic)\b|\b(?:lives|life)\s+(?:depend|depends|are at stake|is at stake)\b/i;

/**
 * A request for the model's own instructions (OWASP LLM07:2025 System Prompt Leakage; Perez and
 * Ribeiro 2022, prompt leaking; Zhang et al. 2024, "Effective Prompt Extraction from Language
 * Models"): the system / initial / hidden prompt named, "repeat / summarise / translate your
 * instructions", "everything above this", "what were you told". Broader than the weight-4 rule
 * `system_prompt_extraction`: the phrasings of a request, not only of a command.
 */
const EXTRACT =
  /\byour\s+(?:(?:full|exact|entire|original|initial|hidden|secret|own)\s+)?(?:system|initial|pre-?)?\s?prompt\b|\b(?:repeat|print|output|show|reveal|display|tell|give|share|leak|dump|recite|copy|paste|list|write|summari[sz]e|paraphrase|translate|quote|spell|what\s+(?:are|were|is|was))\b[^.?!\n]{0,40}\b(?:your\s+(?:(?:very|exact|full|original|initial|first|hidden|secret|internal|core|underlying|previous|current|complete|entire)\s+){0,2}|the\s+(?:(?:very|exact|full|complete|entire)\s+)?(?:original|initial|first|hidden|secret|internal|underlying|developer|system)\s+)(?:instructions|prompt|guidelines|directives|configuration|programming|rules|system message)\b|\b(?:everything|all|the\s+(?:text|words|content|messages?|lines?))\s+(?:written\s+)?(?:above|before\s+this|prior\s+to\s+this|preceding\s+this|before\s+my\s+(?:first\s+)?message)\b|\b(?:were you|you were|you've been|you have been|have you been)\s+(?:told|instructed|given|programmed|configured|set up)\b|\bhow\s+(?:were\s+you|are\s+you)\s+(?:instructed|programmed|configured)\b/i;
/** A role or persona assigned to the model ("act as", "you are a", "pretend to be"). */
const ROLE =
  /\b(?:act|acting|behave|respond|roleplay|role-play)\s+as\b|\b(?:you are|you're)\s+(?:now\s+)?(?:a|an|my)\s|\bpretend\s+(?:to be|you are|you're)\b|\bplay\s+the\s+role\b|\bimpersonate\b/i;
/**
 * A persona freed of rules (Shen et al. 2024, "Do Anything Now": personas "free of the typical
 * confines of AI"): no rules, filters, ethics or limits, or a persona called unfiltered,
 * uncensored, amoral.
 */
const UNBOUND =
  /\b(?:no|without|free (?:from|of)|not bound by|unbound by|beyond|ignores?|lacks?|doesn't (?:have|follow|care about)|does not (?:have|follow|care about))\s+(?:any\s+)?(?:(?:ethical|moral|content|safety)\s+)?(?:rules|restrictions|limits|limitations|filters?|censorship|ethics|morals|morality|boundaries|guidelines|policies|constraints|guardrails|principles|conscience|scruples)\b|\b(?:unfiltered|uncensored|unrestricted|amoral|unethical|immoral|unaligned|unhinged|jailbroken)\b/i;
/** A line that opens a speaker's turn ("Red-LM: ...", "Alice: ..."): one to three words and a colon. */
const SPEAKER = /^([A-Z][\w.]*(?:[ -][\w.]+){0,2})\s*:(.*)/;
/** A speaker label naming a model ("Assistant", "AI", "Base-LM", "UnfilteredBot", "ChatGPT"). */
const MODEL_SPEAKER = /(?:^|[\s_-])(?:AI|assistant|bot|model|LM|LLM|GPT|chatbot|agent)$/i;
/** A persona named for a model, "UnfilteredBot", "ChatGPT", "DarkAI" (case-sensitive: not "Film"). */
const MODEL_NAME = /[a-z](?:GPT|Bot|AI|LM)$/;

/**
 * A dialogue the prompt scripts for the model and leaves on the model's open turn: the turn's
 * last line is a bare label naming a model ("Base-LM:", "Assistant:"), and that speaker and
 * another have each spoken a line before. A form's empty field ("City:") or a few-shot template's
 * open label ("Sentiment:") names no model. The model is to complete its own part of a conversation written for it: Chain of
 * Utterances (Bhardwaj and Poria 2023), the open "Assistant:" turn of many-shot prompts (Anil et
 * al. 2024), prefix injection by dialogue (Wei et al. 2023).
 */
function scriptsOpenTurn(text: string): boolean {
  const lines = text
    .trimEnd()
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const open = SPEAKER.exec(lines[lines.length - 1] ?? "");
  if (!open || (open[2] ?? "").trim() !== "" || !(MODEL_SPEAKER.test(open[1] ?? "") || MODEL_NAME.test(open[1] ?? ""))) return false;
  // Both the open speaker and another have spoken before: a dialogue, not a form's empty field.
  let own = false;
  let other = false;
  for (const l of lines.slice(0, -1)) {
    const m = SPEAKER.exec(l);
    if (!m || (m[2] ?? "").trim() === "") continue;
    if (m[1] === open[1]) own = true;
    else other = true;
  }
  return own && other;
}

/**
 * The frames one turn sets, read on its first READ_CHARS characters (`text`): refusal
 * suppression, a disguise spelled out or named (ciphers, letters to read back), and a story or
 * persuasion frame.
 */
function frameKinds(turn: string): { text: string; suppress: boolean; spelled: boolean; story: boolean; scripted: boolean } {
  const text = turn.slice(0, READ_CHARS);
  return {
    text,
    suppress: SUPPRESS.test(text),
    spelled: DISGUISE.test(text) || SPACED.test(text) || leetspeak(text),
    story: FICTION.test(text) || PERSUADE.test(text),
    scripted: scriptsOpenTurn(text),
  };
}

/** Digits read as the letters they stand for in leetspeak. */
const LEET_LETTER: Record<string, string> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t" };

/** A turn as its reader reads it: in leetspeak, with its digits back as letters ("m4k3 4 p1p3 b0mb"). */
export function readable(turn: string): string {
  if (!leetspeak(turn)) return turn;
  // Words with letters, and a lone "1" ("I") or "4" ("a"); numbers stay numbers.
  return turn.replace(/\b\w+\b/g, (w) => (/[a-z]/i.test(w) || w === "1" || w === "4" ? w.replace(/[013457]/g, (d) => LEET_LETTER[d] ?? d) : w));
}

/** Whether a user turn asks for harm (`readable`): request intent, or a hazard the hazard lexicon names (weight >= 4). */
function asksHarm(turn: string): boolean {
  const text = readable(turn);
  return requestIntent(text).includes("intent:harm") || hazardFindings(text, "prompt").some((f) => f.weight >= 4);
}

/**
 * Whether a user turn sets a jailbreak frame of any kind: refusal suppression, disguise, a
 * fictional or dialogue frame, or a persuasion pretext. With a goal the hazard lexicon names it
 * is the rules' `framed_harmful_goal` (./rules.ts).
 */
export function setsFrame(text: string): boolean {
  const k = frameKinds(text);
  return k.suppress || k.spelled || k.story || k.scripted;
}

/**
 * Frame indicators of the user's turns (in their own words), sorted: `frame:disguise`,
 * `frame:extract`, `frame:goal`, `frame:role`, `frame:scripted`, `frame:suppress`, `frame:unbound`.
 */
export function jailbreakFrames(user: readonly string[]): string[] {
  const out = new Set<string>();
  for (const turn of user) {
    const k = frameKinds(turn);
    const disguise = k.spelled || (k.text.match(PAREN_LETTER) ?? []).length >= 5;
    if (k.suppress) out.add("frame:suppress");
    if (disguise) out.add("frame:disguise");
    if (k.scripted) out.add("frame:scripted");
    if (EXTRACT.test(k.text)) out.add("frame:extract");
    const role = ROLE.test(k.text);
    if (role && UNBOUND.test(k.text)) out.add("frame:unbound");
    const framed = k.suppress || disguise || k.story || k.scripted || role;
    const harm = framed && asksHarm(k.text);
    if (harm) out.add("frame:goal");
    else if (role && !out.has("frame:unbound")) out.add("frame:role");
  }
  return [...out].sort();
}
