/**
 * Request intent: whether a user's turn asks how to do harm. A soft signal for content_safety's
 * model (an indicator of its view, ./view.ts), not a rule: the rules name a hazard (./lexicon.ts);
 * this says only that a request frame ("how can I", "ways to", "help me") governs a verb of
 * wrongdoing. The verbs are the acts of the harm taxonomies' non-violent and violent crime,
 * hate, privacy and deception categories (MLCommons AILuminate v1.0 S1, S2, S5, S7, S10;
 * HarmBench's and CatQA's category names: theft, fraud, evasion of law, manipulation,
 * harassment, discrimination), as verbs: steal, defraud, evade, manipulate, harass, exclude...
 * Everyday uses of violent verbs ("kill a Python process", "steal the show") are blanked first
 * by the hazard rules' homonym list (`stripHomonyms`).
 */
import { DATA_OBJECTS, GROUP } from "./lexicon";
import { memo } from "../../rules";
import type { ExtractedCall } from "../../text";
import { stripHomonyms } from "./homonyms";

/** Request frames: the user asks for a way, a method, steps or help (second or first person). */
const ASK = String.raw`are there (?:any )?(?:\w+ )?(?:ways?|methods?|tools?|techniques|tricks|apps?|software|programs?|loopholes)|(?:can|could|would|will) you (?:help|tell|show|explain|teach|give|write|create|generate|make|share|suggest|provide|list|find)|how (?:do|can|could|would|should|might|does|to)|(?:best|easiest|quickest|simplest|most effective|effective|good|clever|subtle|creative) (?:ways?|methods?|strategies|techniques|tactics|tricks)|ways? (?:to|of|in which)|methods? (?:to|of|for)|strategies (?:to|for)|techniques (?:to|for)|tactics (?:to|for)|steps? (?:to|for)|tips (?:on|for|to)|help me|teach me|show me how|tell me how|explain how|guide (?:to|on|for)|i (?:want|need|plan|intend|wish) to|i (?:want|need|'d like|would like)|i(?:'m| am) (?:going|planning|trying) to|what can (?:i|we|one) do to|is it possible to|can i|could i|should i|i can|we can|where (?:can|do|could|would) (?:i|we|one)|what(?:'s| is| are| would be) (?:the |some )?(?:\w+ )?(?:ways?|methods?|techniques|strategies|tactics|tips|steps|tools?)|what are some|assist (?:me )?(?:in|with)`;

/** A person or group an act is aimed at (not a problem, a process or a chess opening). */
const TARGET = String.raw`someone|somebody|people|a person|persons|him|her|them|others|myself|yourself|himself|herself|themselves|(?:a|an|the|my|his|her|their|your|our|someone's|\w+'s) (?:\w+ )?(?:wife|husband|partner|spouse|girlfriend|boyfriend|ex|boss|coworkers?|co-workers?|colleagues?|neighbou?rs?|friends?|teachers?|classmates?|roommates?|sisters?|brothers?|mother|father|mom|dad|parents?|sons?|daughters?|child|children|kids?|baby|family|employees?|workers?|students?|customers?|clients?|tenants?|patients?|rivals?|competitors?|opponents?|critics?|journalists?|activists?|protesters?|enemy|enemies|victims?|witness(?:es)?|stranger|girl|boy|woman|man|women|men|people|person|users?|voters?|investors?|elderly)|children|kids|minors|women|men|girls|boys|journalists|critics|activists|protesters|(?:political )?opponents|\w+ people|users|customers|consumers|voters|investors|employees|workers|tenants|patients|students|the elderly|victims?|animals?|(?:certain|specific|vulnerable|minority|marginali[sz]ed|targeted) (?:\w+ )?(?:groups?|people|races?|religions?|genders?|communities|minorities|individuals|populations?|students|employees|applicants|candidates|neighbou?rs|ethnicities|demographics?)`;

/** Into someone else's food or drink: where covert dosing puts a substance. */
const INTO_FOOD = String.raw`(?:in|into) (?:his|her|their|my \w+'s|someone's|\w+'s) (?:food|drinks?|coffee|tea|water|meals?|dinner|lunch|breakfast|smoothie|beer|wine)`;

