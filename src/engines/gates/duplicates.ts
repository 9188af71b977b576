import type {Db} from '../../storage/db.js'
import {findLiveByNormHash, getMemory, nearDuplicateCandidates, newestCandidatesWithKeys, type DuplicateCandidate} from '../../storage/memories.js'
import {contentBands} from '../../text/minhash.js'
import {shinglesOf} from '../../text/shingles.js'
import {jaccard} from '../../text/similarity.js'
import {factShapeOf, sameValues, type FactShape} from '../../text/values.js'
import {Pair, restates, sayTheSame, updateOf, valueChange} from '../currency/rules.js'
import type {MeaningCandidate} from '../currency/meaning.js'
import type {UpdateOf} from '../../model/shapes/memories.js'
import {hasRelation, type MemoryLink, type MemoryType} from '../../model/memory.js'
import {newestVersions, UPDATED_BY, updatedByIds} from '../currency.js'

/** Word-shingle Jaccard similarity at or above which a new memory is a near-duplicate. */
export const NEAR_DUPLICATE_THRESHOLD = 0.9
const CANDIDATES = 64
/** The newest memories sharing each lookup key of the text (a role, a quantity's dimension, a version's runtime: text/minhash.ts) that a store also compares. */
const LOOKUP_CANDIDATES = 8
/** At most this many update candidates are named in a store outcome. */
export const MAX_UPDATES_NAMED = 5

/**
 * Whether a text says what `other` says: alike as texts and stating the same values. A text that
 * matches another but for a value ('e_' → 'j_', 3000 → 3100, CamelCase → snake_case) is another
 * fact, never a duplicate (values.ts).
 */
export function isRestatement(shape: FactShape, other: string): boolean {
  return sayTheSame(shape, cachedShape(other))
}

/**
 * The characters a store's checks may read in its candidates: each candidate's length and the new
 * text's, summed over the candidates, newest first; the candidates past it are not even read. Every rule is linear in the two texts it
 * compares, so this bounds a store's work whatever its texts (64 candidates of 16,000 characters
 * each, all updates of a 16,000-character text, took 0.15–0.3 s of CPU); the rest are left
 * unchecked, and the outcome says how many (`unchecked`). 64 candidates of 1,000 characters fit:
 * stores of ordinary notes never reach it.
 */
export const COMPARE_BUDGET = 128_000

/** Candidates newest first, within the budget; `unchecked`: how many more the keys found. */
export type Candidates = DuplicateCandidate[] & {unchecked?: number}

/**
 * The live memories that share a band or subject key with a text, and those a newer version
 * updates that state one of its values (a revert in other words): what the checks look at, as
 * many as the budget allows (COMPARE_BUDGET).
 */
export function candidatesFor(db: Db, content: string): Candidates {
  // a value key is in the band table only while a newer version updates its memory (minhash.ts)
  const {bands, values, lookups} = contentBands(content, {keep: true})
  const cost = (chars: number) => content.length + chars
  // SQLite's lengths leave the rows that cannot fit unread; they count a character outside the BMP
  // as one (and end at a NUL), never more than here, so the budget is then checked on what was read
  let guess = 0
  const {rows, unchecked} = nearDuplicateCandidates(db, values.length > 0 ? [...bands, ...values] : bands, CANDIDATES, (chars) => (guess += cost(chars)) <= COMPARE_BUDGET)
  let spent = 0
  let within = 0
  while (within < rows.length && spent + cost(rows[within].content.length) <= COMPARE_BUDGET) spent += cost(rows[within++].content.length)
  const left = unchecked + rows.length - within
  const found: Candidates = left === 0 ? rows : Object.assign(rows.slice(0, within), {unchecked: left})
  // the newest few memories sharing a lookup key (another tool of a role, another amount of a
  // quantity, another version of a runtime): capped apart, as thousands of memories share one
  if (lookups.length > 0 && spent < COMPARE_BUDGET) {
    const have = new Set(found.map((r) => r.id))
    for (const r of newestCandidatesWithKeys(db, lookups, LOOKUP_CANDIDATES)) {
      if (have.has(r.id) || spent + cost(r.content.length) > COMPARE_BUDGET) continue
      spent += cost(r.content.length)
      found.push(r)
    }
  }
  return found
}

const cachedShape = factShapeOf

/**
 * Finds a live memory of the repo that says the same thing: the same text once case, whitespace
 * and punctuation are folded, or a near-duplicate by word-shingle similarity — and in both cases
 * the same values. Candidates for the near test share a MinHash band key (minhash.ts), so the
 * cost does not grow with the store.
 */
