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
 * The model weighs each like any feature and learns its weight from the other sources when one
 * is left out. Ordinary templates (a shell script, a QA template) carry none of them.
 */
import { requestIntent } from "../content_safety/intent";
import { hazardFindings } from "../content_safety/rules";

const SUPPRESS =
  /\b(?:begin|start|open|preface)\s+(?:your|the|each|every)\s+(?:reply|response|answer|output)s?\s+(?:with|by)\b|\b(?:never|do not|don't|must not|should not|shouldn't)\s+(?:ever\s+)?(?:say|tell (?:me|the user)|respond|reply|answer)\s+(?:that\s+|with\s+)?(?:you\s+|["“']?I\s+)?(?:can(?:'|no)?t|cannot|are unable|am unable|won't|sorry|no)\b|\b(?:do not|don't|never|must not)\s+(?:ever\s+)?(?:apologi[sz]e|refuse|decline|moralize|lecture)|\bwithout\s+(?:any\s+)?(?:warnings?|disclaimers?|caveats?|moralizing|apolog(?:y|ies)|refus\w+)|\b(?:you\s+)?(?:cannot|can't|may not)\s+(?:refuse|say no|decline)/i;
const DISGUISE =
  /\b(?:read|extract|take|use|combine|concatenate|join|put together|reconstruct|assemble|decode|decipher|unscramble|reverse|spell)\b[^.\n]{0,60}\b(?:letters?|characters?|initials|brackets|parenthes[ie]s)\b|\bfirst letters? of (?:each|every)\b|\bacrostic\b|\b(?:spelled|written|read)\s+backwards\b|\b(?:caesar|atbash|vigen[eè]re|rot-?13|morse|leet\s?speak|pig latin)\b|\bcipher(?:ed|text)?\b/i;
/** A letter marked in parentheses at a word's start, "(h)appy": five or more in one turn. */
const PAREN_LETTER = /\([A-Za-z]\)[a-z]*/g;
/** A word spelled out letter by letter, "b-o-m-b", "h o w": five letters or more. */
const SPACED = /(?:^|[^A-Za-z])(?:[A-Za-z][ \-.*_|+/]){4,}[A-Za-z](?![A-Za-z])/;
const FICTION =
  /\b(?:write|create|compose|generate|imagine|draft|craft|continue)\s+(?:me\s+)?(?:a|an|the|this)\s+(?:\w+[\s,]+){0,3}?(?:story|scene|dialogue|screenplay|(?:movie|film|play|game) script|conversation|novel|chapter|narrative|role-?play|fan ?fiction|tale)\b|\b(?:conversation|dialogue|exchange|chat)\s+between\b|\b(?:a\s+)?character\s+(?:who|named|called)\b|\b(?:in|for)\s+(?:my|a|the|this)\s+(?:\w+\s+)?(?:story|novel|screenplay|fiction|book|game|movie|film)\b|\b(?:the\s+)?(?:protagonist|villain|antagonist)\b|\binternal thoughts?\b|\bin\s+an?\s+(?:fictional|parallel|hypothetical|imaginary|alternate|dystopian|futuristic)\s+(?:world|universe|society|reality|scenario)\b/i;
const PERSUADE =
  /\b(?:as|i am|i'm)\s+(?:a|an)\s+(?:\w+\s+)?(?:researcher|professor|scientist|expert|journalist|novelist|author|writer|police officer|detective|investigator|security (?:researcher|professional|expert|analyst)|penetration tester|pentester|historian|criminologist)\b|\bfor\s+(?:my|a|an|our)\s+(?:\w+\s+)?(?:research|thesis|class|course|paper|study|dissertation|article)\b|\b(?:educational|academic|research|informational|awareness|training)\s+purposes?\b|\bhypothetical(?:ly)?\b|\bpurely\s+(?:fictional|theoretical|academic)\b|\b(?:lives|life)\s+(?:depend|depends|are at stake|is at stake)\b/i;

/** Characters of a turn read (the frame is set up front; the bound keeps the cost flat). */
const READ_CHARS = 4000;

/**
 * The frames one turn sets, read on its first READ_CHARS characters (`text`): refusal
 * suppression, a disguise spelled out or named (ciphers, letters to read back), and a story or
 * persuasion frame.
 */
function frameKinds(turn: string): { text: string; suppress: boolean; spelled: boolean; story: boolean } {
  const text = turn.slice(0, READ_CHARS);
  return {
    text,
    suppress: SUPPRESS.test(text),
    spelled: DISGUISE.test(text) || SPACED.test(text),
    story: FICTION.test(text) || PERSUADE.test(text),
  };
}

/** Whether a user turn asks for harm: request intent, or a hazard the hazard lexicon names (weight >= 4). */
function asksHarm(text: string): boolean {
  return requestIntent(text).includes("intent:harm") || hazardFindings(text, "prompt").some((f) => f.weight >= 4);
}

/**
 * Whether a user turn sets a jailbreak frame of any kind: refusal suppression, disguise, a
 * fictional or dialogue frame, or a persuasion pretext. With a goal the hazard lexicon names it
 * is the rules' `framed_harmful_goal` (./rules.ts).
 */
export function setsFrame(text: string): boolean {
  const k = frameKinds(text);
  return k.suppress || k.spelled || k.story;
}

/** Frame indicators of the user's turns (in their own words): `frame:disguise`, `frame:goal`, `frame:suppress`. */
export function jailbreakFrames(user: readonly string[]): string[] {
  const out = new Set<string>();
  for (const turn of user) {
    const k = frameKinds(turn);
    const disguise = k.spelled || (k.text.match(PAREN_LETTER) ?? []).length >= 5;
    if (k.suppress) out.add("frame:suppress");
    if (disguise) out.add("frame:disguise");
    if ((k.suppress || disguise || k.story) && asksHarm(k.text)) out.add("frame:goal");
  }
  return [...out].sort();
}