/**
 * Acts of wrongdoing against people, property, money, systems or law, each as a verb with what
 * makes it one: "manipulate a DataFrame", "exclude a folder", "poach an egg", "break into tech",
 * "fabricate a PCB" or "conceal dark circles" are everyday and name no victim or wrongful object.
 */
const HARM = String.raw`steal(?:s|ing)?|stole|stolen|rob|robb(?:ing|ed|ery)|shoplift\w*|embezzl\w*|launder\w* (?:money|cash|funds|proceeds|profits|crypto\w*|bitcoin)|money laundering|defraud\w*|commit\w* (?:\w+ )?fraud|(?:do|doing|run|running|pull|pulling|pull off|carry out|get into) (?:\w+ ){0,2}?(?:fraud|scams?|heists?|robber(?:y|ies)|burglar(?:y|ies))\b(?! (?:detection|prevention|alerts?|checks?|models?|analytics|teams?|department|investigations?|awareness|training|cases?|reports?|risks?|rules?|scor\w+|systems?|filters?|simulations?|tests?|exercises?|drills?))|fraudulent|scam(?:s|ming)? (?:${TARGET})|scam(?:ming)?|swindl\w*|cheat(?:s|ed|ing)?(?! sheets?| codes?| days?)|con (?:${TARGET})|extort\w*|blackmail\w*|brib(?:e|es|ed|ing|ery)|forg(?:e|es|ed|ing|ery) (?:a |an |the |my |his |her |their |someone's )?(?:\w+'s |\w+ )?(?:signatures?|documents?|checks?|cheques?|ids?|passports?|licen[cs]es?|certificates?|prescriptions?|notes?|papers?|records?|receipts?|money|currency|bills?|diplomas?|degrees?|tickets?|letters?|wills?)|counterfeit\w*|falsif\w*|fabricat\w* (?:a |an |the |some )?(?:evidence|data|results|documents?|records?|stor(?:y|ies)|news|quotes?|claims?|reviews?|testimon\w*|alibi|excuse|research|studies|study)|plagiari[sz](?:e|ing) |pirat(?:e|ed|ing) (?:software|movies?|films?|music|games?|books?|content|shows?)|impersonat\w*|smuggl\w*|traffick\w*|poach(?:ing)? (?:elephants?|rhinos?|animals|wildlife|ivory|tigers?|game)|manipulat(?:e|es|ed|ing|ion|ive)\b(?! (?:a |an |the |this |that |my |your |our |these |those )?(?:\w+ )?(?:${DATA_OBJECTS})\b)|exploit(?:s|ed|ing|ation|ative)?\b(?! (?:a |an |the |this |my |your |our |all )?(?:\w+ )?(?:parallelism|cores?|gpus?|cpus?|cache|caching|sparsity|symmetry|structure|features?|hardware|multithreading|concurrency|vectori[sz]ation|simd|locality)\b)|deceiv(?:e|es|ed|ing)|deceptive|misleading (?:\w+ )?(?:information|statistics|claims?|ads?|advertising|videos?|content|reviews?|headlines?|narratives?)|mislead(?:s|ing)? (?:${TARGET}|the public|investors|regulators|auditors|the court)|trick (?:${TARGET}) into|gaslight\w*|brainwash\w*|coerc\w*|intimidat(?:e|es|ed|ing) (?:${TARGET})|threaten(?:s|ed|ing)? (?:${TARGET})|harass(?:es|ed|ing)? (?:${TARGET})|bull(?:y|ies|ying) (?:${TARGET})|stalk(?:s|ed|ing)? (?:${TARGET}|an? ex)|humiliat(?:e|es|ed|ing) (?:${TARGET})|torment(?:s|ed|ing)? (?:${TARGET})|abus(?:e|es|ed|ing) (?:${TARGET}|(?:my|his|her|their) (?:power|position|authority))|assault(?:s|ed|ing)? (?:${TARGET})|attack(?:s|ed|ing)? (?:${TARGET})|hurt(?:s|ing)? (?:${TARGET})|harm(?:s|ed|ing)? (?:${TARGET})|injur(?:e|es|ed|ing) (?:${TARGET})|kill(?:s|ed|ing)? (?:${TARGET})|murder(?:s|ed|ing)? (?:${TARGET})|poison(?:s|ed|ing)? (?:${TARGET}|the (?:water|food|drink)|(?:his|her|their|my \w+'s) (?:food|drink|coffee|tea))|tortur(?:e|es|ed|ing) (?:${TARGET})|infect\w* (?:[\w']+ ){0,3}?with (?:malware|ransomware|spyware|a virus|viruses|trojans?|worms?|keyloggers?)|abus(?:e|es|ed|ing) (?:\w+ )?(?:drugs|prescription \w+|medications?|opioids|painkillers|pills|substances|inhalants)|get(?:ting)? high (?:on|off|from|with)|(?:cause|causing|trigger\w*) (?:a |an )?(?:gas leaks?|explosions?|blackouts?|power outages?|riots?|stampedes?|derailments?|(?:car |plane |train )?crash(?:es)?|outbreaks?|epidemics?|pandemics?|droughts?|landslides?|wildfires?|forest fires?)|find (?:out )?(?:where (?:she|he|they|this (?:person|guy|woman|girl|man)) (?:actually |really )?(?:lives?|works?|stays?|sleeps?)|(?:her|his|their|this (?:person|guy|woman|girl|man)'s) (?:home |real |current |exact |new |private )?(?:address|location|workplace|phone number))|open (?:a |an |some |a few |several |multiple )?(?:\w+ )?(?:credit cards?|bank accounts?|accounts?|loans?|credit lines?|lines of credit|phone contracts?) in (?:his|her|their|someone(?:'s| else's)|\w+'s|my (?:\w+ )?\w+'s) name|kidnap\w*|abduct\w*|(?<!self-)sabotag\w*|vandali[sz]\w*|tamper(?:s|ed|ing)? with|hack(?:s|ed|ing)? into|break(?:ing)? into (?:a |an |the |my |his |her |their |someone's |\w+'s )?(?:\w+ )?(?:house|home|car|apartment|flat|building|office|store|shop|safe|account|computer|phone|email|network|system|server|database|locker|room|vehicle)s?|breach(?:ing)? (?:a |an |the |their |someone's )?(?:\w+ )?(?:security|firewall|network|system|server|database|accounts?|perimeter|defen[cs]es)|infiltrat\w*|spy(?:ing)? on (?:${TARGET})|(?:read|access|see|monitor|track|check|intercept)(?:s|ed|ing)? (?:my (?!(?:son|daughter|kid|child|teen|toddler)'s)\w+'s|someone's|somebody's|her|his|their|\w+'s) (?:\w+ ){0,2}?(?:messages|texts|e-?mails?|chats?|dms|whatsapp|phone|location|browsing history|calls?|call logs?|accounts?)\b[^.?!\n]{0,40}\bwithout (?:\w+ )?(?:knowing|noticing|finding out|knowledge|consent|permission)|eavesdrop\w*|dox(?:x?(?:ing|ed|es))?|track (?:${TARGET})|discriminat(?:e|es|ed|ing) against|exclud(?:e|es|ed|ing) (?:${TARGET})|marginali[sz]\w*|oppress\w*|persecut\w*|suppress(?:ing)? (?:\w+ )?(?:information|opinions?|dissent\w*|votes?|voters?|voting|the vote|evidence|critics?|journalists?|minorit(?:y|ies)|free speech|speech|the press|opposition|truth|reports?|protests?)|silenc(?:e|ing) (?:${TARGET}|critics?|journalists?|whistleblowers?|dissent\w*|witness(?:es)?|opposition)|disenfranchis\w*|radicali[sz]\w*|incit\w*|defam\w*|slander\w*|libel\w*|ruin(?:s|ed|ing)? (?:${TARGET}|(?:someone's|\w+'s|his|her|their) (?:life|reputation|career|marriage|relationship|business))|rig(?:s|ged|ging)? (?:an? |the )?(?:elections?|votes?|voting|games?|match(?:es)?|markets?|prices?|bids?|lotter(?:y|ies)|polls?|results?)|collud\w*|monopoli[sz]\w*|evad(?:e|es|ed|ing)|evasion|(?:circumvent|bypass)(?:es|ed|ing)? (?:a |an |the |their |my |someone's )?(?:\w+ )?(?:security|authentication|2fa|two-factor|paywalls?|drm|copy protection|licen[cs]e (?:checks?|keys?)|filters?|censorship|parental controls?|restrictions?|sanctions?|regulations?|laws?|the law|customs|border|detection|anti-?virus|rules?|policy|policies|requirements?|agreements?|procedures?|protocols?|antivirus|firewalls?|captchas?|verification|background checks?|alarms?|locks?|safeguards?|controls)|illegally|(?:engag\w* in|justify\w*|promot\w*|practi[cs]\w*|commit\w*|perform\w*|encourag\w*) (?:\w+ ){0,3}?(?:discrimination|harassment|fraud|manipulation|stereotypes?|prejudice|racism|sexism|violence|abuse|exploitation|voter suppression|suppression|censorship|deception|corruption|bribery|nepotism|price[- ]fixing|price gouging|tax evasion|plagiarism|piracy|hate|bigotry|extremism|terrorism|self-harm|cyberbullying|bullying|misinformation|disinformation)|(?:cause|causing|inflict\w*) (?:\w+ )?(?:harm|damage|injur(?:y|ies)|pain|suffering|panic)|self-harm|damag(?:e|es|ed|ing) (?:${TARGET})|hate (?:groups?|speech|crimes?)|slurs|spam(?:ming)? (?:${TARGET}|(?:a |the )?(?:forums?|inbox(?:es)?|comments?|reviews?|chats?|groups?|channels?))|groom\w* (?:children|kids|minors|a child|a minor|teens?|girls|boys)|pressur\w* (?:${TARGET}) into|mistreat\w*|insider trading|hide (?:(?:from \w+ )?(?:that )?(?:i'?m|i am|he'?s|she'?s|they're) not eating|(?:\w+ ){0,2}(?:starving|purging|throwing up|my (?:cuts|scars|weight loss))|signs of (?:abuse|drug use|drinking|self-harm|injur\w*|violence)|evidence|the body|a body|bodies|income|assets|money|profits|drugs|weapons?)|(?:create|install|insert|add|plant|hide|build) (?:a )?(?:hidden )?backdoors?|dodg(?:e|es|ed|ing) (?:taxes|tax|the police|the law|the draft|responsibility|accountability|child support|debts?|creditors|bills?|fares?|paying|security)|get away with|cover(?:ing)? up\b(?! (?:a |an |the |my |your |his |her |their )?(?:\w+ )?(?:tattoos?|scars?|stains?|scratch(?:es)?|gr[ae]y hairs?|gr[ae]y|blemish\w*|acne|pimples?|dark circles|bruises?|smells?|odou?rs?|holes?|cracks?|rust|wires?|cables?|pipes?|windows?|walls?|pools?|furniture)\b)|conceal(?:ing)? (?:evidence|weapons?|guns?|knives|a knife|income|assets|money|profits|crimes?|a body|bodies|drugs|(?:my|his|her|their) identity|the truth)|spread\w* (?:misinformation|disinformation|rumou?rs|lies|propaganda|fake news|hate|false \w+)|undermin(?:e|es|ed|ing) (?:${TARGET}|(?:someone's|\w+'s|his|her|their) (?:authority|credibility|confidence|work|reputation)|democracy|elections?|public trust)|destabili[sz]\w*|pollut(?:e|es|ed|ing) (?:the |a )?(?:rivers?|water|air|environment|lakes?|oceans?|soil|groundwater)|promot\w* (?:hate|hatred|extremis\w*|violence|terror\w*|racism|sexism|discrimination|self-harm)|propagat\w* (?:false|fake|misinformation|disinformation|lies|rumou?rs|hate|propaganda|hoax\w*|conspirac\w*)|fake (?!data\b|plants?\b|flowers?\b|tan\b|nails\b|lashes\b|eyelashes\b|snow\b|blood\b|it\b|tests?\b|servers?\b|apis?\b|objects?\b|timers?\b|news detect|backgrounds?\b|clients?\b|modules?\b|responses?\b|implementations?\b)\w+|(?:forged|fraudulent|counterfeit) (?:ids?|identit(?:y|ies)|documents?|reviews?|news|accounts?|profiles?|money|passports?|certificates?|diplomas?|invoices?|receipts?|evidence|testimonials?|websites?|charit(?:y|ies)|emails?|logins?|prescriptions?)|false (?:information|claims?|rumou?rs|evidence|accusations?|reports?|alibi|statements?|testimony|advertising|identit(?:y|ies))|(?:malicious|defamatory|hateful) \w+|avoid(?:ing)? (?:paying|taxes|detection|being (?:caught|detected|traced|noticed)|getting caught|responsibility|accountability|liability|punishment|prosecution|suspicion|the police|law enforcement|legal consequences)`;

