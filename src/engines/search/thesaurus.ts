import {rolesNamedBy, rolesNamedByPhrase, toolsIn} from '../../text/roles.js'
import {analyze} from '../../text/tokenize.js'
import {PHRASE_PROBES, STEMMED_GROUPS} from './thesaurus-stems.js'

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
  // "feature flags" probes featur + flag: it stands for the group's feature-flags
  for (const [probe, joined] of PHRASE_PROBES) {
    const of = map.get(joined)
    if (of && !map.has(probe)) map.set(probe, new Set([joined, ...of]))
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

/**
 * The tools of the roles the query's words name by what they do (text/roles.ts rolesNamedBy:
 * "install dependencies" → npm, pnpm, yarn, bun, pip, poetry, …), as index terms, each with the
 * number of tools its source word expands to and that source (the word's term). A tool is sought
 * as the index keeps a one-word name (its stem: "Railway" → railwai) and a name joined from parts
 * ("Fly.io", "pg-boss", "styled-components" → flyio, pgboss, styledcomponents); a name of two words
 * (GitHub Actions) is not sought. A role the query names a tool of is not widened: "pnpm monorepo
 * install" asks about pnpm, not about every note that runs an npm script.
 */
export function roleExpansionsBySource(q: string, terms: string[]): Map<string, {n: number; source: string}> {
  const out = new Map<string, {n: number; source: string}>()
  for (const {source, tools} of roleToolsByWord(q, terms)) {
    for (const tool of tools) {
      for (const t of indexTermsOfTool(tool)) if (tools.size < (out.get(t)?.n ?? Number.POSITIVE_INFINITY)) out.set(t, {n: tools.size, source})
    }
  }
  return out
}

/**
 * The query's terms a memory holds, as words or through a tool of a role the word names ("Use
 * pnpm" holds "install" and "dependencies" of "how do I install dependencies"), given the terms of
 * the memory's text.
 */
export function termsHeld(q: string, terms: string[], held: ReadonlySet<string>): string[] {
  const through = new Set<string>()
  for (const {source, tools} of roleToolsByWord(q, terms)) {
    if (through.has(source) || held.has(source)) continue
    for (const tool of tools) if (indexTermsOfTool(tool).some((t) => held.has(t))) through.add(source)
  }
  return terms.filter((t) => held.has(t) || through.has(t))
}

/** The last question's reading: a recall reads it twice (its expansions, then the words' gate). */
let lastRead: {q: string; terms: string; out: Array<{source: string; tools: Set<string>}>} | undefined

/** For each word of the query whose term is one of `terms`, the tools of the roles it names (those the query names a tool of left out). */
function roleToolsByWord(q: string, terms: string[]): Array<{source: string; tools: Set<string>}> {
  const key = terms.join(' ')
  if (lastRead?.q === q && lastRead.terms === key) return lastRead.out
  const out = readRoleTools(q, terms)
  lastRead = {q, terms: key, out}
  return out
}

function readRoleTools(q: string, terms: string[]): Array<{source: string; tools: Set<string>}> {
  const have = new Set(terms)
  const named = toolsIn(q.split(/\s+/).map((w) => w.replace(/^\W+|(?<!\W)\W+$/g, '')).filter((w) => w.length > 0))
  const out: Array<{source: string; tools: Set<string>}> = []
  const words = q.split(/[^A-Za-z]+/)
  for (const [i, word] of words.entries()) {
    if (word.length < 3) continue
    const source = analyze(word)[0]
    if (source === undefined || !have.has(source)) continue
    const tools = new Set<string>()
    // the roles the word names, and those it names with the next word ("package manager")
    for (const {role, tools: ofRole} of [...rolesNamedBy(word), ...rolesNamedByPhrase(word, words[i + 1])]) {
      for (const tool of named.has(role) ? [] : ofRole) if (!indexTermsOfTool(tool).some((t) => have.has(t))) tools.add(tool)
    }
    if (tools.size > 0) out.push({source, tools})
  }
  return out
}

const termsOfTool = new Map<string, readonly string[]>()

/** The index terms a memory naming a tool holds for it: its stem, and its key as a joined name keeps it. */
function indexTermsOfTool(tool: string): readonly string[] {
  let terms = termsOfTool.get(tool)
  if (!terms) {
    const stems = analyze(tool)
    termsOfTool.set(tool, (terms = stems.length === 1 && stems[0] !== tool ? [stems[0], tool] : [tool]))
  }
  return terms
}
