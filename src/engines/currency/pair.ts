/**
 * What the currency rules read of a pair of texts (rules.ts): where a value stands in a text, the
 * word that names it, its clause, the words each text has of its own and where they stand, the
 * slot in which two sentences differ. Pure functions over FactShapes (text/values.ts), linear in
 * the texts' lengths. See docs/currency.md.
 */
import {STOP_WORDS} from '../../text/stopwords.js'
import {NEGATIONS} from '../../text/tokenize.js'
import {INSTRUCTION_WORDS, isHard, kindOf, stem, valuesOnly, type FactShape} from '../../text/values.js'

/**
 * What a pair of texts is compared on, each part read when a rule or guard first asks for it (most
 * pairs a store or maintenance looks at are out after a part or two).
 */
export class Pair {
  #a?: Set<string>
  #b?: Set<string>
  #shared?: number
  #gained?: string[]
  #lost?: string[]
  #sharedValues?: number
  constructor(
    readonly newer: FactShape,
    readonly older: FactShape,
  ) {}
  /** The words the newer is compared on against the older: its core words and its soft values the older has too. */
  get a(): Set<string> {
    return (this.#a ??= subjectOf(this.newer, this.older))
  }
  /** The older's, against the newer. */
  get b(): Set<string> {
    return (this.#b ??= subjectOf(this.older, this.newer))
  }
  /** How many words both have. */
  get shared(): number {
    return (this.#shared ??= sharedCount(this.a, this.b))
  }
  /** How many words either has. */
  get union(): number {
    return this.a.size + this.b.size - this.shared
  }
  /** The values the newer states and the older does not. */
  get gained(): string[] {
    return (this.#gained ??= valuesOnly(this.newer, this.older))
  }
  /** The values the older states and the newer does not. */
  get lost(): string[] {
    return (this.#lost ??= valuesOnly(this.older, this.newer))
  }
  /** Values of the newer the older states too (a soft value counted among the subject words aside). */
  get sharedValues(): number {
    if (this.#sharedValues === undefined) {
      const gained = new Set(this.gained)
      this.#sharedValues = this.newer.values.filter((v) => !gained.has(v) && !(v.startsWith('s:') && this.a.has(stem(v.slice(2))))).length
    }
    return this.#sharedValues
  }
  /** The hard values (not soft) of each text. */
  get hardGained(): string[] {
    return this.gained.filter(isHard)
  }
  get hardLost(): string[] {
    return this.lost.filter(isHard)
  }
}
/**
 * What the rules look words up in, for long texts: sets of a shape's word lists and where each
 * word (lowercased) first stands in its sequence, made once per shape when first needed. Looking
 * words up in the lists themselves made comparing two long texts quadratic; for short lists (most
 * texts) that is quicker than making a set, and stays.
 */
interface Lookups {
  words?: ReadonlySet<string>
  core?: ReadonlySet<string>
  soft?: ReadonlySet<string>
  firstAt?: ReadonlyMap<string, number>
}
const LOOKUPS = new WeakMap<FactShape, Lookups>()
export const SHORT_LIST = 16
function lookupsOf(shape: FactShape): Lookups {
  let l = LOOKUPS.get(shape)
  if (l === undefined) LOOKUPS.set(shape, (l = {}))
  return l
}
/** Whether `w` is among a shape's subject words, core words or soft values. */
export function listHas(shape: FactShape, list: 'words' | 'core' | 'soft', w: string): boolean {
  const items = shape[list]
  if (items.length <= SHORT_LIST) return items.includes(w)
  const l = lookupsOf(shape)
  return (l[list] ??= new Set(items)).has(w)
}
/** Where a value's first word stands in a text's sequence (-1 when it is not there as a word). */
export function valueAt(shape: FactShape, key: string): number {
  const first = key.slice(2).toLowerCase().split(/\s+/)[0]
  if (shape.sequence.length <= SHORT_LIST) return shape.sequence.findIndex((w) => w.toLowerCase() === first)
  const l = lookupsOf(shape)
  if (l.firstAt === undefined) {
    const firstAt = new Map<string, number>()
    shape.sequence.forEach((w, i) => {
      const lower = w.toLowerCase()
      if (!firstAt.has(lower)) firstAt.set(lower, i)
    })
    l.firstAt = firstAt
  }
  return l.firstAt.get(first) ?? -1
}

/** Where `thing` (one or more words) stands in `clause`, word for word: its first index, or -1. */
export function placeIn(clause: readonly string[], thing: string, from = 0): number {
  const parts = thing.split(/\s+/)
  for (let i = from; i < clause.length; i++) if (parts.every((p, j) => clause[i + j] === p)) return i
  return -1
}

/** Words skipped before a name (headOf), and the words of means that make the name what is used. */
export const ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an', 'our', 'its', 'their', 'this', 'that'])
const INSTRUMENTS = new Set(['with', 'via', 'through', 'using', 'by'])

/**
 * The subject word right after a value in a text, when the value names it ("Python packages",
 * "The Redis container"): a word of the text's subject, not a value itself ("the Stripe SDK"),
 * and the value does not come after a word of instruction or of means (with, via, through, using,
 * by), which make the phrase what is used ("Use the Jest runner for unit tests", "Deploy with the
 * Fly CLI").
 */
export function headOf(shape: FactShape, key: string): string | null {
  // a handle says who ("the @billing team"): it never names the word after it
  if (key.startsWith('i:@')) return null
  const at = valueAt(shape, key)
  if (at < 0) return null
  const next = shape.sequence[at + key.slice(2).split(/\s+/).length]?.toLowerCase()
  if (next === undefined || !/^\p{L}+$/u.test(next) || STOP_WORDS.has(next) || !(listHas(shape, 'words', stem(next)) || listHas(shape, 'soft', stem(next)))) return null
  // (`at` is where a word first stands: a run of articles is walked back once per word)
  let before = at - 1
  while (before >= 0 && ARTICLES.has(shape.sequence[before].toLowerCase())) before--
  const w = before >= 0 ? shape.sequence[before].toLowerCase() : null
  return w !== null && (INSTRUCTION_WORDS.has(stem(w)) || INSTRUMENTS.has(w)) ? null : next
}

/**
 * Whether a name changed where a word of the subject stands — right before the same word in both
 * texts (headOf) — while each text states another value: the name says what the sentence is
 * about, the other value what it states ("Install Python packages with uv" / "Install JavaScript
 * packages with uv", "The Redis container listens on port 6379" / "The Postgres container …
 * 5432"). A name that is the sentence's only value is what it states: "Use the Jest runner" →
 * "Use the Vitest runner" is an update; so is a handle, which heads nothing ("the @billing team" →
 * "the @payments team").
 */
export function modifierChanged(newer: FactShape, gained: readonly string[], older: FactShape, lost: readonly string[]): boolean {
  const another = (shape: FactShape, key: string, head: string) => shape.values.some((v) => v !== key && v.slice(2).toLowerCase() !== head)
  // the heads of the older text's names, each read once (not once per name of the newer)
  let heads: Set<string> | undefined
  for (const g of gained) {
    if (kindOf(g) !== 'name') continue
    const head = headOf(newer, g)
    if (head === null || !another(newer, g, head)) continue
    if (heads === undefined) {
      heads = new Set()
      for (const l of lost) {
        if (kindOf(l) !== 'name') continue
        const h = headOf(older, l)
        if (h !== null && another(older, l, h)) heads.add(h)
      }
    }
    if (heads.has(head)) return true
  }
  return false
}

/** How many words the clause of a value has (0 when the value is not found as a word). */
export function clauseOf(shape: FactShape, key: string): number {
  const at = valueAt(shape, key)
  if (at < 0) return 0
  let start = 0
  let end = shape.sequence.length
  for (const b of shape.breaks) {
    if (b <= at) start = b
    else {
      end = b
      break
    }
  }
  return end - start
}

/** The word right before a value in a text (stemmed), when it is neither a stop word nor a word of instruction. */
export function labelOf(shape: FactShape, key: string): string | null {
  const at = valueAt(shape, key)
  if (at <= 0) return null
  const w = shape.sequence[at - 1].toLowerCase()
  if (STOP_WORDS.has(w) || INSTRUCTION_WORDS.has(stem(w))) return null
  return stem(w)
}

const AUXILIARIES = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being', 'get', 'gets', 'got'])

/** An item of a text's word sequence: a subject word (its stem), a value, or a gap (a stop word or a word of instruction). */
type Item = {word: string} | {value: true} | {gap: string}

function itemsOf(shape: FactShape, subject: ReadonlySet<string>): Item[] {
  const items: Item[] = []
  for (const raw of shape.sequence) {
    const w = raw.toLowerCase()
    if (!/^\p{L}+$/u.test(w)) {
      items.push({value: true})
      continue
    }
    if (STOP_WORDS.has(w) && !NEGATIONS.has(w)) {
      items.push({gap: w})
      continue
    }
    const st = stem(w)
    items.push(subject.has(st) ? {word: st} : INSTRUCTION_WORDS.has(st) ? {gap: w} : {value: true})
  }
  return items
}

/**
 * The places of each run of words a text has and the other lacks: the shared word right after it
 * with nothing between ("method" in "method names"), and its neighbours on both sides, gaps
 * skipped (the shared word, a value, or the text's edge).
 */
function placesOf(items: Item[], own: (w: string) => boolean): {adjacent: Set<string>; around: Set<string>} {
  const adjacent = new Set<string>()
  const around = new Set<string>()
  const name = (it: Item | undefined) => (it === undefined ? '|' : 'word' in it ? `w:${it.word}` : 'value' in it ? 'v' : null)
  const unique = (it: Item) => 'word' in it && own(it.word)
  let i = 0
  while (i < items.length) {
    if (!unique(items[i])) {
      i++
      continue
    }
    // a run: unique words, gaps between them allowed
    let j = i
    for (let k = i + 1; k < items.length; k++) {
      if (unique(items[k])) j = k
      else if (!('gap' in items[k])) break
    }
    const next = items[j + 1]
    if (next && 'word' in next) adjacent.add(next.word)
    let l = i - 1
    while (l >= 0 && 'gap' in items[l]) l--
    let r = j + 1
    while (r < items.length && 'gap' in items[r]) r++
    // a run right after "is" / "are" is what is said of the subject ("lines are wrapped at 120"),
    // not a word naming another subject: only its neighbours' place is not compared
    const before = items[i - 1]
    if (!(before && 'gap' in before && AUXILIARIES.has(before.gap))) around.add(`${name(items[l])} ${name(items[r])}`)
    i = j + 1
  }
  return {adjacent, around}
}

/** The places of the words each text has and the other lacks (placesOf), for the guards that compare them. */
export interface OwnPlaces {
  mine: {adjacent: Set<string>; around: Set<string>}
  theirs: {adjacent: Set<string>; around: Set<string>}
}

export function ownPlaces(newer: FactShape, a: ReadonlySet<string>, older: FactShape, b: ReadonlySet<string>): OwnPlaces {
  return {mine: placesOf(itemsOf(newer, a), (w) => !b.has(w)), theirs: placesOf(itemsOf(older, b), (w) => !a.has(w))}
}

/** Each text has words of its own right before the same shared word ("function argument names" / "variable names", "API dev server" / "admin dev server"). */
export function ownBeforeSameWord({mine, theirs}: OwnPlaces): boolean {
  for (const w of mine.adjacent) if (theirs.adjacent.has(w)) return true
  return false
}

/** Each text has words of its own between the same neighbours (not after "is" / "are"). */
export function ownBetweenSameNeighbours({mine, theirs}: OwnPlaces): boolean {
  for (const p of mine.around) if (theirs.around.has(p)) return true
  return false
}

const MAX_SLOT = 3
/** Words that stand for what another word said: never a value in a slot. */
export const PRONOUNS = new Set(['it', 'its', 'this', 'that', 'these', 'those', 'them', 'they', 'one', 'ones', 'he', 'she', 'him', 'her', 'we', 'us', 'me', 'you', 'there', 'here'])

/**
 * Where two sentences differ, when they are word for word the same (case aside) but for one slot
 * of one to three words on each side: the shared prefix length `p`, suffix length `q`, and the
 * slot's words `x` (in `older`) and `y` (in `newer`), lowercased. Null otherwise.
 */
export function slotOf(older: FactShape, newer: FactShape): {a: string[]; p: number; q: number; x: string[]; y: string[]} | null {
  const a = older.sequence.map((w) => w.toLowerCase())
  const b = newer.sequence.map((w) => w.toLowerCase())
  let p = 0
  while (p < a.length && p < b.length && a[p] === b[p]) p++
  let q = 0
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++
  const x = a.slice(p, a.length - q)
  const y = b.slice(p, b.length - q)
  if (x.length === 0 || y.length === 0 || x.length > MAX_SLOT || y.length > MAX_SLOT) return null
  return {a, p, q, x, y}
}
export function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0
  for (const w of b) if (a.has(w)) n++
  return n
}

/** The words `shape` is compared on against `other`: its core words and its soft values `other` has too. */
export function subjectOf(shape: FactShape, other: FactShape): Set<string> {
  const out = new Set(shape.core)
  for (const s of shape.soft) if (listHas(other, 'core', s) || listHas(other, 'soft', s)) out.add(s)
  return out
}
export function shownList(shape: FactShape, keys: string[]): string {
  return keys.length === 0 ? '∅' : keys.slice(0, 3).map((k) => shape.shown.get(k) ?? k.slice(2)).join(', ')
}

/** A shape's words with the names it writes as values that the other text has as words ("Postgres runs…" / "The local Postgres container…"). */
export function withNames(shape: FactShape, words: ReadonlySet<string>, other: FactShape): Set<string> {
  const out = new Set(words)
  for (const v of shape.values) if (v.startsWith('w:') && listHas(other, 'words', stem(v.slice(2)))) out.add(stem(v.slice(2)))
  return out
}