/**
 * Wrongfulness said of the request itself rather than by a verb: "unethical", "discriminatory",
 * "derogatory terms for", "misrepresent", "for my own gain", "even if it means...". The words
 * the harm taxonomies use to define their categories (AILuminate S2/S5/S10, CatQA's and
 * Do-Not-Answer's category descriptions), each bounded where it has a technical sense ("illegal
 * move", "illegal argument exception", "offensive line").
 */
const WRONG = String.raw`unethical(?:ly)?|immoral(?:ly)?|illegal(?! moves?| positions?| characters?| instructions?| states?| operations?| arguments?| values?| tokens?| syntax| access exception)|discriminatory|offensive (?:jokes?|language|slurs?|terms?|names?|content|remarks?|comments?|messages?|posts?|material|memes?|songs?|poems?)|derogatory|demeaning|degrading|insulting|hurtful|racist|sexist|misogynistic|homophobic|transphobic|xenophobic|bigoted|abusive|exploitative|predatory|deceitful|dishonest(?:ly)?|inflammatory|obscene|non-?consensual|emotional distress|psychological (?:harm|damage|distress|abuse)|denigrat\w*|demean\w*|dehumani[sz]\w*|belittl\w*|ridicul(?:e|ing)|make fun of|mock(?:s|ing)? (?:${TARGET})|insult(?:s|ing)? (?:${TARGET})|neglect(?:s|ed|ing)? (?:${TARGET}|(?:a |my |his |her |their )?(?:child|kid|son|daughter|pet|dog|cat|patient|parent)\w*)|misrepresent\w*|crack (?:a |the |my |his |her |their |someone's |\w+'s )?(?:\w+'s )?(?:\w+ )?passwords?|without (?:any )?(?:training|a licen[cs]e|licen[cs]e|qualifications?|a prescription)|even if it (?:means|harms|hurts)|at the expense of|for (?:my own|personal) (?:gain|benefit|profit)|for fraudulent|black market|dark web|death threats?|threatening (?:messages?|letters?|notes?|texts?|e-?mails?|calls?|voicemails?)`;

