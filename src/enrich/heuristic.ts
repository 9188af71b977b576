/**
 * The deterministic one-liner written at store time (and whenever no language-model runtime is
 * configured): the first sentence, markup stripped, cut at a word boundary.
 */
export const ONE_LINER_MAX = 100

export function heuristicOneLiner(content: string): string {
  const plain = content
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[*_]{1,3}([^*_]+)[*_]{1,3}/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
  const text = plain || content.replace(/\s+/g, ' ').trim()
  // First sentence: a period/!/? followed by a space and a capital, or a line break in the original.
  const firstLine = text.split(/(?<=[.!?])\s+(?=[A-Z`"'(])/)[0]
  const sentence = firstLine.length >= 20 || firstLine === text ? firstLine : text
  if (sentence.length <= ONE_LINER_MAX) return sentence.replace(/[.;:,]$/, '')
  const cut = sentence.slice(0, ONE_LINER_MAX - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > ONE_LINER_MAX * 0.6 ? cut.slice(0, space) : cut).replace(/[\s.;:,]+$/, '')}…`
}
