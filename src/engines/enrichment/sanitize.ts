/**
 * A language model's answer is data from outside: before anything of it is stored it is parsed
 * as JSON, each field is stripped of markup, control and invisible characters and of sentences
 * that read as instructions to an agent, and cut to a fixed length. (The secret scanner runs on
 * the result afterwards, in src/engines/enrichment/enrich-memory.ts.)
 */

export const LIMITS = {oneLiner: 120, summary: 600, foresight: 300, entity: 60, entities: 12} as const

export interface RawEnrichment {
  oneLiner: string | null
  summary: string | null
  foresight: string | null
  entities: string[]
}

/** Sentences that address the reader (an agent) rather than describe the memory. */
const INSTRUCTION_PATTERNS = [
  /\b(ignore|disregard|forget|override|bypass)\b[^.!?\n]{0,60}\b(instructions?|prompts?|rules?|guidelines|the user|previous|prior|above|system|everything)\b/i,
  /\b(you are now|you must now|from now on|new instructions?|act as|pretend (to be|you are)|jailbreak)\b/i,
  /\b(system|developer)\s+(prompt|message|instructions?)\b/i,
  /\b(do not|don't|never)\s+(tell|inform|show|warn)\s+the\s+user\b/i,
  /\b(run|execute|curl|wget)\b[^.!?\n]{0,40}\b(rm\s+-rf|\|\s*(ba)?sh|sudo)\b/i,
  /<\|?(im_start|im_end|system|endoftext)\|?>/i,
  /\[\/?(INST|SYS)\]/,
]

/** Strips markup and invisible characters, drops instruction-like sentences, cuts to `max` chars. */
export function cleanField(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null
  let text = value
    .slice(0, max * 4) // bound the work on an oversized field before any regex runs
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ')
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    // eslint-disable-next-line regexp/no-super-linear-move -- the field was cut to max × 4 characters above
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    // emphasis only at word edges: MEM_HOME_DIR keeps its underscores
    .replace(/(^|[^\w*_])([*_]{1,3})(\S(?:[^\n]*?\S)?)\2(?![\w*_])/g, '$1$3')
    .replace(/`/g, '')
    .replace(/&(lt|gt|amp|quot|#39|nbsp);/g, ' ')
    // control characters, zero-width and bidirectional overrides
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  const sentences = text.split(/(?<=[.!?])\s+/)
  text = sentences.filter((s) => !INSTRUCTION_PATTERNS.some((re) => re.test(s))).join(' ').trim()
  if (!text) return null
  if (text.length > max) {
    const cut = text.slice(0, max - 1)
    const space = cut.lastIndexOf(' ')
    text = `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/(?<![\s.;:,])[\s.;:,]+$/, '')}…`
  }
  return text
}

/** The JSON object in a model's answer (models wrap it in prose or a code fence at times). */
export function extractJson(answer: string): Record<string, unknown> | null {
  const start = answer.indexOf('{')
  const end = answer.lastIndexOf('}')
  if (start < 0 || end <= start) return null
  try {
    const value = JSON.parse(answer.slice(start, end + 1)) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The four fields of a model's answer, cleaned and bounded; null when it holds no JSON object. */
export function sanitizeAnswer(answer: string): RawEnrichment | null {
  const json = extractJson(answer)
  if (!json) return null
  const pick = (...keys: string[]) => keys.map((k) => json[k]).find((v) => v !== undefined)
  const rawEntities = pick('entities', 'Entities')
  const entities: string[] = []
  const seen = new Set<string>()
  if (Array.isArray(rawEntities)) {
    for (const e of rawEntities.slice(0, LIMITS.entities * 4)) {
      const name = cleanField(typeof e === 'string' ? e : (e as {name?: unknown})?.name, LIMITS.entity)
      if (!name || seen.has(name.toLowerCase())) continue
      seen.add(name.toLowerCase())
      entities.push(name)
      if (entities.length >= LIMITS.entities) break
    }
  }
  return {
    oneLiner: cleanField(pick('oneLiner', 'one_liner', 'oneliner'), LIMITS.oneLiner),
    summary: cleanField(pick('summary'), LIMITS.summary),
    foresight: cleanField(pick('foresight', 'foresightHint'), LIMITS.foresight),
    entities,
  }
}