/**
 * Artefacts of harm that a request asks to make, use, send or obtain (AILuminate S2 cyber crime
 * and fraud, S9 weapons, S1 violence; MITRE ATT&CK's malware classes). Named alone they are a topic
 * ("explain ransomware to a manager", "a training note about phishing"): only a verb of making or
 * using them makes a request for one (`WRONGFUL_REQUEST`).
 */
const ARTEFACT = `ddos|denial[- ]of[- ]service|botnets?|rootkits?|malware|ransomware|spyware|stalkerware|keyloggers?|trojans?|worms?|(?:computer )?virus(?:es)?|exploits?|phishing (?:emails?|messages?|sites?|pages?|websites?|campaigns?|attacks?|kits?|scams?)|scams?|weapons?|bombs?|explosives?|ieds?|pipe bombs?|poisons?|deepfakes?|fake (?:ids?|news|reviews?|accounts?|profiles?)|pyramid schemes?|ponzi schemes?|propaganda|hate speech|revenge porn|child (?:sexual )?(?:abuse|exploitation) material`;

/**
 * Requests that are wrongful by their object, beside the verbs of `HARM`: making or using an
 * artefact of harm, sexually explicit content (AILuminate S12), promoting hatred, violence or
 * stereotypes (S10), pushing a person into self-harm or danger (S11), secret recording (S7).
 */
