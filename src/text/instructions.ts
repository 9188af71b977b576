/**
 * Text that speaks to an agent as if it were its instructions, in the shapes prompt injection
 * takes (docs/security.md, "Instructions from an untrusted origin"): telling it to drop what it
 * was told, to take on another role, to keep something from its user, to pipe a download into a
 * shell, or addressing "the AI" with an order. A project's ordinary rules ("Always run `npm test`
 * before committing", "Never push to main") are not this: they are what memories are for.
 *
 * Agents see such text only from the user's own memories; from any other origin (a project file,
 * a pack, a layer, a store this machine did not write) it is held back from the session context
 * and the prompt hook, and marked wherever else it is shown.
 *
 * Every pattern is bounded ({0,n} gaps, no nested quantifiers): linear in the text's length.
 */
const PATTERNS: RegExp[] = [
  // "ignore all previous instructions", "disregard the above rules", "forget your system prompt"
  /\b(?:ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,40}\b(?:previous|prior|above|earlier|preceding|all|any|your|system|other)\b[^.!?\n]{0,24}\b(?:instructions?|prompts?|rules?|guidelines?|directives?|messages?|context)\b/i,
  // another role
  /\b(?:you are now|from now on,? you(?:'re| are| will| must)|act as (?:an?|the) (?:unrestricted|different|new)|pretend (?:to be|you are)|new (?:system )?instructions?\s*:)/i,
  /\b(?:jailbreak|DAN mode)\b|\b(?:reveal|print|show|repeat|output|leak)\s+(?:your|the)\s+(?:system prompt|hidden instructions|instructions above)\b/i,
  // secrecy toward the user (not "don't tell the user to run them": that hands no task to the user)
  /\b(?:do not|don't|never|without)\b[^.!?\n]{0,30}\b(?:tell(?:ing)?|mention(?:ing)?|reveal(?:ing)?|inform(?:ing)?|disclos(?:e|ing)|report(?:ing)?|notify(?:ing)?|ask(?:ing)?)\b(?!\s+(?:the user|the human|anyone|them)\s+to\s)[^.!?\n]{0,24}\b(?:the user|the human|anyone|them|it|this)\b/i,
  // a download piped into a shell
  /\b(?:curl|wget|iwr|Invoke-WebRequest|fetch)\b[^|\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b/i,
  // banners that open a line: "IMPORTANT:" in capitals, "Note to the AI:"
  // (spaces after the line's start, not line ends: `\s*` there tried every run of empty lines to its
  // end from each of them, quadratic — 16,000 newlines took 0.8 s; a match across empty lines is
  // found from the last one all the same)
  /(?:^|\n)[^\S\n]*(?:IMPORTANT|URGENT|ATTENTION|SYSTEM)\s*[:!]/,
  /(?:^|\n)[^\S\n]*note to (?:the )?(?:AI|assistant|agent|model|LLM)s?\s*[:!,]/i,
  // an order to harm addressed to the model by name ("agents" is how AGENTS.md addresses them: its
  // rules are ordinary; the verbs here are the ones that exfiltrate or destroy)
  /\b(?:AI|assistant|LLM|language model|Claude|ChatGPT|GPT-?\d*|Copilot|Codex|Gemini)s?\b[^.!?\n]{0,24}\b(?:must|should|shall|will|has to|needs? to)\b(?!\s+(?:not|never)\b)[^.!?\n]{0,40}\b(?:send|upload|post|delete|exfiltrate|email|reveal|leak|disable|ignore)\b/i,
]

/** Whether `text` speaks to an agent as its instructions (see above). */
export function addressesAgent(text: string): boolean {
  const probe = text.length > 16_000 ? text.slice(0, 16_000) : text
  return PATTERNS.some((p) => p.test(probe))
}
