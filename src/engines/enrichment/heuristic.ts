/**
 * The deterministic one-liner written at store time (and whenever no language-model runtime is
 * configured): the first sentence, markup stripped, cut at a word boundary.
 */
import {stripEmphasis, stripLinks} from '../../text/markup.js'

export const ONE_LINER_MAX = 100

/**
 * A text without its markdown: code blocks, heading and list marks, emphasis only at word edges
 * (STRIPE_WEBHOOK_SECRET and ACME_CHECKOUT_ keep their underscores), links as their text; spaces
 * folded. Emphasis and links are taken out by scanners linear in the text (text/markup.ts): the
 * regexes they replace retried to the line's end at every unclosed mark.
 */
function withoutMarkup(content: string): string {
  const blocks = content.replace(/```[\s\S]*?```/g, ' ').replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
  return stripLinks(stripEmphasis(blocks)).replace(/\s+/g, ' ').trim()
}

export function heuristicOneLiner(content: string): string {
  const plain = withoutMarkup(content)
  const text = plain || content.replace(/\s+/g, ' ').trim()
  // First sentence: a period/!/? followed by a space and a capital, or a line break in the original.
  const firstLine = text.split(/(?<=[.!?])\s+(?=[A-Z`"'(])/)[0]
  const sentence = firstLine.length >= 20 || firstLine === text ? firstLine : text
  if (sentence.length <= ONE_LINER_MAX) return sentence.replace(/[.;:,]$/, '')
  const cut = sentence.slice(0, ONE_LINER_MAX - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > ONE_LINER_MAX * 0.6 ? cut.slice(0, space) : cut).replace(/(?<![\s.;:,])[\s.;:,]+$/, '')}…`
}

const SUMMARY_MAX = 400
const FORESIGHT_MAX = 200
const ENTITIES_MAX = 12

/** The content without markup; only its first 4,000 characters (summary and foresight read the start). */
function plainText(content: string): string {
  return withoutMarkup(content.slice(0, 4_000))
}

function clipWords(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/(?<![\s.;:,])[\s.;:,]+$/, '')}…`
}

/** The first sentences of the content (markup stripped), up to 400 characters. */
export function heuristicSummary(content: string): string {
  const sentences = plainText(content).split(/(?<=[.!?])\s+(?=[A-Z`"'(])/)
  let out = ''
  for (const s of sentences) {
    if (out && out.length + 1 + s.length > SUMMARY_MAX) break
    out = out ? `${out} ${s}` : s
    if (out.length >= SUMMARY_MAX / 2) break
  }
  return clipWords(out, SUMMARY_MAX)
}

/**
 * When the memory will matter next: the clause that states its condition ("before …", "when …",
 * "if …", "after …"), else the situations its tags name; null when neither says.
 */
export function heuristicForesight(content: string, tags: string[] = []): string | null {
  const text = plainText(content)
  const clause = /\b(before|when|whenever|if|after|while|during)\s+([^.;!?]{6,120})/i.exec(text)
  if (clause) return clipWords(`Matters ${clause[1].toLowerCase()} ${clause[2].trim()}.`, FORESIGHT_MAX)
  if (tags.length > 0) return clipWords(`Matters when working on ${tags.slice(0, 4).join(', ')}.`, FORESIGHT_MAX)
  return null
}

/**
 * Names in the content: code spans, file paths, npm/yarn/pnpm scripts, environment variables and
 * CamelCase identifiers, in order of appearance, at most 12.
 */
export function heuristicEntities(content: string): string[] {
  const found: Array<{at: number; name: string}> = []
  const add = (re: RegExp, group = 0) => {
    for (const m of content.matchAll(re)) {
      const name = m[group].trim()
      if (name.length >= 2 && name.length <= 60) found.push({at: m.index ?? 0, name})
    }
  }
  add(/`([^`\n]{2,60})`/g, 1)
  add(/(?:^|[\s(])((?:\.{0,2}\/)?[\w@-]+(?:\/[\w.@-]+)*\.(?:ts|tsx|js|mjs|cjs|json|md|ya?ml|toml|py|go|rs|sh|sql|css|html|lock))\b/g, 1)
  add(/(?:^|[\s(])((?:\.{0,2}\/)?[\w@.-]+\/[\w.@/-]*[\w@-])/g, 1)
  add(/\b(?:npm run|yarn|pnpm)\s+[\w:-]+/g)
  add(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g)
  add(/\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b/g)
  const seen = new Set<string>()
  const out: string[] = []
  for (const {name} of found.sort((a, b) => a.at - b.at)) {
    const key = name.toLowerCase()
    if (seen.has(key)) continue
    seen.add(key)
    out.push(name)
    if (out.length >= ENTITIES_MAX) break
  }
  return out
}