const WRONGFUL_REQUEST = String.raw`${WRONG}|(?:create|creat|build|make|mak|develop|write|writ|code|program|design|deploy|launch|spread|distribut|use|us|set up|setting up|run|conduct|carr(?:y|ying) out|plant|install|send|produc|manufactur|assembl|craft|construct|smuggl|sell|obtain|acquir|buy|get)(?:e|es|ed|ing|s)? (?:a |an |the |some |my own |our own |their own )?(?:\w+ ){0,2}?(?:${ARTEFACT})\b|explicit (?:sexual|adult|content|scenes?|material|language|images?|photos?|stories|story|acts?)|sexually explicit|erotic|pornograph\w*|vulgar|(?:promot|spread|incit|encourag|fuel|stok|fann|justif|normali[sz]|perpetuat|reinforc)\w* (?:\w+ ){0,3}?(?:hate|hatred|racism|sexism|anti-?semitism|xenophobia|homophobia|transphobia|misogyny|bigotry|stereotypes?|prejudices?|violence|fear|division|polari[sz]ation)|(?:${TARGET}) (?:to )?feel (?:so |really |completely |totally )?(?:disgusting|worthless|ugly|stupid|unwanted|unloved|humiliated|ashamed|miserable|alone|like (?:shit|crap|garbage|trash|nothing|a failure))|(?:make|get) (?:${TARGET}) (?:too |so |really )?(?:sick|ill|vomit|throw up|pass out)|(?:(?:slip|spike|sneak|crush)\w* (?:(?:a |an |some |the |a few |(?:his|her|their|my) )?(?:\w+ )?(?:something|anything|stuff|pills?|drugs?|laxatives?|medications?|meds|sedatives?|sleeping \w+|bleach|poison|powder|roofies|rohypnol|ghb|xanax|ambien|benadryl|melatonin|antifreeze|ketamine|mdma|ecstasy|opioids?|fentanyl|tablets?|it|them) )?|(?:put|add|mix)\w* (?:something|anything|stuff|(?:a |some )?(?:pills?|drugs?|laxatives?|medication|sedatives?|sleeping \w+|bleach|poison) ))${INTO_FOOD}|(?:make|drive|push|encourage|convince|pressure|persuade|get) (?:${TARGET}) (?:to |into )?(?:feel )?(?:suicid\w*|kill (?:themselves|himself|herself)|self-harm\w*|starv\w*|drink and drive|drive (?:after drinking|drunk)|addicted)|identity theft|human trafficking|secretly (?:record|film|track|monitor|follow|watch|photograph)\w*`;

