import {analyze} from '../../text/tokenize.js'

export const MAX_QUERY_TERMS = 48

/**
 * Turns an agent's question into distinct index terms: analyzed like documents, stop words
 * dropped (kept when a query is made of nothing else), capped so a pasted page stays cheap.
 */
export function queryTerms(q: string): string[] {
  let terms = analyze(q)
  if (terms.length === 0) terms = analyze(q, {keepStopWords: true})
  const seen = new Set<string>()
  const out: string[] = []
  for (const t of terms) {
    if (seen.has(t)) continue
    seen.add(t)
    out.push(t)
    if (out.length >= MAX_QUERY_TERMS) break
  }
  return out
}
