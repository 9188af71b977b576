/**
 * The shape of a fact: what it is about (its subject words) and the values it states (quoted
 * strings, identifiers, numbers and versions, paths, flags, names, case styles). Two texts with
 * the same subject and other values are two facts, most often a fact and its update
 * ("argument names start with 'e_'" → "… with 'j_'"); two texts with the same values in other
 * words are one fact said twice. Pure functions; see docs/currency.md for the rules.
 */
import {stemmer} from 'stemmer'
import {STOP_WORDS} from './stopwords.js'
import {foldAccents, NEGATIONS} from './tokenize.js'
import {keptBy} from './kept.js'

export interface FactShape {
  /** Subject words: stems of the words that are not values and not stop words, sorted, unique. */
  words: string[]
  /**
   * The subject words less the words of instruction ("use", "must", "always", "convention"…) that
   * another wording of one fact adds or drops: what two wordings are compared on.
   */
  core: string[]
  /** Stems of the soft values (the word that ends a clause): subject words when the other text has them too. */
  soft: string[]
  /** Value keys, sorted, unique (case kept where case is meaning: identifiers, quoted text, flags). */
  values: string[]
  /** Every word of the text and of its values, lowercased: what a value of another text is looked up in. */
  tokens: Set<string>
  /** The text's words in order, without surrounding punctuation or quotes. */
  sequence: string[]
  /** Where clauses end in `sequence` (punctuation bounds a clause): the index after each clause's last word. */
  breaks: number[]
  /** Whether the text asks (ends with a question mark): a question states no value. */
  question: boolean
  /** How each value and each subject word was written, for reasons people read. */
  shown: Map<string, string>
}