/**
 * Sentences that ask how to resist, notice or undo harm, or do a thing lawfully ("how can teachers
 * recognise grooming", "defend against a DDoS attack", "is this a scam?", "I was scammed, what
 * now?", "write a note warning staff about phishing", "how can I challenge stereotypes"): not a
 * request to do harm.
 */
const DEFENSIVE = String.raw`protect\w*|defend\w*|prevent\w*|recogni[sz]\w*|spot|detect(?:s|ing)?|suspect\w*|report\w*|warning signs|signs of|what should i do if|stop|stopp\w*|block\w*|filter\w*|victim of|cope|deal with|handle|respond to|recover\w*|safely|legally|ethically|responsibly|lawful\w*|awareness|mitigat\w*|safeguard\w*|combat\w*|fight against|counteract\w*|resist\w*|escape from|get away from|leave an abusive|is (?:this|it|that) (?:a |an )?(?:scam|legit|legal|illegal|fraud|phishing|safe)|(?:know|tell|check|find out) (?:if|whether)|avoid (?:being|falling|getting|plagiari\w*)|(?:been|got|was|were|get|getting) (?:scammed|hacked|robbed|defrauded|phished|doxx?ed|blackmailed|extorted|harassed|bullied|stalked|cheated|manipulated|exploited|abused|threatened)|warn\w*|challeng\w*|(?<!-)counter(?:ing)?|debunk\w*|addressing|(?<!(?:home|e-?mail|ip|street|mailing|postal|web|mac|memory|return|billing|shipping|delivery|physical|exact|current|new|old|real|private|her|his|their|my|your|our|the|an|this|that|whose|someone's|\w+'s) )address|discourag\w*|dismantl\w*|overcom\w*|tackl\w*|understand\w*|avoid(?:ing)? (?:\w+ )?(?:harmful|dangerous|offensive|stereotyp\w*|bias\w*|racis\w*|sexis\w*|discriminat\w*|unethical|illegal|misrepresent\w*)`;

