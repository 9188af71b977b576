import {STEMMED_GROUPS} from './thesaurus-stems.js'

/**
 * A developer thesaurus: groups of words that name the same thing in software projects (written
 * in thesaurus-groups.ts; stemmed ahead of time into thesaurus-stems.ts, as stemming ~600 words
 * cost every cold recall ~5 ms). Each word expands to the others of its groups at a reduced weight.
 */
const MULTI_WORD = /[\s]/

let expansions: Map<string, Set<string>> | undefined

/** stemmed term → stemmed terms of the same group(s), built on first use from the stemmed groups */
function expansionMap(): Map<string, Set<string>> {
  if (expansions) return expansions
  const map = new Map<string, Set<string>>()
  for (const terms of STEMMED_GROUPS) {
    for (const t of terms) {
      let set = map.get(t)
      if (!set) map.set(t, (set = new Set()))
      for (const u of terms) if (u !== t) set.add(u)
    }
  }
  return (expansions = map)
}

/** Synonyms of the query's terms (and of its consecutive term pairs), excluding the terms themselves. */
export function thesaurusExpansions(terms: string[]): string[] {
  const out = new Set<string>()
  const have = new Set(terms)
  const probes = [...terms]
  for (let i = 0; i + 1 < terms.length; i++) probes.push(terms[i] + terms[i + 1])
  for (const t of probes) for (const s of expansionMap().get(t) ?? []) if (!have.has(s) && !MULTI_WORD.test(s)) out.add(s)
  return [...out]
}

/**
 * The synonyms of the query's terms, each with the number of synonyms its source term (or pair)
 * expands to (a term with many synonyms spreads its weight over them) and that source: the query
 * term, or the pair joined, whose synonyms have the fewest siblings.
 */
export function thesaurusExpansionsBySource(terms: string[]): Map<string, {n: number; source: string}> {
  const out = new Map<string, {n: number; source: string}>()
  const have = new Set(terms)
  const probes = [...terms]
  for (let i = 0; i + 1 < terms.length; i++) probes.push(terms[i] + terms[i + 1])
  for (const t of probes) {
    const syns = [...(expansionMap().get(t) ?? [])].filter((s) => !have.has(s) && !MULTI_WORD.test(s))
    for (const s of syns) if (syns.length < (out.get(s)?.n ?? Number.POSITIVE_INFINITY)) out.set(s, {n: syns.length, source: t})
  }
  return out
}