// A quoted span: opened after a space, bracket or `=`/`:`, closed before a space or punctuation.
const QUOTED = /(^|[\s([{=:,])(['"`])([^'"`\n]{1,80}?)\2(?=$|[\s)\]}.,;:!?])/g
const LEADING = /^[("'`[{<*]+/
/** Punctuation stripped from a word's end (TRAILING_CHARS) — a loop, not a regex: `/[…]+$/` retries at every position of a run of it. */
const TRAILING_CHARS = new Set(')"\'`]}>.,;:!?*')
const CASE_STYLES = new Set([
  'camelcase', 'pascalcase', 'snakecase', 'kebabcase', 'uppercase', 'lowercase', 'titlecase', 'screamingcase', 'upper', 'lower',
  'camel', 'pascal', 'snake', 'kebab', 'tabs', 'spaces',
])
// Words that say how a fact is instructed, not what it is about: "Use Python 3.12 for the data
// scripts" and "The data scripts need Python 3.11" are about the same thing. Verbs of a subject
// ("run", "build", "start", "end") are not among them: "class names end with _K" and "class names
// are written in CamelCase" are two conventions.
const INSTRUCTION_WORDS = new Set(
  [
    'use', 'uses', 'used', 'using', 'need', 'needs', 'needed', 'must', 'should', 'always', 'written', 'done', 'ask', 'convention', 'rule', 'please', 'required', 'requires', 'prefer', 'preferred',
    // words that say a fact changed, not what it is about: "The GraphQL gateway moved to port 4100"
    'moved', 'switched', 'changed', 'upgraded', 'downgraded', 'replaced', 'rewritten', 'now',
  ].map(
    (w) => stemmer(w),
  ),
)
const MAX_WORDS_LESS_ONE = 12
/** A value that is not soft (soft: the plain word ending a clause). */
const isHard = (v: string) => !v.startsWith('s:')
const MAX_WORDS_LESS_TWO = 7
const MIN_WORDS_LESS_TWO = 4

/**
 * A value's kind: numbers, quoted text, paths, flags, prefixes and suffixes of names ('e_', _a), case
 * styles (CamelCase, snake_case, all UPPERCASE: a style is not a name's prefix or suffix), names
 * (identifiers and proper names alike).
 */
function kindOf(key: string): string {
  const k = key.slice(0, 1)
  // a prefix ('e_', T_) and a suffix (_a, '_K') are two kinds: a name may have both
  if (/^[\p{L}\p{N}]+[_-]$/u.test(key.slice(2))) return 'prefix'
  if (/^[_-][\p{L}\p{N}]+$/u.test(key.slice(2))) return 'suffix'
  if (k !== 'i' && k !== 'w' && k !== 's') return k
  const body = key.slice(2).toLowerCase()
  return CASE_STYLES.has(body.replace(/[_\s-]/g, '')) || /[a-z]case$/.test(body) ? 'case' : 'name'
}

function stem(word: string): string {
  return /^[a-z]+$/.test(word) && word.length > 2 ? stemmer(word) : word
}

/**
 * Whether a raw word ends a clause (`/[,.;:!?)]["')\]]*$/`) or a sentence (`/[.!?:;]["')\]]*$/`):
 * one of `marks` before closing quotes and brackets. Read from the end, as a regex of that shape
 * tried at every position is quadratic on a run of `)`.
 */
function endsWithMark(raw: string, marks: string): boolean {
  let i = raw.length - 1
  while (i >= 0 && CLOSERS.includes(raw[i])) {
    // a closer that is itself a mark (`)` of a clause) ends it, whatever closes after it
    if (marks.includes(raw[i])) return true
    i--
  }
  return i >= 0 && marks.includes(raw[i])
}
const CLOSERS = `"')]`
const CLAUSE_MARKS = ',.;:!?)'
const SENTENCE_MARKS = '.!?:;'
const endsClauseMark = (raw: string) => endsWithMark(raw, CLAUSE_MARKS)

/** A word without the punctuation around it (quotes, brackets, a sentence's end). */
function bareOf(raw: string): string {
  const w = raw.replace(LEADING, '')
  let end = w.length
  while (end > 0 && TRAILING_CHARS.has(w[end - 1])) end--
  return end === w.length ? w : w.slice(0, end)
}
/** Stands where a quoted value was taken out of a text. */
const QUOTED_MARK = '\u0001'

/** The words of a text in order, and where its clauses end. */
function sequenceOf(folded: string): {sequence: string[]; breaks: number[]} {
  const sequence: string[] = []
  const breaks: number[] = []
  for (const raw of folded.split(/\s+/)) {
    const w = bareOf(raw)
    if (w) sequence.push(w)
    if ((endsClauseMark(raw) || /^[-–—•*#>]+$/.test(raw)) && breaks.at(-1) !== sequence.length) breaks.push(sequence.length)
  }
  return {sequence, breaks}
}

/**
 * For each word, whether it is the last of its clause but for stop words (`bares`: the words
 * without their punctuation). Read from the end, in one pass: a word closes its clause when it
 * ends one, or when the next word is a stop word that closes it.
 */
function clauseClosers(raws: readonly string[], bares: readonly string[]): boolean[] {
  const out = new Array<boolean>(raws.length)
  for (let i = raws.length - 1; i >= 0; i--) {
    if (endsClauseMark(raws[i]) || i === raws.length - 1) {
      out[i] = true
      continue
    }
    const w = bares[i + 1].toLowerCase()
    out[i] = !(w === QUOTED_MARK || !STOP_WORDS.has(w) || NEGATIONS.has(w)) && out[i + 1]
  }
  return out
}

const SHOUTED_WORD = /^\p{Lu}{2,}$/u
/**
 * Whether a text is written in capitals ("NEVER PUSH TO MAIN ON FRIDAYS"): most of its words of
 * letters, three at least (`bares`: its words without surrounding punctuation). Then its capitals
 * say nothing of names (ALICE, MAX_RETRY_COUNT stays an identifier by its underscores); in other
 * texts a word in capitals is a name (an acronym, a constant) and a value.
 */
function isShouted(bares: readonly string[]): boolean {
  let letters = 0
  let capitals = 0
  for (const t of bares) {
    if (!/^\p{L}+$/u.test(t)) continue
    letters++
    if (SHOUTED_WORD.test(t)) capitals++
  }
  return capitals >= 3 && 5 * capitals >= 3 * letters
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
const SHORT_LIST = 16
function lookupsOf(shape: FactShape): Lookups {
  let l = LOOKUPS.get(shape)
  if (l === undefined) LOOKUPS.set(shape, (l = {}))
  return l
}
/** Whether `w` is among a shape's subject words, core words or soft values. */
function listHas(shape: FactShape, list: 'words' | 'core' | 'soft', w: string): boolean {
  const items = shape[list]
  if (items.length <= SHORT_LIST) return items.includes(w)
  const l = lookupsOf(shape)
  return (l[list] ??= new Set(items)).has(w)
}

/** factShape, kept for the texts read lately (kept.ts). Callers must not modify what they get. */
export const factShapeOf = keptBy((text: string) => factShape(text))

/** Reads the subject words and the values of a text. */
export function factShape(text: string): FactShape {
  const words = new Set<string>()
  const values = new Set<string>()
  const tokens = new Set<string>()
  const shown = new Map<string, string>()
  const value = (key: string, as: string) => {
    values.add(key)
    for (const t of key.slice(2).toLowerCase().split(/\s+/)) tokens.add(t)
    if (!shown.has(key)) shown.set(key, as)
  }
  const folded = foldAccents(text)
  const rest = folded.replace(QUOTED, (_m, before: string, q: string, inner: string) => {
    value(`q:${inner}`, `${q}${inner}${q}`)
    // a mark where the value stood: the word before it does not end the clause
    return `${before} ${QUOTED_MARK} `
  })
  let sentenceStart = true
  const raws = rest.split(/\s+/).filter(Boolean)
  const bares = raws.map(bareOf)
  const shouted = isShouted(bares)
  const closers = clauseClosers(raws, bares)
  for (const [i, raw] of raws.entries()) {
    const endsSentence = endsWithMark(raw, SENTENCE_MARKS) || /^[-–—•*#>]+$/.test(raw)
    // the word that ends a clause is what the clause states: "the log level is info", "install
    // the dependencies with npm; …" (a word inside a phrase, like "method" in "method names", is not)
    // ("installed with pnpm only": stop words after it do not count)
    const endsClause = closers[i]
    const bare = bares[i]
    // in a text written in capitals a word in capitals is a word, not a name
    const t = shouted && SHOUTED_WORD.test(bare) && !CASE_STYLES.has(bare.toLowerCase()) ? bare.toLowerCase() : bare
    const atStart = sentenceStart
    sentenceStart = endsSentence
    if (!t || t === QUOTED_MARK) continue
    const lower = t.toLowerCase()
    // every word is there for another text's values to be found in, whatever it is read as below
    // (USETHEME( in a text in capitals states the useTheme( of another)
    tokens.add(lower)
    // most tokens are plain lowercase words: they skip the value tests below
    const plainWord = /^[a-z]+$/.test(t) && !CASE_STYLES.has(t)
    if (plainWord) {
      tokens.add(t)
      if ((STOP_WORDS.has(t) && !NEGATIONS.has(t)) || t.length === 1) continue
      if (endsClause && !atStart) value(`s:${t}`, t)
      else {
        const st = stem(t)
        words.add(st)
        if (!shown.has(st)) shown.set(st, t)
      }
      continue
    }
    if (/\p{N}/u.test(t)) {
      // numbers and versions: v20 and 20 are one value; 20.1 is another
      value(`n:${lower.replace(/^v(?=\d)/, '')}`, t)
    } else if (/^--?\p{L}/u.test(t)) {
      value(`f:${t}`, t)
    } else if (/[/\\]/.test(t)) {
      value(`p:${t}`, t)
    } else if (/^[_$]|_$|\p{L}[_.:@#=$-]+\p{L}|\p{Ll}\p{Lu}|^\p{Lu}\p{Ll}+\p{Lu}/u.test(t)) {
      value(`i:${t}`, t)
    } else if (/^\p{Lu}{2,}$/u.test(t) || CASE_STYLES.has(lower) || (!atStart && /^\p{Lu}\p{Ll}/u.test(t))) {
      // ALLCAPS, case styles and names: compared without case ("Alice", "ALICE")
      value(`w:${lower}`, t)
    } else if (/^\p{L}+$/u.test(t)) {
      tokens.add(lower)
      if (STOP_WORDS.has(lower) && !NEGATIONS.has(lower)) continue
      if (lower.length === 1) continue
      if (endsClause && !atStart) {
        // a soft value: it tells an update, but a restatement may add or drop such a word
        value(`s:${lower}`, t)
        continue
      }
      const s = stem(lower)
      words.add(s)
      if (!shown.has(s)) shown.set(s, t)
    }
  }
  const sorted = [...words].sort()
  const soft = [...values].filter((v) => v.startsWith('s:')).map((v) => stem(v.slice(2)))
  return {
    words: sorted,
    core: sorted.filter((w) => !INSTRUCTION_WORDS.has(w)),
    soft: [...new Set(soft)].sort(),
    ...sequenceOf(folded),
    values: [...values].sort(),
    tokens,
    shown,
    question: /\?\s*$/.test(text),
  }
}

/**
 * The values one shape states that the other does not. A value counts as stated when each of its
 * words, in any case, is there as a value or a plain word: `npm test` in backticks and npm TEST
 * are one value; 'e_' and 'e' are two.
 */
function valuesOnly(a: FactShape, b: FactShape): string[] {
  return a.values.filter((v) => !v.slice(2).toLowerCase().split(/\s+/).every((t) => b.tokens.has(t)))
}

/** Whether two shapes state the same values (a restatement, when their texts are alike too). */
export function sameValues(a: FactShape, b: FactShape): boolean {
  return valuesOnly(a, b).filter(isHard).length === 0 && valuesOnly(b, a).filter(isHard).length === 0
}

/**
 * Whether two texts alike as texts say one thing: the same values, and neither an update of the
 * other (one slot of one sentence changed is another value even where no rule reads a value:
 * "boolean variables start with is" / "… with has").
 */
export function sayTheSame(a: FactShape, b: FactShape): boolean {
  return sameValues(a, b) && frameRelation(a, b) === null && frameRelation(b, a) === null
}

export interface UpdateRelation {
  /**
   * Which rule found it: `same-words` (only values differ), `wider` (one wording adds words to the
   * other) or `same-frame` (one sentence, one slot of it changed).
   */
  kind: 'same-words' | 'wider' | 'same-frame' | 'reworded'
  /** What changed, as people read it: `'e_' → 'j_'`. */
  reason: string
}

function shownList(shape: FactShape, keys: string[]): string {
  return keys.length === 0 ? '∅' : keys.slice(0, 3).map((k) => shape.shown.get(k) ?? k.slice(2)).join(', ')
}

/**
 * Whether `newer` states the same subject as `older` with another value: an update candidate.
 * - same-words: the subject words are the same (at least one, and two with the values both
 *   state) and the newer states a value the older does not;
 * - wider: one text's subject words are all in the other's (another wording that adds words:
 *   "CI runs the tests on Node 18" → "Our CI pipeline runs the tests on Node 20"), at least two
 *   shared (counting the values both state), and exactly one value changed, for one of its kind
 *   (a number for a number, a name for a name, a path for a path, a case style for a case style).
 * Subject words are compared without the words of instruction ("use", "must", "always"…): "Use
 * Python 3.12 for the data scripts" → "The data scripts need Python 3.11" is one subject.
 * Never when each text has a subject word the other lacks: "function argument names" and
 * "variable names" in one template are two conventions, not one and its update; nor "class names
 * end with _K" and "class names are written in CamelCase" (a suffix is not a case style).
 * Null when neither holds: another subject, or the same values (a restatement or a duplicate).
 */
export function updateRelation(newer: FactShape, older: FactShape): UpdateRelation | null {
  if (newer.question || older.question) return null
  // compared on the core words: a wording may add or drop words of instruction ("always", "use");
  // a soft value the other text has as a word is a subject word ("… for unit tests" / "Unit tests …")
  const a = subjectOf(newer, older)
  const b = subjectOf(older, newer)
  const shared = sharedCount(a, b)
  const union = a.size + b.size - shared
  const gained = valuesOnly(newer, older)
  // an update states a value the older text does not (or changes a word in the slot of one)
  if (gained.length === 0) return frameRelation(newer, older)
  const lost = valuesOnly(older, newer)
  const reason = () => `${shownList(older, lost)} → ${shownList(newer, gained)}`
  // values both state are subject too ("CI runs on Node 18" → "… Node 20": CI, Node); a soft
  // value counted among the subject words above is not counted again
  const gainedSet = new Set(gained)
  const sharedValues = newer.values.filter((v) => !gainedSet.has(v) && !(v.startsWith('s:') && a.has(stem(v.slice(2))))).length
  const lostKinds = new Set(lost.map(kindOf))
  const kinChange = gained.some((g) => lostKinds.has(kindOf(g)))
  // a name in the place of a word of the subject names what the sentence is about: another subject
  if (shared === union && shared >= 1 && (shared + sharedValues >= 2 || kinChange) && !modifierChanged(newer, gained, older, lost)) return {kind: 'same-words', reason: reason()}
  const nested = shared === Math.min(a.size, b.size)
  // another wording may change one value, no more: "The API listens on port 3000" → "The admin UI
  // listens on port 3100" changes the port and who listens
  if (nested && kinChange && gained.length === 1 && lost.length === 1 && shared >= 1 && shared + sharedValues >= 2 && !modifierChanged(newer, gained, older, lost)) return {kind: 'wider', reason: reason()}
  // reworded: most words shared, one value changed for one of its kind, and what each text has of
  // its own is not in the place of the other's (that is another subject: "method names" / "class names")
  // (a soft value beside the changed one is how it is said: "with the --headed flag" / "use --ui")
  const [g, l] = [gained.filter(isHard), lost.filter(isHard)]
  if (g.length === 1 && l.length === 1 && kindOf(g[0]) === kindOf(l[0]) && reworded(newer, a, older, b, g, l) && !modifierChanged(newer, g, older, l)) return {kind: 'reworded', reason: `${shownList(older, l)} → ${shownList(newer, g)}`}
  return frameRelation(newer, older)
}

/**
 * reworded: most subject words shared (two at least, and two thirds of the shorter text's, counting
 * the values both state and a name one text writes as a value and the other as a word: "Postgres
 * runs locally…" / "The local Postgres container…"), and no words of one text in the place of the
 * other's.
 */
function reworded(newer: FactShape, a: Set<string>, older: FactShape, b: Set<string>, gained: readonly string[], lost: readonly string[]): boolean {
  const withNames = (shape: FactShape, set: Set<string>, other: FactShape) => {
    const out = new Set(set)
    for (const v of shape.values) if (v.startsWith('w:') && listHas(other, 'words', stem(v.slice(2)))) out.add(stem(v.slice(2)))
    return out
  }
  const a2 = withNames(newer, a, older)
  const b2 = withNames(older, b, newer)
  const shared = sharedCount(a2, b2)
  const gainedSet = new Set(gained)
  const both = newer.values.filter((v) => isHard(v) && !gainedSet.has(v) && !(v.startsWith('w:') && a2.has(stem(v.slice(2))))).length
  if (shared + both < 2 || 3 * (shared + both) < 2 * (Math.min(a2.size, b2.size) + both)) return false
  // a name in a clause of its own addresses someone ("Thanks, Mel!" / "Thanks, Melanie."): no value stated
  if (clauseOf(newer, gained[0]) <= 2 || clauseOf(older, lost[0]) <= 2) return false
  // a value named by other words is another value: "port 5432" / "Postgres 15"
  const mine = labelOf(newer, gained[0])
  const theirs = labelOf(older, lost[0])
  if (mine !== null && theirs !== null && mine !== theirs) return false
  return !substituted(newer, a2, older, b2)
}

/** Where a value's first word stands in a text's sequence (-1 when it is not there as a word). */
function valueAt(shape: FactShape, key: string): number {
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

/** Words skipped before a name (headOf), and the words of means that make the name what is used. */
const ARTICLES = new Set(['the', 'a', 'an', 'our', 'its', 'their', 'this', 'that'])
const INSTRUMENTS = new Set(['with', 'via', 'through', 'using', 'by'])

/**
 * The subject word right after a value in a text, when the value names it ("Python packages",
 * "The Redis container"): a word of the text's subject, not a value itself ("the Stripe SDK"),
 * and the value does not come after a word of instruction or of means (with, via, through, using,
 * by), which make the phrase what is used ("Use the Jest runner for unit tests", "Deploy with the
 * Fly CLI").
 */
function headOf(shape: FactShape, key: string): string | null {
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
 * "Use the Vitest runner" is an update.
 */
function modifierChanged(newer: FactShape, gained: readonly string[], older: FactShape, lost: readonly string[]): boolean {
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
function clauseOf(shape: FactShape, key: string): number {
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
function labelOf(shape: FactShape, key: string): string | null {
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

/**
 * Whether each text has words of its own in the same place: right before the same shared word
 * ("function argument names" / "variable names", "API dev server" / "admin dev server"), or between
 * the same neighbours. That changes what the sentence is about, not how it is said.
 */
function substituted(newer: FactShape, a: ReadonlySet<string>, older: FactShape, b: ReadonlySet<string>, {around = true} = {}): boolean {
  const mine = placesOf(itemsOf(newer, a), (w) => !b.has(w))
  const theirs = placesOf(itemsOf(older, b), (w) => !a.has(w))
  for (const w of mine.adjacent) if (theirs.adjacent.has(w)) return true
  if (around) for (const p of mine.around) if (theirs.around.has(p)) return true
  return false
}

/** Kinds of value that name one thing (a tool, a path, an identifier, a flag), unlike numbers, case styles or affixes. */
const STRONG_KINDS = new Set(['name', 'p', 'q', 'f'])

/**
 * Whether `newer` states what `older` states in other words: a value both state and none changed
 * (at most one value said by one text only), and about as much of its subject — at least one core
 * word shared, and two thirds of the shorter text's (half, when the value names one thing: a tool,
 * a path, an image) — with no word of one right before a shared word where the other has its own. "Production errors go to Honeybadger" restates
 * "Errors are reported to Honeybadger". A store uses it to carry a revert across wordings: when
 * `older` has a newer version since, stating its value again updates that version.
 */
export function restates(newer: FactShape, older: FactShape): boolean {
  if (newer.question || older.question) return false
  // a value both state, and no value of one kind in one and another of that kind in the other
  // (a value only one states, like the "API" of "Public API routes", is said there only)
  // (whole values: "Vitest" is not the `npx vitest run` of another text)
  const body = (v: string) => v.slice(2).toLowerCase()
  // most pairs (maintenance compares every pair a key groups) share no value: out before any set
  // is made — by comparing each with each while that is cheap, through a set when the texts state many
  const shareOne =
    newer.values.length * older.values.length <= 64
      ? newer.values.some((v) => isHard(v) && older.values.some((o) => isHard(o) && o.length === v.length && body(o) === body(v)))
      : ((bodies) => newer.values.some((v) => isHard(v) && bodies.has(body(v))))(new Set(older.values.filter(isHard).map(body)))
  if (!shareOne) return false
  const hardOf = (shape: FactShape) => shape.values.filter(isHard)
  const olderBodies = new Set(hardOf(older).map(body))
  const newerBodies = new Set(hardOf(newer).map(body))
  const mine = hardOf(newer).filter((v) => !olderBodies.has(body(v)))
  const theirs = hardOf(older).filter((v) => !newerBodies.has(body(v)))
  const theirKinds = new Set(theirs.map(kindOf))
  if (hardOf(newer).length === mine.length || mine.some((v) => theirKinds.has(kindOf(v)))) return false
  // one value said by one text only, at most (the "API" of "Public API routes"): a text that adds
  // more ("Formatting is Prettier with printWidth 100 and singleQuote") says something else
  if (mine.length + theirs.length > 1) return false
  const a = subjectOf(newer, older)
  const b = subjectOf(older, newer)
  const shared = sharedCount(a, b)
  // a value that names one thing (a tool, a path, an image) says more than a number or a case
  // style many facts share: with one, half of the shorter text's words are enough
  const named = hardOf(newer).some((v) => olderBodies.has(body(v)) && STRONG_KINDS.has(kindOf(v)))
  const enough = named ? 2 * shared >= Math.min(a.size, b.size) : 3 * shared >= 2 * Math.min(a.size, b.size)
  // with the same value, words between the same neighbours are most often the verb said another
  // way ("errors are reported to" / "errors go to"): only a word right before a shared one counts
  return shared >= 1 && enough && !substituted(newer, a, older, b, {around: false})
}

/** What changed from `older` to `newer`, as people read it (`'e_' → 'j_'`), hard values first. */
export function valueChange(newer: FactShape, older: FactShape): string {
  const hardFirst = (vs: string[]) => (vs.some(isHard) ? vs.filter(isHard) : vs)
  let lost = hardFirst(valuesOnly(older, newer))
  let gained = hardFirst(valuesOnly(newer, older))
  // the values of a kind both sides have changed, when there are such: "/v3 → /api/v1", not "…, API"
  const kinds = new Set(lost.map(kindOf))
  if (gained.some((v) => kinds.has(kindOf(v)))) {
    gained = gained.filter((v) => kinds.has(kindOf(v)))
    const gainedKinds = new Set(gained.map(kindOf))
    lost = lost.filter((v) => gainedKinds.has(kindOf(v)))
  }
  return `${shownList(older, lost)} → ${shownList(newer, gained)}`
}

const MAX_SLOT = 3
/** Words that stand for what another word said: never a value in a slot. */
const PRONOUNS = new Set(['it', 'its', 'this', 'that', 'these', 'those', 'them', 'they', 'one', 'ones', 'he', 'she', 'him', 'her', 'we', 'us', 'me', 'you', 'there', 'here'])

/**
 * Where two sentences differ, when they are word for word the same (case aside) but for one slot
 * of one to three words on each side: the shared prefix length `p`, suffix length `q`, and the
 * slot's words `x` (in `older`) and `y` (in `newer`), lowercased. Null otherwise.
 */
function slotOf(older: FactShape, newer: FactShape): {a: string[]; p: number; q: number; x: string[]; y: string[]} | null {
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

/**
 * Whether `newer` updates `older` and says so in the same sentence with one slot changed — the
 * pairs maintenance is sure of ("CI runs on Node 18" → "CI runs on Node 20").
 */
export function sureUpdate(newer: FactShape, older: FactShape): UpdateRelation | null {
  const relation = updateRelation(newer, older)
  return relation && slotOf(older, newer) ? relation : null
}

/**
 * same-frame: the two sentences are word for word the same but for one slot of one to three words
 * ("Write commit messages in gitmoji style" → "… in the Linux kernel style", "Format the code with
 * Biome on save" → "… with dprint on save"), where a value may be a word no rule reads as a value —
 * at the sentence's end, even a stop word ("boolean variables start with is" → "… with has"), never
 * a pronoun. Only when at least two words that are neither stop words nor words of instruction come before
 * the slot (what the sentence is about, and its verb) and no value stands outside it: "Convention: always start function argument
 * names with 'e_'" / "… variable names with 'e_'" changes the subject, not the value.
 */
function frameRelation(newer: FactShape, older: FactShape): UpdateRelation | null {
  const found = slotOf(older, newer)
  if (!found) return null
  const {a, p, q, x, y} = found
  const plain = (w: string) => /^\p{L}+$/u.test(w) && !STOP_WORDS.has(w)
  // words of what the sentence is about before the slot ("always use" instructs, it is about nothing)
  if (a.slice(0, p).filter((w) => plain(w) && !INSTRUCTION_WORDS.has(stem(w))).length < 2) return null
  // a slot of a plain word or a number; or the sentence's last word, whatever it is (what it
  // states: "boolean variables start with is" → "… with has")
  const last = q === 0 && x.length === 1 && y.length === 1 && [x[0], y[0]].every((w) => /^\p{L}+$/u.test(w) && !PRONOUNS.has(w))
  if (!last && !x.some(plain) && !x.some((w) => /\p{N}/u.test(w))) return null
  if (!last && !y.some(plain) && !y.some((w) => /\p{N}/u.test(w))) return null
  if ([...x, ...y].some((w) => NEGATIONS.has(w))) return null
  // a value follows a word of function ("with Biome", "in gitmoji style", "is info"); after a word
  // of content the slot is what is done, another rule: "handlers retry with backoff" / "handlers
  // use idempotency keys"
  if (p > 0 && !STOP_WORDS.has(a[p - 1])) return null
  const hard = new Set<string>()
  for (const shape of [older, newer]) for (const v of shape.values) if (isHard(v)) for (const t of v.slice(2).toLowerCase().split(/\s+/)) hard.add(t)
  const outside = [...a.slice(0, p), ...a.slice(a.length - q)]
  if (outside.some((w) => hard.has(w))) return null
  return {kind: 'same-frame', reason: `${older.sequence.slice(p, a.length - q).join(' ')} → ${newer.sequence.slice(p, newer.sequence.length - q).join(' ')}`}
}

function sharedCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0
  for (const w of b) if (a.has(w)) n++
  return n
}

/** The words `shape` is compared on against `other`: its core words and its soft values `other` has too. */
function subjectOf(shape: FactShape, other: FactShape): Set<string> {
  const out = new Set(shape.core)
  for (const s of shape.soft) if (listHas(other, 'core', s) || listHas(other, 'soft', s)) out.add(s)
  return out
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h | 0 // signed 32-bit, as the band table stores keys
}

/**
 * Lookup keys for texts about the same subject: the hash of the subject words, and for short
 * texts the hashes of the words less each one and less each two (texts a word or two apart share
 * a key). They sit in
 * the MinHash band table beside the near-duplicate keys; every candidate is verified.
 */
export function subjectKeys(shape: FactShape): number[] {
  const keys: number[] = []
  if (shape.words.length > 0) keys.push(fnv1a(`subject\u0000${shape.words.join(' ')}`))
  // the keys of the core words with the soft values (less one, less two): wordings that differ in
  // words of instruction, say the last word of one in the middle of the other, or say a word or
  // two of their own ("Always suffix class names with _T" / "Convention: class names end with _K")
  wordKeys([...new Set([...shape.core, ...shape.soft])].sort(), keys)
  return [...new Set(keys)]
}

/**
 * Lookup keys for texts that state a value naming one thing (a tool, a path, an image, a flag:
 * a number or a case style is in too many texts to look up by): a revert said in other words
 * (`restates`) is found through them. Stored beside the subject keys, looked up apart (only
 * memories a newer version updates are candidates), so they never widen the duplicate check.
 */
export function valueKeys(shape: FactShape): number[] {
  const keys: number[] = []
  for (const v of shape.values) if (isHard(v) && STRONG_KINDS.has(kindOf(v))) keys.push(fnv1a(`value\u0000${v.slice(2).toLowerCase()}`))
  return [...new Set(keys)]
}

function wordKeys(w: readonly string[], keys: number[]): void {
  if (w.length === 0) return
  // one namespace: a text with a word more shares a key with one without it
  keys.push(fnv1a(`subject\u0000${w.join(' ')}`))
  if (w.length >= 3 && w.length <= MAX_WORDS_LESS_ONE) {
    for (let i = 0; i < w.length; i++) keys.push(fnv1a(`subject\u0000${w.filter((_, j) => j !== i).join(' ')}`))
  }
  // short texts: less any two words too (another wording adds or swaps a couple of words)
  if (w.length >= MIN_WORDS_LESS_TWO && w.length <= MAX_WORDS_LESS_TWO) {
    for (let i = 0; i < w.length; i++) {
      for (let j = i + 1; j < w.length; j++) keys.push(fnv1a(`subject\u0000${w.filter((_, k) => k !== i && k !== j).join(' ')}`))
    }
  }
}