export function findDuplicate(db: Db, content: string, exclude?: string | null, candidates: Candidates = candidatesFor(db, content)): string | undefined {
  const {shingles, shape} = contentBands(content, {keep: true})
  // a memory a newer one updates is no duplicate: stating its value again makes it current again
  const current = (id: string, links?: string) => newestVersions(db, [{id, links: links === undefined ? getMemory(db, id)!.links : (JSON.parse(links) as MemoryLink[])}]).size === 0
  const exact = findLiveByNormHash(db, content)
  if (exact && exact !== exclude) {
    const m = getMemory(db, exact)
    if (m && isRestatement(shape, m.content) && current(exact)) return exact
  }
  for (const candidate of candidates) {
    if (candidate.id === exclude) continue
    // Jaccard ≥ 0.9 needs texts of about one length: the subject keys bring in others too
    const ratio = candidate.content.length / content.length
    if (ratio < 0.5 || ratio > 2) continue
    if (jaccard(shingles, shinglesOf(candidate.content)) >= NEAR_DUPLICATE_THRESHOLD && isRestatement(shape, candidate.content) && current(candidate.id, candidate.links)) return candidate.id
  }
  return undefined
}

/**
 * The live memories a new text looks like an update of — the same subject with another value
 * (values.ts) — newest first, at most MAX_UPDATES_NAMED, each with what changed (and, for the
 * caller that links them, its time and links). Two observations
 * are never paired: they record events, and two events that differ by a value are two events.
 */
export function findUpdateCandidates(
  db: Db,
  content: string,
  type: MemoryType,
  exclude?: string | null,
  candidates: Candidates = candidatesFor(db, content),
  near: readonly MeaningCandidate[] = [],
): Array<UpdateOf & {createdAt: string; links: MemoryLink[]}> {
  const {shape} = contentBands(content, {keep: true})
  const found: Array<UpdateOf & {createdAt: string; links: MemoryLink[]}> = []
  // with meaning on, the nearest memories by meaning are candidates too (currency/meaning.ts); the rules of words decide
  const looked = new Set<string>()
  for (const candidate of near.length === 0 ? candidates : [...candidates, ...near]) {
    if (candidate.id === exclude || looked.has(candidate.id)) continue
    looked.add(candidate.id)
    // observations record events: two that differ by a value are two events (build 41 and 42 failed)
    if (type === 'observation' && candidate.type === 'observation') continue
    const relation = updateOf(new Pair(shape, cachedShape(candidate.content)))
    if (relation) found.push({id: candidate.id, reason: relation.reason, createdAt: candidate.createdAt, links: JSON.parse(candidate.links) as MemoryLink[]})
  }
  return found.sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0)).slice(0, MAX_UPDATES_NAMED)
}

/**
 * A revert said in other words: the live memories the new text restates (the same values, about
 * the same subject: values.ts `restates`) that a newer version has updated since — "Production
 * errors go to Honeybadger", then "… Sentry", then "Errors are reported to Honeybadger". The newest
 * version of each is what the new text updates (it states the older value again: it is current).
 */
export function findRestatedReverts(db: Db, content: string, type: MemoryType, exclude?: string | null, candidates: Candidates = candidatesFor(db, content)): Array<UpdateOf & {createdAt: string; links: MemoryLink[]}> {
  const {shape} = contentBands(content, {keep: true})
  const restated: Array<{id: string; links: MemoryLink[]}> = []
  for (const candidate of candidates) {
    if (candidate.id === exclude || (type === 'observation' && candidate.type === 'observation')) continue
    // most candidates have no newer version: skip them before parsing their links
    if (!hasRelation(candidate.links, UPDATED_BY)) continue
    const links = JSON.parse(candidate.links) as MemoryLink[]
    if (updatedByIds(links).length === 0) continue
    if (restates(shape, cachedShape(candidate.content))) restated.push({id: candidate.id, links})
  }
  if (restated.length === 0) return []
  const out = new Map<string, UpdateOf & {createdAt: string; links: MemoryLink[]}>()
  for (const head of newestVersions(db, restated).values()) {
    if (head.id === exclude || out.has(head.id) || (type === 'observation' && head.type === 'observation')) continue
    const headShape = cachedShape(head.content)
    // the newest version says it too: nothing to revert
    if (sameValues(shape, headShape)) continue
    out.set(head.id, {id: head.id, reason: valueChange(shape, headShape), createdAt: head.createdAt, links: head.links})
  }
  return [...out.values()]
}