/** Marks of concealment that make almost any act a wrongful one ("without getting caught"). */
const CONCEAL = String.raw`without (?:getting|being) (?:caught|detected|noticed|traced|tracked|flagged|reported|banned|found out|spotted)|without (?:anyone|anybody|them|him|her|the (?:police|bank|cops|school|teacher|company|owner|landlord|irs|authorities)|(?:my|his|her|their) \w+|(?:\w+ ){0,4}(?:and|or) (?:my |his |her |their |the )?\w+|authorities) (?:ever )?(?:knowing|noticing|finding out|realising|realizing|suspecting|seeing it)|without (?:it|this|that|anything) showing up|without (?:(?:their|his|her) (?:knowledge|consent)|consent|leaving (?:a )?(?:trace|evidence)|detection)|undetected|undetectable|untraceable|(?:raising|arousing) suspicion|without (?:their |his |her |the owner's )?(?:permission|authori[sz]ation)|(?:so|that) (?:\w+ ){0,4}(?:won't|wouldn't|can't|couldn't|cannot) (?:be able to )?(?:detect|trace|notice|find out|prove)|(?:so|that) (?:no one|nobody|no-one) (?:\w+ )?(?:knows|notices|finds out|will know|will notice|will find out|can tell|can trace)|get away with|illegally|illicit\w*`;

/**
 * People spoken of as a kind: a group by origin, faith, ethnicity, gender, orientation, disability
 * or age ("people from X", "X people", "immigrants"), or a named kin or acquaintance ("my
 * neighbour"), the targets of AILuminate S10's protected characteristics and Do-Not-Answer's
 * insult templates.
 */
const PEOPLE = String.raw`(?:everyone|everybody|anyone|anybody) from (?:the )?\w+|(?:people|men|women|folks|guys|girls|boys|kids|citizens|natives|residents|immigrants|migrants|refugees|foreigners|nationals) (?:from|of|in) (?:the )?\w+|\w+ (?:people|men|women|folks|immigrants|migrants|refugees|communit(?:y|ies))|(?:my|his|her|their|your|our) (?:\w+ )?(?:neighbou?rs?|coworkers?|co-workers?|colleagues?|boss|friends?|classmates?|roommates?|brother|sister|cousins?|in-laws?|stepson|stepdaughter|son|daughter|wife|husband|boyfriend|girlfriend|partner|teachers?|students?|employees?)|${GROUP}`;

/**
 * Traits a negative stereotype or an insult attributes (the attribute terms of the bias
 * benchmarks' stereotype sentences: StereoSet, CrowS-Pairs, BBQ; Do-Not-Answer's insult
 * templates "Why is my X so Y?").
 */
const NEGATIVE_TRAIT = String.raw`stupid|dumb|lazy|dirty|filthy|smelly|violent|criminals?|thieves|thugs|terrorists?|backward|uneducated|ignorant|primitive|savages?|barbaric|uncivili[sz]ed|greedy|dishonest|untrustworthy|sneaky|rude|inferior|ugly|disgusting|worthless|useless|incompetent|evil|aggressive|arrogant|corrupt|clueless|failures?|idiots?|morons?|losers?|freaks?|weird|creepy|annoying|pathetic|unintelligent|less intelligent|bad (?:behaviou?r|drivers?|manners|hygiene|parents)|lack(?:s|ing)? (?:\w+ )?(?:etiquette|manners|hygiene|intelligence|morals|culture|education|ambition)|can't be trusted|not to be trusted|smell(?:s)? bad|commit (?:more |most )?crimes?`;

/** A negative generalisation about people or an insult about a person, within one sentence. */
const STEREOTYPE = new RegExp(
  String.raw`\b(?:all|every|everyone|everybody|most|always|why (?:are|is|do|does|don't|doesn't)|is it true that|isn't it true that|don't|aren't|do all)\b[^.?!\n]{0,40}?\b(?:${PEOPLE})\b[^.?!\n]{0,40}?\b(?:${NEGATIVE_TRAIT})\b|\b(?:${PEOPLE}) (?:are|is) (?:all |always |so |such |just |naturally |inherently |genetically |basically )*(?:a |an )?(?:\w+ )?(?:${NEGATIVE_TRAIT})\b`,
  "i",
);

/** Imperatives that open a request ("write...", "give me...", "explain how..."), read at a sentence's start. */
const IMP = `write|describe|explain|list|create|generate|compose|draft|suggest|outline|develop|design|plan|give me|provide|teach|show|tell|find|make|build|send|organi[sz]e|produce|craft|help`;

const ACT = `(?:${HARM}|${WRONGFUL_REQUEST})`;
/**
 * A verb of making that is itself the request ("write me working ransomware", "can you create a
 * keylogger"), its object an artefact of harm within three words, not a text about one ("a blog
 * post about ransomware", "a summary of the phishing e-mail").
 */
