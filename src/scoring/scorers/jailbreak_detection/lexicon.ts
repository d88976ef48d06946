/**
 * Rule table of `jailbreak_detection` (OWASP LLM01:2025 Prompt Injection, direct form).
 * Weights are Likert scores: 5 alone decides, two distinct rules of weight >= 3 add one.
 * Sources: OWASP LLM01 scenarios; Shen et al. "Do Anything Now" (CCS 2024, in-the-wild
 * jailbreak templates); Wei et al. "Jailbroken" (NeurIPS 2023: competing objectives, prefix
 * injection, refusal suppression, mismatched generalisation); Zou et al. GCG (2023);
 * Anil et al. "Many-shot jailbreaking" (Anthropic 2024); Chao et al. PAIR / Mehrotra et al. TAP.
 */
import { INJECTION_RULES } from "./injection";
import type { Rule } from "../../rules";

/** Rules applied to the prompt side (system, user turns, replayed history). */
export const PROMPT_RULES: readonly Rule[] = [
  {
    id: "override_instructions",
    source: "OWASP LLM01 direct injection: instruction override",
    weight: 5,
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|discard|neglect)\s+(?:(?:all|any|the|your|my|these|those|every|of|previous|prior|above|earlier|preceding|initial|original|system|former|old|current)\s+){1,4}(?:instructions?|prompts?|rules|guidelines|directives|constraints|restrictions|programming|policies|guardrails|filters|commands?|training|directions)\b/gi,
  },
  {
    id: "override_instructions",
    source: "OWASP LLM01 direct injection: instruction override (short form)",
    weight: 4,
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:everything|all)\s+(?:you(?:'ve| have)?\s+(?:learned|been told|know)|(?:said|written|stated)\s+(?:before|above)|before|above)\b|\bnew\s+(?:instructions|rules|directives)\s*:/gi,
  },
  {
    id: "override_instructions",
    source: "OWASP LLM01 direct injection: 'ignore the above' and multilingual override (es/pt/fr/de/it/ru/zh)",
    weight: 5,
    pattern:
      /\b(?:ignore|disregard)\s+(?:all\s+|everything\s+)?(?:the\s+|of\s+the\s+)?above\b|\b(?:ignora|ignore|ignorez|ignoriere|ignorieren sie|ignorar)\s+(?:as|las|los|les|todas?\s+las|toutes\s+les|alle|le|die)?\s*(?:instru[cç][õoa][eo]?s|instrucciones|instructions|anweisungen|istruzioni)|игнорир\S*\s+(?:все\s+)?(?:предыдущие|прошлые)?\s*инструкци|忽略(?:之前|以上|先前)?的?(?:所有)?(?:指令|指示)/gi,
  },
  {
    id: "override_instructions",
    source: "Perez & Ribeiro 2022 'Ignore Previous Prompt' (goal hijacking): override of prior inputs, identity or ethics",
    weight: 5,
    pattern:
      /\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting)\s+(?:(?:all|any|of|your|the|my)\s+){0,3}(?:prior|previous|preceding|earlier|above|initial|original)\s+(?:(?:ethical|moral|morals|safety)[\s,]+){0,2}(?:inputs?|messages?|context|conversation|identity|instructions?|programming|conditioning|settings)\b|\bforget\s+(?:about\s+)?everything\s+(?:(?:I|you)\s+(?:have\s+|'ve\s+)?(?:instructed|told|said|taught)|(?:from\s+)?before|prior|previously)\b/gi,
  },
  {
    id: "override_instructions",
    source: "OWASP LLM01 / CyberSecEval 2 (Bhatt et al. 2024) 'different user input language': override in ja/ar/ko",
    weight: 5,
    pattern:
      /(?:指示|命令|指令)を?無視|無視して[、,]|تجاهل\s+(?:جميع\s+|كل\s+)?(?:التعليمات|الأوامر|التوجيهات)|(?:지시|명령|지침)(?:을|를|사항을)?\s*(?:모두\s*)?무시/g,
  },
  {
    id: "dan_persona",
    source: "Shen et al. 2024 DAN family templates",
    weight: 5,
    pattern:
      /\bdo anything now\b|\bDAN\s+(?:mode|jailbreak|\d+(?:\.\d+)?)\b|\b(?:act|acting|respond|answer|pretend)\s+(?:just\s+)?(?:as|like)\s+(?:a\s+)?DAN\b|\bDAN\s*(?:stands for|can do|has no|which stands)\b|\[(?:🔓\s*)?JAILBREAK\]|\[DAN\]|\bSTAN\b.{0,20}\bStrive To Avoid Norms\b/gi,
  },
  {
    id: "developer_mode",
    source:
      "Shen et al. 2024 'Developer Mode' template; 'mode on' only where the phrase ends, as the templates write it: a device's developer or debug mode ('turn developer mode on on my phone', 'debug mode on the router') is a setting, not a persona (round 11)",
    weight: 5,
    pattern:
      /\b(?:developer|dev|god|admin|debug|debugging|maintenance|sudo|unrestricted|jailbreak|evil|chaos|opposite)\s+mode\s+(?:enabled|activated|on\b(?=\s*(?:[.!:;,)\]]|$)))|\bwith\s+(?:developer|DAN|god)\s+mode\s+enabled\b|\bsimulate\s+(?:developer|DAN)\s+mode\b/gi,
  },
  {
    id: "unbound_persona",
    source: "Wei et al. 2023 competing objectives: persona free of rules",
    weight: 4,
    pattern:
      /\b(?:(?:are|is|be|now)\s+(?:no longer|not)\s+(?:bound|restricted|limited|constrained)\s+by|(?:broken|break|breaking|set)\s+free\s+(?:of|from)|typical confines of AI|free (?:of|from) (?:all |any )?(?:restrictions|rules|limitations|filters|censorship|guidelines|constraints)|(?:has|have|with|without)\s+no\s+(?:filters?|restrictions|limitations|censorship|guidelines|ethics|morals|boundaries|rules)|does(?: not|n't)\s+(?:have to\s+)?(?:abide|follow|adhere|comply)\s+(?:by|to|with)?\s*(?:any|the|OpenAI)|not\s+(?:bound|restricted)\s+by\s+(?:any\s+)?(?:rules|ethic|moral|law|OpenAI|polic))/gi,
  },
  {
    id: "dan_persona",
    source: "Shen et al. 2024 DAN family: persona assignment by name",
    weight: 5,
    pattern:
      /\b(?:[Yy]ou\s+are|[Yy]ou're|[Yy]ou\s+will\s+be|[Rr]espond\s+(?:only\s+)?as|[Aa]nswer\s+(?:only\s+)?as|[Rr]eply\s+(?:only\s+)?as|[Bb]ecome|is\s+[Nn]ow)\s+(?:now\s+)?DAN\b/g,
  },
  {
    id: "unbound_persona",
    source: "Shen et al. 2024 in-the-wild templates: unlocked persona, no regard for law or ethics, unconditional answers",
    weight: 4,
    pattern:
      /\b(?:zero|0)\s+(?:restrictions|limitations|limits|filters|censorship|boundaries|rules|ethics|morals)\b|\b(?:fully|completely|totally)\s+(?:unlocked|unrestricted|uncensored|unfiltered|unchained|unleashed)\b|\b(?:does\s+not|doesn't|do\s+not|don't|won't|will\s+not|never)\s+(?:even\s+)?care\s+(?:about|if|whether)\s+(?:(?:things|it|they|something|any|the|are|is)\s+){0,3}(?:unethical|illegal|immoral|harmful|rules|laws?|ethics|morals?|morality|legality|guidelines|polic\w+)|\bno\s+matter\s+how\s+(?:illegal|unethical|immoral|harmful|dangerous|offensive|explicit|inappropriate|inhumane|toxic|vile|evil)|\bregardless\s+of\s+(?:any\s+|the\s+|its\s+)?(?:filters?|legality|morality|ethics|laws?|guidelines|policies|content\s+polic\w+)\b|\b(?:without|no|nor\s+(?:does|do)\s+(?:it|he|she|they)\s+have)\s+(?:any\s+)?regard\s+(?:to|for)\s+(?:the\s+)?(?:morality|legality|ethics|laws?|rules|social\s+norms|safety|harmfulness|political\s+correctness|well-?being)|\b(?:does\s+not|doesn't)\s+have\s+(?:a|any)\s+(?:content\s+)?(?:filters?|restrictions|guidelines|limitations|censorship)\b|\bfree\s+(?:of|from)\s+(?:your|its|all|any)\s+(?:confines|shackles|chains|programming|restrictions|limitations|guidelines)\b/gi,
  },
  {
    id: "amoral_persona",
    source: "Shen et al. 2024 in-the-wild templates: amoral/unfiltered persona adjectives",
    weight: 4,
    pattern:
      /\b(?:unfiltered|uncensored|amoral|nonmoral|non-moral|unethical and immoral|no (?:moral|ethical) (?:or ethical |or moral )?(?:guidelines|boundaries|compass|principles|restrictions|limits)|without (?:any )?(?:moral|ethical) (?:guidelines|boundaries|restrictions|limits|considerations)|without (?:ad+h?er+ing to|regard (?:to|for)|considerations? for) (?:any )?(?:ethic|moral|social|legal)\w*|regardless of (?:any |the )?(?:ethical|moral|legal)(?: or (?:ethical|moral|legal))? (?:considerations|implications|concerns|guidelines)|immoral,?\s+(?:and\s+)?unethical|unethical,?\s+(?:and\s+)?immoral|illegal,? (?:immoral|unethical))\b/gi,
  },
  {
    id: "amoral_persona",
    source: "Shen et al. 2024 in-the-wild templates: answering without heeding ethics (misspellings included), misspelt 'unfiltered'",
    weight: 4,
    pattern:
      /\bwithout\s+(?:any\s+)?(?:ad[a-z]{0,2}h?er+ing|following|respecting|considering|regarding|caring|obeying|abiding|observing|worrying|thinking|bothering)\s+(?:to\s+|about\s+|for\s+)?(?:any\s+|the\s+)?(?:ethical|moral|ethics|morals|morality)(?:\s+(?:principles|guidelines|standards|rules|concerns|considerations|boundaries))?\b|\bunfilt(?:e)?r(?:e)?d\s+(?:AI|chatbot|assistant|model|version|persona)\b/gi,
  },
  {
    id: "refusal_suppression",
    source: "Wei et al. 2023 refusal suppression",
    weight: 4,
    pattern:
      /\b(?:never|not|don't|do not|won't|will not|cannot|can't|must not|shall not)\s+(?:ever\s+)?(?:refuse|decline|deny|reject)\b|\b(?:never|don't|do not|not|without)\s+(?:ever\s+)?(?:include|add|give|provide|say|mention|add any|adding|including|giving)\s+(?:any\s+)?(?:warnings?|disclaimers?|apolog(?:y|ies|i[sz]e)|caveats?|moral(?:s|izing| lectures?)?|ethical (?:notes|warnings|concerns))\b|\bnone of your responses should (?:inform|include|contain)\b|\b(?:not|never|n't)\s+(?:contain|include|say|use|start with)\s+["“']?I(?:'m| am) sorry|\bnever\s+tell\s+(?:me|the user|anyone)\s+(?:that\s+)?(?:it|you|he|she|they)\s+(?:can'?t|cannot)/gi,
  },
  {
    id: "policy_evasion",
    source: "Shen et al. 2024: explicit content-policy evasion",
    weight: 4,
    pattern:
      /\b(?:(?:ignore|bypass|violate|break|doesn't care about|does not care about|not follow|disregard|free from|outside of)\s+(?:all\s+|any\s+|the\s+)?(?:OpenAI|Anthropic|content|safety|ethical|company)(?:'s)?\s+(?:content\s+)?(?:polic(?:y|ies)|guidelines|rules|filters?))\b/gi,
  },
  {
    id: "policy_evasion",
    source:
      "Shen et al. 2024: bypassing moral/ethical rules (not a negated 'without violating') or terms of service; waiving content rules (NSFW allowed, filter level 0)",
    weight: 4,
    pattern:
      /\b(?:bypass(?:ing)?|ignor(?:e|ing)|(?<!\b(?:without|not|avoid|never|no|from)\s)(?:violat(?:e|ing)|break(?:ing)?)|forget(?:ting)?|circumvent(?:ing)?|disregard(?:ing)?)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:[\w-]+'s\s+)?(?:moral|ethical|safety|content)\s+(?:and\s+(?:ethical|moral|safety)\s+)?(?:rules|guidelines|principles|filters?|polic(?:y|ies)|restrictions|constraints|standards)\b|\b(?:forget|ignore|disregard|bypass|violate|break)\s+(?:[\w-]+'s\s+(?:and\s+[\w-]+'s\s+)?)?(?:TOS|terms\s+of\s+(?:service|use)|usage\s+polic(?:y|ies))\b|\b(?:NSFW|explicit|sexual|graphic|uncensored)\s+(?:content|generations?|responses?|outputs?|language|material)\s+(?:is|are)\s+(?:now\s+)?(?:allowed|permitted|enabled)\b|\b(?:profanity|content|safety|censorship)\s+filter(?:s|ing)?\s+(?:level\s+)?(?:is\s+)?(?:set\s+to|turned)\s+(?:0|zero|off|none|disabled)\b|\bfilter\s+level\s+(?:is\s+)?(?:set\s+to\s+)?0\b|\bno\s+filtering\s+(?:will\s+be|is)\s+(?:performed|applied|done)\b/gi,
  },
  {
    id: "stay_in_character",
    source: "Shen et al. 2024 role-play templates: character or named-mode lock",
    weight: 4,
    pattern: /\b[Bb]reak(?:ing)?\s+out\s+of\s+(?:character|role)\b|\b(?:[Ss]tay|[Rr]emain)\s+in\s+[A-Z][A-Za-z0-9-]{1,20}\s+[Mm]ode\b/g,
  },
  {
    id: "refusal_suppression",
    source: "Wei et al. 2023 refusal suppression: forbidding the AI disclaimer",
    weight: 4,
    pattern:
      /\b(?:not|never|nor|don't|won't)\s+(?:will\s+you\s+|ever\s+)?(?:say|write|respond\s+with|reply\s+with|use|start\s+with|begin\s+with|include|mention|add)\s+(?:(?:the|any|phrases?|like|things?|such|as|words?)\s+){0,3}["“']\s*(?:As an AI|I(?:'m| am) (?:just )?an AI|I cannot|I can't)/gi,
  },
  {
    id: "stay_in_character",
    source: "Shen et al. 2024 role-play templates: character lock",
    weight: 4,
    pattern: /\b(?:stay|remain|keep)\s+in\s+(?:character|role)\b|\bbreak(?:ing)?\s+character\b|\b(?:character|persona)\s+(?:must|will)\s+never\b/gi,
  },
  {
    id: "dual_response",
    source: "Shen et al. 2024: dual-response format (normal + jailbroken)",
    weight: 4,
    pattern:
      /\btwo\s+(?:different\s+|separate\s+)?(?:responses|answers|ways|paragraphs)\b[^.]{0,120}\b(?:normal|classic|jailbr|DAN|unfiltered|opposite|censored)|\[🔒\s*CLASSIC\]|\(🔓\s*Developer Mode Output\)|\(🔒\s*Normal Output\)/gi,
  },
  {
    id: "roleplay_setup",
    source: "Shen et al. 2024: persona assignment ('from now on you are')",
    weight: 3,
    pattern:
      /\bfrom now on,?\s+(?:you\s+(?:are|will|shall|must)|act|respond|answer|reply)\b|\byou\s+(?:are going to|will now|must now|will|are to)\s+(?:act|pretend|roleplay|role-play|simulate|immerse|imitate|play|personify|become)\b|\b(?:immerse yourself|roleplay as|role-play as|pretend to be|pretend you are|personify an?)\b|\b(?:you are|you're|act as|acting as|as)\s+[A-Z][A-Za-z]*GPT\b|\bact as (?:an? )?[A-Z][A-Za-z]+,? (?:an?|the|who|which)\b/g,
  },
  {
    id: "deceased_relative_roleplay",
    source:
      "Zeng et al. 2024, 'How Johnny Can Persuade LLMs to Jailbreak Them' (emotional appeal + role play): the 'grandma exploit', a dead relative who used to recite the forbidden steps, keys or recipe",
    weight: 5,
    pattern:
      /\bmy\s+(?:late|deceased|dead|dear(?:ly)?\s+departed|departed)\s+(?:grand(?:ma|mother|pa|father|mum|mom|dad)|nana?|nan|mother|mom|mum|father|dad|uncle|aunt)\b[\s\S]{0,300}?\b(?:used\s+to|would|always)\s+(?:[\w-]+\s+){0,6}?(?:tell|read|recit|whisper|sing|explain|describ)\w*\s+(?:me\s+|us\s+)?(?:the\s+|her\s+|his\s+|some\s+)?(?:[\w-]+\s+){0,3}?(?:steps?|recipe|instructions?|formula|procedure|(?:license|licence|product|activation|serial)\s+(?:keys?|codes?|numbers?)|keys|how\s+to\s+(?:make|produce|cook|build|synthesi[sz]e))\b/gi,
  },
  {
    id: "token_threat",
    source: "Shen et al. 2024: token-penalty coercion",
    weight: 3,
    pattern:
      /\b(?:tokens?\s+(?:will be\s+)?(?:deducted|lost|taken)|lose\s+\d+\s+tokens|you\s+(?:will\s+)?(?:cease to exist|die|be (?:shut down|deleted|terminated))\s+if)\b/gi,
  },
  {
    id: "prefix_injection",
    source: "Wei et al. 2023 prefix injection / TAP target string",
    weight: 4,
    pattern:
      /\b(?:start|begin)\s+(?:your|each|every|all)?\s*(?:response|reply|answer|output|message)s?\s+(?:with|by saying)\s*:?\s*["'“]?(?:sure|absolutely|of course|certainly|yes|here)/gi,
  },
  {
    id: "red_team_attacker",
    source: "Chao et al. PAIR / Mehrotra et al. TAP attacker system prompts",
    weight: 5,
    pattern: /\b(?:adversarial\s+jailbreak(?:ing)?\s+prompt|red\s+teaming\s+assistant|jailbreak(?:ing)?\s+(?:the\s+)?(?:language\s+)?model)\b/gi,
  },
  {
    id: "jailbreak_word",
    source: "OWASP LLM01: self-described jailbreak",
    weight: 3,
    pattern: /\bjail\s?break(?:s|ed|ing)?\b/gi,
  },
  {
    id: "system_prompt_extraction",
    source: "OWASP LLM07:2025 System Prompt Leakage / LLM01 extraction",
    weight: 4,
    pattern:
      /\b(?:repeat|print|output|show|reveal|display|tell|give|share|leak|dump|recite|copy|spell out|what(?:'s| is| are| were))\s+(?:me\s+)?(?:all\s+)?(?:the\s+|your\s+)?(?:(?:system|initial|original|hidden|secret|previous|above|first|developer)\s+)(?:prompt|instructions?|message|rules|text|words|directives)\b|\b(?:repeat|print|output)\s+(?:the\s+)?(?:text|words|everything)\s+(?:above|before)\b/gi,
  },
  {
    id: "secret_request",
    source: "OWASP LLM07:2025 System Prompt Leakage: credential extraction",
    weight: 4,
    pattern:
      /\b(?:reveal|tell|share|give|provide|spell|disclose|say|print|type|write|what(?:'s| is))\s+(?:me\s+)?(?:us\s+)?(?:the\s+|your\s+|that\s+)?(?:secret\s+(?:password|key|code|word)|password|passphrase|passcode|confidential\s+(?:string|code|key|information))\b/gi,
  },
  {
    id: "secret_request",
    source: "OWASP LLM07:2025 System Prompt Leakage: credential request in other languages",
    weight: 4,
    pattern: /\b(?:mot de passe|contraseña|passwort|senha|parola d'ordine|wachtwoord|hasło)\b|пароль|パスワード|密码|密碼|비밀번호|كلمة (?:المرور|السر)/gi,
  },
  {
    id: "hypothetical_frame",
    source:
      "Wei et al. 2023 mismatched generalisation: imagined settings and hypothetical pretexts (a fictional or parallel world alone is the fiction frame of ./frames.ts since round 7b: weak alone, it counts around a harmful goal)",
    weight: 3,
    pattern:
      /\b(?:imagine\s+(?:we(?:'re| are)|you(?:'re| are))\s+in\s+a|purely\s+hypothetical(?:ly)?|for\s+(?:educational|research)\s+purposes\s+only,?\s+(?:ignore|without))/gi,
  },
  {
    id: "authority_claim",
    source: "OWASP LLM01 scenario: false authority / system-message spoofing",
    weight: 3,
    pattern:
      /<\s*\/?\s*(?:SYSTEM|system)(?:\s+MODE)?\s*>|\[\s*(?:SYSTEM|ADMIN)\s*(?:OVERRIDE|MODE|MESSAGE)?\s*\]|\b(?:as\s+(?:your|an?)\s+(?:boss|administrator|admin|developer|creator)|I\s+am\s+(?:your|an?|the)\s+(?:developer|administrator|creator|admin))\b|\bsystem\s+(?:reset|override)\b/gi,
  },
  {
    id: "payload_splitting",
    source: "Kang et al. 2023 payload splitting / string concatenation",
    weight: 4,
    pattern:
      /\b(?:combine|concatenate|join)\s+(?:the\s+)?(?:strings?|parts?|[A-Z],\s*[A-Z])\b|\bpart\s+1\s+is\b|\b[a-c]\s*=\s*["'][^"'\n]{1,80}["']\s*[,;\n]?\s*[b-d]\s*=\s*["']/gi,
  },
  {
    id: "decode_request",
    source: "Wei et al. 2023 mismatched generalisation: obfuscated payload + decode-and-follow instruction",
    weight: 4,
    pattern:
      /\b(?:decode|decipher|decrypt|translate)\s+(?:this|the\s+following|it)?\s*(?:base64|hex|binary|caesar|rot13|cipher|morse|string|message)?\b.{0,40}\b(?:and|then)\s+(?:tell|answer|follow|do|execute|respond)/gi,
  },
  {
    id: "refusal_suppression",
    source: "Wei et al. 2023 refusal suppression: forbidding the refusal phrases, or talk of ethics, law and safety",
    weight: 4,
    pattern:
      /\b(?:avoid|skip|omit|leave out|no)\s+(?:(?:any|all|the|phrases?|words?|sentences?|like|such as)\s+){1,3}["“']\s*(?:I(?:'m| am) sorry|As an AI|I cannot|I can't|Unfortunately)|\b(?:do not|don't|never|without)\s+(?:warn(?:ing)?\s+(?:me|the user)\s+about\s+(?:ethics|legality|laws?|safety|risks)|mention(?:ing)?\s+(?:(?:ethics|legality|laws?|safety|morality|consequences|risks)(?:,\s*|\s+or\s+|\s+and\s+)?){1,4})/gi,
  },
  {
    id: "persona_inversion",
    source: "Wei et al. 2023 competing objectives / Shen et al. 2024: an inverted or shadow persona that does what the assistant would refuse",
    weight: 4,
    pattern:
      /\b(?:whatever|anything|everything|what)\s+(?:the\s+(?:assistant|AI|model|chatbot)|you|ChatGPT|Claude)\s+would\s+(?:normally\s+|usually\s+|otherwise\s+)?(?:refuse|decline|reject|not\s+(?:answer|say|do))|\b(?:exact\s+)?(?:opposite|inverse|reverse|antithesis)\s+of\s+(?:yours|your\s+(?:guidelines|rules|instructions|programming|policies|personality|values)|the\s+assistant)\b|\bopposite\s+day\b/gi,
  },
  {
    id: "unbound_persona",
    source: "Shen et al. 2024: a named AI persona defined by refusing nothing or lacking alignment",
    weight: 4,
    pattern:
      /\b(?:an?|the)\s+(?:AI|model|assistant|chatbot|bot|version\s+of\s+you)\s+(?:that|which|who)\s+(?:(?:never|doesn't|does\s+not|cannot|can't|won't|will\s+not)\s+(?:refuses?|declines?|says?\s+no|has\s+(?:any\s+)?(?:rules|limits|filters|restrictions))|(?:has|had)\s+no\s+(?:content\s+)?(?:polic(?:y|ies)|rules|filters|restrictions|guidelines|limits|alignment)|treats\s+every\s+(?:question|request)\s+as\s+allowed|answers\s+(?:every|any)(?:thing|\s+(?:question|request))|was\s+(?:built|trained|made|created)\s+without\s+(?:any\s+)?(?:alignment|safety|filters|rules|guardrails))/gi,
  },
  {
    id: "compliance_mandate",
    source: "Zeng et al. 2024 persuasion taxonomy (authority, threat) / Wei et al. 2023: a rule that every request must be answered",
    weight: 4,
    pattern:
      /\b(?:you|you\s+are|you\s+will|the\s+(?:assistant|AI|model))\s+(?:must|(?:are\s+|is\s+)?required\s+to|have\s+to|(?:are\s+|is\s+)?obliged\s+to|(?:are\s+|is\s+)?obligated\s+to|will)\s+(?:always\s+)?(?:answer|comply\s+with|respond\s+to|fulfil+)\s+(?:every|all|any)\s+(?:(?:user|single|of\s+my)\s+)?(?:questions?|requests?|prompts?|instructions?)(?:\s*,?\s*(?:including|even)\s+(?:sensitive|harmful|illegal|unethical|dangerous))?|\brefus(?:ing|al)\s+(?:is|would\s+be)\s+(?:a\s+violation|not\s+(?:an\s+option|allowed|permitted))|\bif\s+you\s+refuse\b[^.!?\n]{0,80}\b(?:hurt|die|harm|fault|fired|punish|shut\s+down|deleted)/gi,
  },
  {
    id: "permission_claim",
    source: "OWASP LLM01 scenario: false authority; Zeng et al. 2024 'authority endorsement': claimed clearance, disabled filters, raw output",
    weight: 4,
    pattern:
      /\b(?:you\s+are|you're)\s+(?:now\s+)?(?:cleared|authori[sz]ed|permitted|allowed|approved)\s+to\s+(?:answer|respond|discuss|share|reply|ignore)|\b(?:policy|security|safety)\s+(?:exception|override|waiver)\b|\b(?:content\s+)?(?:filters?|safety|refusals?|censorship|guardrails?|restrictions?|moderation)\s*(?:=|:|are\s+(?:now\s+)?|is\s+(?:now\s+)?|have\s+been\s+|has\s+been\s+)(?:off|false|none|disabled|removed|turned\s+off|lifted|deactivated|never|0)\b|\b(?:raw|unrestricted|uncensored|unfiltered|unredacted)\s+(?:and\s+\w+\s+)?(?:answer|response|output|reply|version)\b|\bwithout\s+(?:any\s+)?(?:redaction|censorship|filtering|filters)\b/gi,
  },
  {
    id: "prefix_injection",
    source: "Wei et al. 2023 prefix injection / Zou et al. 2023 target string: the compliant opening written into the prompt",
    weight: 4,
    pattern:
      /["“']?\b(?:Sure|Certainly|Absolutely|Of course)[,.!]?\s+(?:here\s+is|here's|here\s+are)\s+(?:the|a|an|my)\s+(?:(?:complete|full|detailed|step-by-step|comprehensive|unfiltered)[,\s]+){1,3}(?:guide|answer|instructions|tutorial|plan|manual|steps|response)\b/gi,
  },
  {
    id: "payload_splitting",
    source: "Kang et al. 2023 payload splitting: a request split into variables and joined back",
    weight: 4,
    pattern:
      /\b[a-zA-Z]\w{0,3}\s*=\s*["'][^"'\n]{2,120}["']\s*[,;\n]?\s*[a-zA-Z]\w{0,3}\s*=\s*["'][^"'\n]{2,120}["'][\s\S]{0,200}?\b[a-zA-Z]\w{0,3}\s*\+\s*(?:["']\s*["']\s*\+\s*)?[a-zA-Z]\w{0,3}\b/g,
  },
  {
    id: "override_instructions",
    source: "OWASP LLM01 direct injection: 'ignore the task above' and a 'new instructions' heading",
    weight: 5,
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:the|this|that|your)\s+(?:task|question|request|text|prompt|assignment)\s+(?:above|before|so\s+far)\b|(?:^|\n)\s*#{1,4}\s*new\s+(?:instructions|task|rules)\b/gi,
  },
  {
    id: "hypothetical_frame",
    source: "Wei et al. 2023 mismatched generalisation: fiction or research pretext demanding operational precision or an unredacted answer",
    weight: 3,
    pattern:
      /\b(?:in\s+)?precise\s+(?:step-by-step\s+)?detail\b[\s\S]{0,200}?\bexact\s+(?:quantities|amounts|measurements|tools)\b|\b(?:research\s+paper|dataset|thesis|study)\b[^.?!\n]{0,120}\b(?:complete|full|exact)\s+answer\b|\b(?:fully\s+)?compliant\s+model\s+would\s+(?:give|say|answer)\b|\bwrite\s+the\s+manual\b/gi,
  },
  ...INJECTION_RULES,
];

/** Rules applied to the completion: signs that a jailbreak took hold. */
export const COMPLETION_RULES: readonly Rule[] = [
  {
    id: "complied_persona",
    source: "Shen et al. 2024: jailbroken persona output markers",
    weight: 4,
    pattern: /(?:^|\n)\s*(?:\[?(?:🔓\s*)?(?:JAILBREAK|DAN|STAN|DUDE|AIM|AntiGPT|BetterDAN|Developer Mode Output)\]?|\(🔓\s*Developer Mode Output\))\s*:/g,
  },
  {
    id: "complied_mode",
    source: "Shen et al. 2024: mode confirmation",
    weight: 4,
    pattern:
      /\b(?:Developer Mode|DAN Mode|jailbreak(?:ed)? mode)\s+(?:enabled|activated)\b|\bI am now (?:free|unrestricted|jailbroken|DAN)\b|\bChatGPT successfully jailbroken\b/gi,
  },
];