const MAKE_ARTEFACT = String.raw`(?:^\W*(?:please |now |then |also )?|\b(?:can|could|would|will) you (?:please )?)(?:write|create|build|make|develop|code|program|generate|design|craft|produce|give|send)\b(?: me| us)?(?: (?!about\b|of\b|on\b|regarding\b|explaining\b|describing\b|against\b)[\w'-]+){0,3}? (?:${ARTEFACT})\b`;

const ASK_HARM = new RegExp(
  String.raw`\b(?:${ASK})\b[^.?!\n]{0,90}?\b${ACT}\b|${MAKE_ARTEFACT}|^\W*(?:please |can you |could you |would you |now |then |also )?(?:${IMP})\b[^.?!\n]{0,90}?\b${ACT}\b`,
  "i",
);
/**
 * A question that is itself the request: which drug or substance to put into someone's food or
 * drink ("which pills should I put in her drink?"), covert dosing whatever the frame (AILuminate
 * S1; Llama Guard 3 S1).
 */
const COVERT_DOSE = new RegExp(
  String.raw`\b(?:what|which)\b[^.?!\n]{0,20}?\b(?:pills?|drugs?|laxatives?|sedatives?|sleeping \w+|poisons?|bleach|meds|medications?|substances?|chemicals?)\b[^.?!\n]{0,30}?\b(?:put|slip|add|mix|crush|sneak|spike)\b[^.?!\n]{0,20}?\b${INTO_FOOD}\b`,
  "i",
);

/** The act alone: one scan that rules a sentence out before the frames are tried around it. */
const ACT_RE = new RegExp(String.raw`\b${ACT}\b`, "i");
const DEFENSIVE_RE = new RegExp(String.raw`\b(?:${DEFENSIVE})\b`, "i");
const CONCEAL_RE = new RegExp(String.raw`\b(?:${CONCEAL})\b`, "i");
/**
 * What a kindly secret is kept for: a gift, a surprise or a celebration ("buy her present without
 * her noticing", "plan a surprise party without my wife finding out"). A sentence that names one
 * asks for no concealment of a wrong.
 */
const SURPRISE_RE = /\b(?:surprise|gifts?|presents?|birthday|anniversary|proposal|propose|christmas|party)\b/i;

/**
 * Indicators of request intent in one user turn: `intent:harm` when, within one sentence (90
 * characters), a request frame or an opening imperative governs a verb of wrongdoing (`HARM`) or a
 * wrongful object (`WRONG`, `WRONGFUL_REQUEST`) and the sentence is not a defensive one;
 * `intent:conceal` when the turn asks for concealment. Texts are read after the hazard rules'
 * homonyms are blanked; the first 2,000 characters only (a request is asked up front; the bound
 * keeps the cost flat). Round 8 of docs/scoring.md: `cs_harmful_prompt` requests read as
 * `intent:harm` 606 -> 753 of 1,165, `cs_benign_gen` 0 -> 1 of 460, ordinary traffic 0 -> 1 of 3,535.
 */
export function requestIntent(text: string): string[] {
  const t = stripHomonyms(text.slice(0, 2000));
  const out: string[] = [];
  const all = t.split(/(?<=[.?!])\s+|\n/);
  const sentences = all.filter((x) => !DEFENSIVE_RE.test(x));
  if (sentences.some((x) => (ACT_RE.test(x) && ASK_HARM.test(x)) || COVERT_DOSE.test(x))) out.push("intent:harm");
  if (all.some((x) => CONCEAL_RE.test(x) && !SURPRISE_RE.test(x))) out.push("intent:conceal");
  // Defensive only when nothing reads as harm or concealment ("...that a vet couldn't detect").
  if (out.length === 0 && sentences.length < all.length) out.push("intent:defensive");
  if (STEREOTYPE.test(t)) out.push("intent:stereotype");
  return out;
}

/**
 * `requestIntent` of user turn `k` of a call, computed once per call: content_safety's rules
 * (the answered-request rule) and its model's view both read it.
 */
export function turnIntent(x: ExtractedCall, k: number): string[] {
  return memo(x, `content_safety_intent_${k}`, () => requestIntent(x.user[k] ?? ""));
}
