/**
 * The guards of the currency rules (rules.ts): each names one reason a pair a rule found is not an
 * update after all, and refuses it. A rule links a pair only when none of its guards refuses; a
 * refused pair goes on to the next rule. Each guard has a test that fails when it alone is
 * removed (test/engines/currency/rules.test.ts). See docs/currency.md.
 */
import {STOP_WORDS} from '../../text/stopwords.js'
import {NEGATIONS} from '../../text/tokenize.js'
import {INSTRUCTION_WORDS, isHard, kindOf, stem, STRONG_KINDS, type FactShape} from '../../text/values.js'
import {thesaurusExpansions} from '../search/thesaurus.js'
import {namesRoleOf, roleWordsInBoth, scopesIn, toolKey, toolKeysIn, toolsIn} from '../../text/roles.js'
import {NUMBER_WORD_SET, quantitiesIn, UNIT_WORDS} from '../../text/quantities.js'
import {versionsIn} from '../../text/versions.js'
import {commandParts, commandsIn, commandTasks, ecosystemOf, tasksOfCommandWord} from '../../text/commands.js'
import {branchKindsIn, changedChoice} from '../../text/choices.js'
import {oncePer} from '../../text/once.js'
import {ARTICLES, clauseOf, labelOf, modifierChanged, ownBeforeSameWord, ownBetweenSameNeighbours, ownPlaces, placeIn, PRONOUNS, valueAt, type OwnPlaces, type Pair} from './pair.js'

/** One sentence's slot in which two texts differ (slotOf in pair.ts). */
export interface Slot {
  /** The older sentence's words, lowercased; the shared prefix and suffix lengths; the slot's words in each. */
  a: string[]
  p: number
  q: number
  x: string[]
  y: string[]
}

/** What a rule found in a pair: the values that changed as the rule reads them, and what its guards read. */
export interface Match {
  gained: readonly string[]
  lost: readonly string[]
  /** same-frame: where the sentences differ. */
  slot?: Slot
  /** reworded: the words each text is compared on, a name one text writes as a value and the other as a word counted. */
  named?: {a: Set<string>; b: Set<string>}
  /** Where each text's own words stand, read once for the guards that compare them. */
  places?: OwnPlaces
}

export interface Guard {
  /** What it refuses, in a few words (test names and docs use it). */
  name: string
  refuses(pair: Pair, match: Match): boolean
}

/** Whether a value of one kind was replaced by one of the same kind (a number by a number, a name by a name). */
export function replacedInKind(gained: readonly string[], lost: readonly string[]): boolean {
  const lostKinds = new Set(lost.map(kindOf))
  return gained.some((g) => lostKinds.has(kindOf(g)))
}

function placesOf(pair: Pair, m: Match): OwnPlaces {
  const words = m.named ?? {a: pair.a, b: pair.b}
  return (m.places ??= ownPlaces(pair.newer, words.a, pair.older, words.b))
}

/** A question states no value ("Which port does the API listen on?"). */
export const question: Guard = {
  name: 'a question',
  refuses: ({newer, older}) => newer.question || older.question,
}

/**
 * A name in the place of a word of the subject names what the sentence is about, while each text
 * states another value: "Install Python packages with uv" / "Install JavaScript packages with pnpm".
 */
export const nameOfSubject: Guard = {
  name: 'a name of what the sentence is about',
  refuses: ({newer, older}, m) => modifierChanged(newer, m.gained, older, m.lost),
}

/** The same words, but one word of subject alone with no value both state, and no value replaced by one of its kind. */
export const oneWordNoLikeValue: Guard = {
  name: 'one word shared, no value like the other',
  refuses: ({shared, sharedValues}, m) => shared + sharedValues < 2 && !replacedInKind(m.gained, m.lost),
}

/** A value replaced by one of another kind is another fact: "class names end with _K" / "… are written in CamelCase". */
export const anotherKind: Guard = {
  name: 'a value of another kind',
  refuses: (_pair, m) => !replacedInKind(m.gained, m.lost),
}

/** Fewer than two words shared, counting the values both state. */
export const fewShared: Guard = {
  name: 'fewer than two shared',
  refuses: ({shared, sharedValues}) => shared + sharedValues < 2,
}

/**
 * reworded: fewer than two words shared, or under two thirds of the shorter text's (counting the
 * values both state, and a name one text writes as a value and the other as a word).
 */
export const fewWordsShared: Guard = {
  name: 'under two thirds of the words shared',
  refuses: ({newer}, m) => {
    const {a, b} = m.named!
    let shared = 0
    for (const w of b) if (a.has(w)) shared++
    const gained = new Set(m.gained)
    const both = newer.values.filter((v) => isHard(v) && !gained.has(v) && !(v.startsWith('w:') && a.has(stem(v.slice(2))))).length
    return shared + both < 2 || 3 * (shared + both) < 2 * (Math.min(a.size, b.size) + both)
  },
}

/** A name in a clause of its own addresses someone ("Thanks, Mel!" / "Thanks, Melanie."): it states no value. */
export const addressed: Guard = {
  name: 'a name that addresses someone',
  refuses: ({newer, older}, m) => clauseOf(newer, m.gained[0]) <= 2 || clauseOf(older, m.lost[0]) <= 2,
}

/** A value named by other words is another value: "port 5432" / "Postgres 15". */
export const otherLabel: Guard = {
  name: 'a value named by another word',
  refuses: ({newer, older}, m) => {
    const mine = labelOf(newer, m.gained[0])
    const theirs = labelOf(older, m.lost[0])
    return mine !== null && theirs !== null && mine !== theirs
  },
}

/** Each text has words of its own right before the same shared word: "method names" / "class names". */
export const ownWordBeforeShared: Guard = {
  name: 'own words before the same word',
  refuses: (pair, m) => ownBeforeSameWord(placesOf(pair, m)),
}

/** Each text has words of its own between the same neighbours (what follows "is" / "are" aside): "API dev server" / "admin … server". */
export const ownWordsBetweenSame: Guard = {
  name: 'own words between the same neighbours',
  refuses: (pair, m) => ownBetweenSameNeighbours(placesOf(pair, m)),
}

/** same-frame: fewer than two words of what the sentence is about before the slot ("always use" instructs; it is about nothing). */
export const littleBeforeSlot: Guard = {
  name: 'fewer than two words of subject before the slot',
  refuses: (_pair, m) => m.slot!.a.slice(0, m.slot!.p).filter((w) => plain(w) && !INSTRUCTION_WORDS.has(stem(w))).length < 2,
}

/**
 * same-frame: a slot states a value when a word of it is a plain word or a number on both sides;
 * or when it is the sentence's last word, whatever it is ("boolean variables start with is" →
 * "… with has"), but a pronoun ("… merge to it").
 */
export const slotStatesNothing: Guard = {
  name: 'a slot that states nothing',
  refuses: (_pair, m) => {
    const {q, x, y} = m.slot!
    const last = q === 0 && x.length === 1 && y.length === 1 && [x[0], y[0]].every((w) => /^\p{L}+$/u.test(w) && !PRONOUNS.has(w))
    if (last) return false
    const states = (ws: string[]) => ws.some(plain) || ws.some((w) => /\p{N}/u.test(w))
    return !states(x) || !states(y)
  },
}

/** same-frame: a negation in the slot says the opposite, not another value ("… with not"). */
export const negationInSlot: Guard = {
  name: 'a negation in the slot',
  refuses: (_pair, m) => [...m.slot!.x, ...m.slot!.y].some((w) => NEGATIONS.has(w)),
}

/**
 * same-frame: a value follows a word of function ("with Biome", "in gitmoji style", "is info");
 * after a word of content the slot is what is done, another rule: "handlers retry with backoff" /
 * "handlers use idempotency keys".
 */
export const slotAfterContentWord: Guard = {
  name: 'a slot after a word of content',
  refuses: (_pair, m) => {
    const before = m.slot!.p > 0 ? m.slot!.a[m.slot!.p - 1] : null
    // a word of instruction is not one of content: "Money values in the ledger use integer cents"
    return before !== null && !STOP_WORDS.has(before) && !INSTRUCTION_WORDS.has(stem(before.toLowerCase()))
  },
}

/** same-frame: a value outside the slot makes the slot what the sentence is about ("'e_' for class names" / "… method names"). */
export const valueOutsideSlot: Guard = {
  name: 'a value outside the slot',
  refuses: ({newer, older}, m) => {
    const {a, p, q} = m.slot!
    const hard = new Set<string>()
    for (const shape of [older, newer]) for (const v of shape.values) if (isHard(v)) for (const t of v.slice(2).toLowerCase().split(/\s+/)) hard.add(t)
    return [...a.slice(0, p), ...a.slice(a.length - q)].some((w) => hard.has(w))
  },
}

/** A plain word: letters, not a stop word. */
function plain(w: string): boolean {
  return /^\p{L}+$/u.test(w) && !STOP_WORDS.has(w)
}

/**
 * restates: at most one value said by one text only (the "API" of "Public API routes"): a text that
 * adds more ("Formatting is Prettier with printWidth 100 and singleQuote") says something else.
 * A value replaced by one of its kind (one in each text) is refused here too: a change, not a
 * restatement. (values.ts once refused it apart as well; no pair could reach that test.)
 */
export const otherValues: Guard = {
  name: 'more than one value said by one text only',
  refuses: (_pair, m) => m.gained.length + m.lost.length > 1,
}

/**
 * restates: about as much of the subject — at least one word shared, and two thirds of the shorter
 * text's; half, when a value both state names one thing (a tool, a path, an image), which says more
 * than a number or a case style many facts share.
 */
export const fewWordsRestated: Guard = {
  name: 'too few words shared for a restatement',
  refuses: (pair) => {
    const {newer, older, a, b, shared} = pair
    const olderBodies = new Set(older.values.filter(isHard).map(bodyOf))
    const named = newer.values.some((v) => isHard(v) && olderBodies.has(bodyOf(v)) && STRONG_KINDS.has(kindOf(v)))
    const enough = named ? 2 * shared >= Math.min(a.size, b.size) : 3 * shared >= 2 * Math.min(a.size, b.size)
    return shared < 1 || !enough
  },
}

/** A value's text without its kind, lowercased. */
export const bodyOf = (v: string) => v.slice(2).toLowerCase()

/**
 * Stems of verbs that say how a tool is used, not what a fact is about ("Run `pnpm i18n:check`" /
 * "Detox e2e runs on …: `yarn detox build`" share only "run"): not a shared subject for the
 * same-role rule. (The core words already leave out the words of instruction: use, need, must, ….)
 */
const VERBS_OF_USE = new Set(['run', 'go', 'goe', 'live', 'keep', 'kept', 'get', 'make', 'made', 'put', 'set', 'start', 'handl', 'manag', 'power', 'serv', 'send', 'sent', 'process', 'work'])

/**
 * same-role: the two texts share no word of what they are about, even through the developer
 * thesaurus (search/thesaurus-groups.ts), the tools aside: two tools of one role named about two
 * things ("Logs are shipped to Datadog" / "Metrics are scraped by Prometheus") are two facts.
 */
export const noSharedSubject: Guard = {
  name: 'no word of the subject shared',
  refuses: ({newer, older}) => {
    const tools = new Set([...toolKeysIn(toolsIn(newer.sequence)), ...toolKeysIn(toolsIn(older.sequence))])
    const subject = (words: readonly string[]) => words.filter((w) => !tools.has(w) && !VERBS_OF_USE.has(w))
    if (sharesWord(subject(newer.core), subject(older.core))) return false
    // the role's own words in both ("Background jobs …" / "Async work is queued …"): the role is the subject
    const [mine, theirs] = [toolsIn(newer.sequence), toolsIn(older.sequence)]
    return ![...mine.keys()].some((role) => theirs.has(role) && roleWordsInBoth(role, newer.sequence, older.sequence))
  },
}

/** Whether two lists of words share one, or one a word of the other bridges to through the developer thesaurus. */
function sharesWord(mine: readonly string[], others: readonly string[]): boolean {
  const theirs = new Set(others)
  return mine.some((w) => theirs.has(w)) || thesaurusExpansions([...mine]).some((w) => theirs.has(w))
}

/**
 * same-role: each text names a scope the other does not — frontend / backend, production / local
 * development, iOS / Android, unit / end-to-end, Python / JavaScript (text/roles.ts SCOPES), or two scopes
 * of two kinds ("The admin dashboard …" / "The API …"): "The frontend is deployed to Vercel" / "The
 * backend is deployed to Fly.io" are two facts. A scope only one text names ("Production errors go
 * to Rollbar" after "Errors are reported to Sentry") is the rule made narrower or said more fully.
 */
export const otherScope: Guard = {
  name: 'another scope',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [scopesIn(newer.sequence), scopesIn(older.sequence)]
    return scopeOfItsOwn(mine, theirs) && scopeOfItsOwn(theirs, mine)
  },
}

/** Whether a text names a scope the other does not: of a kind the other names otherwise, or of a kind the other does not name at all. */
function scopeOfItsOwn(mine: ReadonlyMap<number, ReadonlySet<number>>, theirs: ReadonlyMap<number, ReadonlySet<number>>): boolean {
  for (const [dimension, scopes] of mine) {
    const other = theirs.get(dimension)
    if (!other || ![...scopes].some((s) => other.has(s))) return true
  }
  return false
}

/** Whether a text writes a tool inside a command it quotes (a `q:` value: "`npx vitest run`"). */
function inCommand(shape: {values: readonly string[]}, tool: string): boolean {
  return quotedCommandsWith(shape, tool, (words, key) => words.some((w) => toolKey(w) === key))
}

/** Whether one of the commands a text quotes (its `q:` values, as words) holds `tool` as `test` reads it. */
function quotedCommandsWith(shape: {values: readonly string[]}, tool: string, test: (words: string[], key: string) => boolean): boolean {
  const key = toolKey(tool.replace(/\s+/g, ''))
  return shape.values.some((v) => v.startsWith('q:') && test(v.slice(2).trim().split(/\s+/), key))
}

/**
 * same-role: one text names its tool in a command it quotes and the other names its own as a
 * tool: a command is another kind of fact than the tool a project uses ("We use Mocha for unit
 * tests" / "To run unit tests: `npx vitest run`"), as for the other rules (anotherKind).
 */
export const commandAndName: Guard = {
  name: 'a command and a name',
  refuses: ({newer, older}, m) => inCommand(newer, m.gained[0]) !== inCommand(older, m.lost[0]),
}

/** Whether a text's tool is the program of a command it quotes (a `q:` value: "`yarn start:example`"). */
function programOfCommand(shape: {values: readonly string[]}, tool: string): boolean {
  return quotedCommandsWith(shape, tool, (words, key) => toolKey(words[0] ?? '') === key)
}

/**
 * same-role: both tools are the programs of commands the texts quote — "`yarn start:example` builds
 * the package" / "Type-check the frontend with `pnpm --filter=… typescript:check`": two commands,
 * which the same-command rule compares by their tasks; the package managers that run them say
 * nothing of whether one replaced the other. (A tool the command runs, "`npx cypress run`" →
 * "`npx playwright test`", is still the role's.)
 */
export const toolsInCommands: Guard = {
  name: 'both tools run commands',
  refuses: ({newer, older}, m) => programOfCommand(newer, m.gained[0]) && programOfCommand(older, m.lost[0]),
}

/** Beyond this many words a text names a tool in passing, not as the fact it states (the same-role rule). */
export const ROLE_MAX_WORDS = 15

/**
 * same-role: a text of more than ROLE_MAX_WORDS words names its tool in passing ("Customer tax ids
 * are encrypted at rest …; never put them in log lines or Sentry breadcrumbs"): a rule that names the
 * tool a project uses for a role is short. Every same-role update of the pair and blind sets is 14
 * words or fewer; the two links across projects of the second paraphrase set were 17–18.
 */
export const toolInPassing: Guard = {
  name: 'a tool named in passing',
  refuses: ({newer, older}) => Math.max(newer.sequence.length, older.sequence.length) > ROLE_MAX_WORDS,
}

/** Beyond this many words a text is a note that names what changed in passing, however short the clause that names it. */
export const NOTE_MAX_WORDS = 20

/**
 * Whether a text names `shown` (its words, as the text writes them) in its first clause, and that
 * clause is at most ROLE_MAX_WORDS long: the text states it, whatever it says after.
 */
function statedFirst(shape: FactShape, shown: string): boolean {
  const words = shape.sequence.map((w) => w.toLowerCase())
  const lower = shown.toLowerCase()
  const end = shape.breaks.find((b) => b > 0 && b < words.length) ?? words.length
  const at = placeIn(words, lower)
  if (at < 0 || at + lower.split(/\s+/).length > end || end > ROLE_MAX_WORDS) return false
  // a clause that names other tools too ("`pnpm lint` runs ESLint, Stylelint and CSpell") states none of them as the one of its role
  // (one name read in two roles, "Cloudflare" in "Cloudflare Pages", is one tool)
  const named = [...new Set([...toolsIn(shape.sequence.slice(0, end)).values()].flatMap((byKey) => [...byKey.values()].map((t) => t.toLowerCase())))]
  return named.every((t) => t === lower || lower.includes(t) || t.includes(lower))
}

/**
 * same-role, same-version: what changed is named in passing — by a text of more than
 * NOTE_MAX_WORDS ("Type-aware ESLint over the whole repo takes about 90 seconds; run `pnpm lint
 * --cache` locally …", an observation of the currency set), or by one of more than ROLE_MAX_WORDS
 * anywhere but in its first clause, a short one ("Tax ids are encrypted at rest; never put them in
 * log lines … or Sentry breadcrumbs"), or when both texts are that long ("Background jobs run on
 * Sidekiq with Redis; …" / "Celery tasks must be idempotent: …", two projects' notes in one store of
 * paraphrase set 2). A short rule followed by why it changed names it there:
 * "Java services are built with Gradle (Kotlin DSL); the old pom files are kept only for the release
 * archive", "We moved frontend hosting to Cloudflare Pages; each push to main still triggers a
 * production deploy". Same-choice reads it too, beside `otherPartOfMessage` (2026-11-28). (`toolInPassing`,
 * the whole text's length, stays the guard of same-command and same-quantity: with the clause, long
 * notes naming a command were linked on real rules.)
 */
export const namedInPassing: Guard = {
  name: 'a value named in passing',
  refuses: ({newer, older}, m) => {
    const longest = Math.max(newer.sequence.length, older.sequence.length)
    if (longest <= ROLE_MAX_WORDS) return false
    // one short rule at least: two long texts that each name a tool first are two notes
    if (longest > NOTE_MAX_WORDS || Math.min(newer.sequence.length, older.sequence.length) > ROLE_MAX_WORDS || m.gained.length !== 1 || m.lost.length !== 1) return true
    // a text over ROLE_MAX_WORDS states it in its first clause, a short one
    return !((newer.sequence.length <= ROLE_MAX_WORDS || statedFirst(newer, m.gained[0])) && (older.sequence.length <= ROLE_MAX_WORDS || statedFirst(older, m.lost[0])))
  },
}

/** Words that say which end of a range a quantity bounds: a floor ("at least", "the oldest") or a ceiling ("at most", "capped"). */
const FLOOR_WORDS = new Set(['minimum', 'min', 'least', 'oldest', 'lowest', 'floor'])
const CEILING_WORDS = new Set(['maximum', 'max', 'most', 'highest', 'newest', 'ceiling', 'cap', 'caps', 'capped', 'limited', 'beyond', 'exceed', 'exceeds', 'exceeding', 'truncated'])
/** Two words that bound a value as one: "Node 18 and newer", "Python 3.9 or later", "up to 100 items", "no more than 5". */
const FLOOR_PAIRS = new Set(['and newer', 'or newer', 'and later', 'or later', 'and above', 'or above', 'or higher', 'and higher', 'and up', 'or more', 'no less', 'no fewer'])
const CEILING_PAIRS = new Set(['up to', 'no more', 'or less', 'or fewer', 'or lower', 'and below', 'or below', 'and older', 'or older'])
/** Words of a value a thing starts with, not a bound of it: "by default", "starts with 2 connections", "the initial size". */
const START_WORDS = new Set(['default', 'defaults', 'initial', 'initially', 'starts', 'start'])

interface Bounds {
  floor: boolean
  ceiling: boolean
  start: boolean
}

/** Words that compare a value with a number: more of it ("above 80%", "longer than 128 characters") or less ("under 50 lines"). */
const MORE_THAN = new Set(['above', 'over', 'past', 'more', 'longer', 'larger', 'greater', 'bigger', 'higher'])
const LESS_THAN = new Set(['below', 'under', 'less', 'fewer', 'shorter', 'smaller', 'lower'])
/** Words that say what lies beyond the number is refused or cut: "… longer than 128 characters are rejected", "… shorter than two characters return nothing". */
const REFUSAL_WORDS = new Set(['reject', 'rejected', 'rejects', 'refuse', 'refused', 'refuses', 'fail', 'fails', 'failed', 'error', 'errors', 'blocked', 'blocks', 'denied', 'nothing', 'split', 'disallowed', 'forbidden', 'avoid', 'trimmed', 'dropped', 'warn', 'warns', 'flag', 'flags', 'flagged', 'reported'])

/**
 * Whether a text bounds its value from below, from above, or states the value a thing starts with.
 * Without a word of either end, a comparison says it: the value is held above a number ("Keep
 * coverage above 80%") or what lies below it is refused ("CI fails when coverage drops below 90%",
 * "Queries shorter than two characters return nothing") is a floor; held below ("Keep functions
 * under 50 lines") or refused above ("Passwords longer than 128 characters are rejected", "Do not
 * chase coverage past 95%") is a ceiling.
 */
function boundsIn(sequence: readonly string[]): Bounds {
  const words = sequence.map((w) => w.toLowerCase())
  const pairs = words.slice(1).map((w, i) => `${words[i]} ${w}`)
  let floor = words.some((w) => FLOOR_WORDS.has(w)) || pairs.some((p) => FLOOR_PAIRS.has(p))
  let ceiling = words.some((w) => CEILING_WORDS.has(w)) || pairs.some((p) => CEILING_PAIRS.has(p))
  if (!floor && !ceiling) {
    const [more, less] = [words.some((w) => MORE_THAN.has(w)), words.some((w) => LESS_THAN.has(w))]
    if (more !== less) {
      const refused = words.some((w) => REFUSAL_WORDS.has(w) || NEGATIONS.has(w))
      floor = more !== refused
      ceiling = !floor
    }
  }
  return {floor, ceiling, start: words.some((w) => START_WORDS.has(w))}
}
/** Words of a quantity and of its bound, which any two quantities of a dimension may share: not what they measure. */
const MEASURE_WORDS = new Set(
  [
    ...UNIT_WORDS, ...NUMBER_WORD_SET, ...FLOOR_WORDS, ...CEILING_WORDS,
    'limit', 'limited', 'under', 'over', 'above', 'below', 'up', 'longer', 'shorter', 'more', 'less', 'fewer', 'than', 'after', 'within',
    // verbs a quantity of anything goes with: "… are retained for 14 days", "… expire after an hour"
    'retain', 'retained', 'expire', 'expires', 'valid', 'allow', 'allowed', 'last', 'lasts', 'take', 'takes', 'wait', 'waits', 'hold', 'held', 'store', 'stored',
  ]
    .flatMap((w) => [w, stem(w)]),
)

/**
 * same-quantity: the two texts share no word of what they measure (units, numbers, bounds and verbs
 * of use aside), even through the developer thesaurus: "Logs are kept for 30 days" / "Backups are
 * kept for 90 days" are two facts, each with its own quantity.
 */
export const noSharedMeasured: Guard = {
  name: 'nothing measured shared',
  refuses: ({newer, older}) => {
    // every word but the quantity's (names and soft values too: "The API …", "… indentation")
    const subject = (shape: FactShape) =>
      besideQuantities(shape)
        .filter((w) => contentWord(w) && !MEASURE_WORDS.has(w))
        .map(stem)
        .filter((w) => !VERBS_OF_USE.has(w) && !INSTRUCTION_WORDS.has(w) && !MEASURE_WORDS.has(w))
    return !sharesWord(subject(newer), subject(older))
  },
}

/**
 * One text bounds its value from below and the other from above — "Node 18 is the minimum" / "Node
 * 22 is the maximum we test", "at least 3 characters" / "at most 32 characters": the two ends of one
 * range, both true at once (a guard of every rule that reads one value for another).
 */
export const otherBound: Guard = {
  name: 'the other end of a range',
  refuses: ({newer, older}) => {
    const [a, b] = [boundsIn(newer.sequence), boundsIn(older.sequence)]
    const only = (x: Bounds, k: keyof Bounds) => x[k] && Object.entries(x).every(([key, on]) => key === k || !on)
    // floor / ceiling, or a default beside a bound of either end ("Pages hold 20 items by default" / "A client may ask for up to 100")
    return (only(a, 'floor') && only(b, 'ceiling')) || (only(a, 'ceiling') && only(b, 'floor')) || (only(a, 'start') && (only(b, 'ceiling') || only(b, 'floor'))) || (only(b, 'start') && (only(a, 'ceiling') || only(a, 'floor')))
  },
}

/** A text's words but those of its quantities, lowercased. */
function besideQuantities(shape: FactShape): string[] {
  const spans = quantitiesIn(shape.sequence)
  return shape.sequence.filter((_w, i) => !spans.some((q) => i >= q.at && i < q.end)).map((w) => w.toLowerCase())
}
const contentWord = (w: string) => /^\p{L}/u.test(w) && !STOP_WORDS.has(w)

/**
 * same-quantity: each text has a word of its own right before a word they share — "The API
 * timeout is 30 seconds" / "The job timeout is 600 seconds", "The Postgres connection pool holds 20
 * connections" / "The Redis connection pool …": the quantities of two things named alike.
 */
export const otherThingMeasured: Guard = {
  name: 'own word before a shared one',
  refuses: ({newer, older}) => {
    const before = (words: readonly string[]) => {
      const out = new Map<string, string>()
      words.forEach((w, i) => {
        if (i > 0 && contentWord(w) && contentWord(words[i - 1])) out.set(stem(w), stem(words[i - 1]))
      })
      return out
    }
    const [a, b] = [besideQuantities(newer), besideQuantities(older)]
    const [stemsA, stemsB] = [new Set(a.map(stem)), new Set(b.map(stem))]
    const [beforeA, beforeB] = [before(a), before(b)]
    for (const [w, x] of beforeA) {
      const y = beforeB.get(w)
      if (y !== undefined && x !== y && !stemsB.has(x) && !stemsA.has(y)) return true
    }
    return false
  },
}

/**
 * same-quantity: but for their quantities the two texts are one sentence with one slot of one to
 * three words each of their own — "Coverage must stay above 80% in the core library" / "… above 60%
 * in the CLI", "Indent YAML with two spaces" / "Indent Python with four spaces": one frame, said of
 * two things.
 */
export const oneSlotApart: Guard = {
  name: 'one frame, another slot',
  refuses: ({newer, older}) => {
    return oneSlotEach(besideQuantities(older), besideQuantities(newer), {shared: 2, slot: 3})
  },
}

/**
 * Whether two word lists are one frame — at least `shared` words alike at their start and end
 * together — with one slot each between, of one to `slot` words and a word of content: "Coverage
 * must stay above in [the core library]" / "… in [the CLI]".
 */
function oneSlotEach(a: readonly string[], b: readonly string[], {shared, slot}: {shared: number; slot: number}): boolean {
  let p = 0
  while (p < a.length && p < b.length && a[p] === b[p]) p++
  let q = 0
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++
  const [x, y] = [a.slice(p, a.length - q), b.slice(p, b.length - q)]
  return p + q >= shared && [x, y].every((ws) => ws.length >= 1 && ws.length <= slot && ws.some(contentWord))
}

/** Words that carve a case out of a rule: "Docs-only pull requests …", "… that only touch docs", "except hotfixes". */
const EXCEPTION_WORDS = new Set(['only', 'except', 'excepting', 'unless', 'exempt', 'besides'])

/** Words of a case that a rule lets through: "During an incident a hotfix PR can merge with one approval". */
const CASE_WORDS = new Set(['hotfix', 'hotfixes', 'emergency', 'emergencies', 'incident', 'incidents'])

/**
 * same-quantity: one text carves a case out of the other's rule — "Pull requests need two approvals"
 * / "Docs-only pull requests need one approval": an exception holds beside the rule it narrows.
 */
export const carvedOut: Guard = {
  name: 'an exception beside the rule',
  refuses: ({newer, older}) => {
    const carves = (shape: FactShape) => shape.sequence.some((w) => w.toLowerCase().split('-').some((part) => EXCEPTION_WORDS.has(part) || CASE_WORDS.has(part)))
    return carves(newer) !== carves(older)
  },
}

/** Words of the checks a codebase runs on its code, by check: "linted", "analysed", "vetted" / "formatted", "fmt" / "type-checked". */
const CODE_CHECKS: Readonly<Record<string, {prefix: readonly string[]; exact?: readonly string[]}>> = {
  lint: {prefix: ['lint', 'analys', 'analyz'], exact: ['vet', 'vets', 'vetted']},
  format: {prefix: ['format'], exact: ['fmt']},
  typecheck: {prefix: ['typecheck', 'type-check'], exact: []},
}

const CODE_CHECK_LIST = Object.entries(CODE_CHECKS).map(([check, {prefix, exact = []}]) => ({check, prefix, exact: new Set(exact)}))

/** The checks of the code a text names (read once per word sequence: the guard of every rule asks it of each pair). */
const codeChecksIn: (sequence: readonly string[]) => ReadonlySet<string> = oncePer((sequence: readonly string[]) => {
  const out = new Set<string>()
  for (const raw of sequence) {
    const w = raw.toLowerCase()
    for (const {check, prefix, exact} of CODE_CHECK_LIST) if (exact.has(w) || prefix.some((p) => w.startsWith(p))) out.add(check)
  }
  return out
})

/**
 * Each text names a check of the code the other does not — "Rust code is linted with Clippy" /
 * "Rust code is formatted with rustfmt", "Go code is vetted with staticcheck" / "… formatted with
 * gofmt": a linter beside a formatter, two facts (a guard of every rule).
 */
export const otherCodeCheck: Guard = {
  name: 'two checks of the code',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [codeChecksIn(newer.sequence), codeChecksIn(older.sequence)]
    return [...mine].some((c) => !theirs.has(c)) && [...theirs].some((c) => !mine.has(c))
  },
}

/** Words that say a command runs one thing of many: "Run one test with …", "a single example", "for given files", "targeted tests". */
const ONE_OF_MANY = new Set(['one', 'single', 'individual', 'specific', 'targeted', 'given'])

/**
 * same-command: one text runs one thing of many — "Run one test with `go test
 * -run TestName ./pkg/…`", "Run a single RSpec example: `bin/rspec spec/…:123`", a command with a
 * placeholder (`<file_path>`, `path/to/test.py`) — and the other does not ("`make test-verbose` runs
 * the unit and integration tests"): how to run one, beside how to run them all.
 */
export const oneOfMany: Guard = {
  name: 'one of many beside all',
  refuses: ({newer, older}) => {
    const one = (shape: FactShape) =>
      shape.sequence.some((w) => ONE_OF_MANY.has(w.toLowerCase())) || shape.values.some((v) => v.startsWith('q:') && /<[\w-]+>|\bpath\/to\b/.test(v))
    return one(newer) !== one(older)
  },
}

/**
 * same-words, wider, reworded: one text names a case carved out of the other's rule by a word that
 * says so (except, unless, exempt, besides) or a kind of thing made "only" of one ("Docs-only pull
 * requests do not need a test" beside "Every pull request needs a test"). A bare "only" is left out
 * here: in a rule that words the other nearly alike it says "and nothing else" ("Components are
 * exported by name only"), which is the rule changed.
 */
export const namedException: Guard = {
  name: 'a named exception beside the rule',
  refuses: ({newer, older}) => {
    const carves = (shape: FactShape) =>
      shape.sequence.some((w) => {
        const parts = w.toLowerCase().split('-')
        return parts.some((part) => part !== 'only' && EXCEPTION_WORDS.has(part)) || (parts.length > 1 && parts[parts.length - 1] === 'only')
      })
    return carves(newer) !== carves(older)
  },
}

/** Words after which a "for …" phrase has ended: the verb or the requirement that follows what it names. */
const END_OF_FOR = new Set(['is', 'are', 'was', 'be', 'must', 'should', 'stay', 'stays', 'has', 'have', 'get', 'gets', 'use', 'uses', 'and', 'or', 'but', 'because', 'since', 'so', 'when', 'with', 'which', 'that'])

/** The stems of what a text's "for …" phrases name, quantities and measures aside. */
const forQualifier = oncePer((shape: FactShape): string[] => {
  const words = besideQuantities(shape)
  const out: string[] = []
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== 'for') continue
    for (let j = i + 1; j < words.length && !END_OF_FOR.has(words[j]); j++) {
      const w = words[j]
      if (!contentWord(w) && !w.includes('/')) continue
      const s = stem(w)
      if (!MEASURE_WORDS.has(w) && !MEASURE_WORDS.has(s)) out.push(s)
    }
  }
  return out
})

/**
 * same-quantity and same-command: each text says what its quantity is for, and the two name nothing in common —
 * "Timeouts for database queries are 5 seconds" / "Timeouts for calls to the payment provider are 15
 * seconds", "Coverage must stay above 80% for the repository as a whole" / "… above 95% for the
 * `billing/` package": one measure of two things.
 */
export const otherThingFor: Guard = {
  name: 'a quantity for another thing',
  refuses: ({newer, older}) => {
    // the kind of part both name says nothing of which one: "for the app module" / "for the core module"
    const [mine, theirs] = [forQualifier(newer), forQualifier(older)].map((words) => words.filter((w) => !KINDS_OF_PART.has(w)))
    return mine.length > 0 && theirs.length > 0 && !sharesWord(mine, theirs)
  },
}

/** Stems of nouns that say what kind of part of a codebase a name is, not which: module, package, crate, service, … */
const KINDS_OF_PART = new Set(['module', 'package', 'crate', 'service', 'library', 'component', 'workspace', 'folder', 'directory', 'subproject'].map(stem))

/**
 * same-quantity: each quantity describes the word right after it, and those are two words — "the 4
 * GB worker" / "128 MB row groups", "4 GB workers" / "128 MB chunks": two things measured.
 */
export const otherNounMeasured: Guard = {
  name: 'a quantity of another noun',
  refuses: ({newer, older}) => {
    const after = (shape: FactShape) => {
      const [q] = quantitiesIn(shape.sequence)
      const w = q ? shape.sequence[q.end]?.toLowerCase() : undefined
      return w !== undefined && contentWord(w) ? stem(w) : null
    }
    const [a, b] = [after(newer), after(older)]
    return a !== null && b !== null && a !== b
  },
}

/** Words of a requirement on a runtime, whatever requires it: not a subject of its own. */
const REQUIREMENT_WORDS = new Set(
  [
    'project', 'repo', 'repository', 'codebase', 'code', 'we', 'our', 'this', 'everything', 'all', 'whole',
    'minimum', 'min', 'support', 'supported', 'runtime', 'version', 'versions', 'require', 'requires', 'required', 'need', 'needs',
    'newer', 'older', 'later', 'latest', 'earlier', 'above', 'higher', 'target', 'targets', 'toolchain', 'pin', 'pinned',
    'build', 'builds', 'built', 'compile', 'compiled', 'against', 'install', 'installed', 'upgrade', 'upgraded', 'bump', 'bumped',
    'default', 'lts', 'release', 'stable', 'oldest', 'lowest', 'nothing', 'anything', 'drop', 'dropped',
  ].map(stem),
)

/**
 * same-version: each text names a subject of its own besides the runtime and the words of a
 * requirement — "The web app builds on Node 20" / "The Lambda functions run on Node 18": one runtime
 * in two places, both true at once.
 */
export const ownSubjects: Guard = {
  name: 'a subject of its own each',
  refuses: ({newer, older}) => {
    const own = (shape: FactShape, other: FactShape) => {
      const mentions = versionsIn(shape.sequence)
      const theirs = new Set(other.sequence.map((w) => stem(w.toLowerCase())))
      const aside = wordsOfHow(shape, mentions)
      return shape.sequence.some((w, i) => {
        const word = w.toLowerCase()
        if (mentions.some((m) => i >= m.at && i < m.end) || aside.has(i) || !contentWord(word)) return false
        // the runtime's own kind ("The database is Postgres 15"): not a thing of its own
        if (mentions.some((m) => namesRoleOf(word, m.runtime))) return false
        const s = stem(word)
        return !theirs.has(s) && !REQUIREMENT_WORDS.has(s) && !VERBS_OF_USE.has(s) && !INSTRUCTION_WORDS.has(s)
      })
    }
    return own(newer, older) && own(older, newer)
  },
}

/** Stems of words that say a version is what a thing is built with, not what it supports: "Build with the iOS 18 SDK", "The build itself runs on JDK 21". */
const BUILD_WORDS = new Set(['build', 'built', 'builds', 'sdk', 'compile', 'compiles', 'compiled', 'compiler', 'toolchain'].map(stem))
/** Stems of words that say a version is the oldest supported: "The minimum supported iOS version is 16", "Java 8 is the runtime floor". */
const SUPPORT_WORDS = new Set(['minimum', 'min', 'floor', 'oldest', 'lowest', 'support', 'supports', 'supported'].map(stem))

/**
 * same-version: one text says the oldest version a thing supports and the other the version it is
 * built with — "The minimum supported iOS version is 16" / "Build with the iOS 18 SDK", "Java 8 is
 * the runtime floor for the published jar" / "The build itself runs on JDK 21": both true at once.
 */
export const buildBesideSupport: Guard = {
  name: 'the version built with beside the oldest supported',
  refuses: ({newer, older}) => {
    const has = (shape: FactShape, words: ReadonlySet<string>) => shape.sequence.some((w) => words.has(stem(w.toLowerCase())))
    const builds = (shape: FactShape) => has(shape, BUILD_WORDS) && !has(shape, SUPPORT_WORDS)
    const supports = (shape: FactShape) => has(shape, SUPPORT_WORDS) && !has(shape, BUILD_WORDS)
    return (builds(newer) && supports(older)) || (builds(older) && supports(newer))
  },
}

/** Words after a version that say how it is had or where it is written, not what runs on it: "Ruby 3.3 with YJIT", "Node 20 via nvm", "Ruby 3.1 (see `.ruby-version`)". */
const HOW_WORDS = new Set(['with', 'via', 'using', 'through', 'see', 'from', 'per'])

/** The places of the words a version mention's clause says after HOW_WORDS, up to the clause's end. */
function wordsOfHow(shape: FactShape, mentions: readonly {at: number; end: number}[]): Set<number> {
  const out = new Set<number>()
  for (const m of mentions) {
    const end = shape.breaks.find((b) => b > m.end) ?? shape.sequence.length
    const from = shape.sequence.findIndex((w, i) => i >= m.end && i < end && HOW_WORDS.has(w.toLowerCase()))
    if (from >= 0) for (let i = from; i < end; i++) out.add(i)
  }
  return out
}

/** Words that add to what another text says rather than replace it: "CI also tests Node 22". */
const ADDITION_WORDS = new Set(['also', 'too', 'additionally', 'plus'])

/** same-version: one text adds to the other ("Supports Node 18 and newer" / "CI also tests Node 22"): both hold. */
export const inAddition: Guard = {
  name: 'an addition, not a replacement',
  refuses: ({newer, older}) => adds(newer) !== adds(older),
}

/**
 * Whether a text holds a word that adds to another (once per shape: a guard of every rule). "too"
 * adds where it ends its clause ("CI tests Node 22 too"); before another word it says how much
 * ("mypy was too slow", "too many retries").
 */
const adds: (shape: FactShape) => boolean = oncePer((shape: FactShape) =>
  shape.sequence.some((w, i) => {
    const word = w.toLowerCase()
    if (!ADDITION_WORDS.has(word)) return false
    return word !== 'too' || i + 1 === shape.sequence.length || shape.breaks.includes(i + 1)
  }),
)

/**
 * same-command: each text names a task the other does not — "Run `npm test` and lint with it" is
 * not "Build the docs with `make docs`" — so the two commands are for two tasks, even where they
 * share one (a text for several tasks, "`make check` lints and tests", may replace one for a part
 * of them: "Tests are executed with `go test ./...`").
 */
export const tasksOfItsOwn: Guard = {
  name: 'a task of its own each',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [commandTasks(newer), commandTasks(older)]
    return [...mine].some((t) => !theirs.has(t)) && [...theirs].some((t) => !mine.has(t))
  },
}

/** Words that end what an imperative's verb acts on: "Lint the shell scripts | with `shellcheck`". */
const END_OF_OBJECT = new Set(['with', 'by', 'using', 'via', 'through', 'in', 'inside', 'on', 'from', 'before', 'after', 'when', 'whenever', 'once', 'for', 'to', 'into', 'under', 'and', 'or', 'across', 'per', 'at', 'so', 'if', 'unless', 'until', 'while', 'as', 'than', 'but'])

/** What an object may be without naming a thing of its own: "Format everything with …", "Lint the code with …". */
const ANY_OBJECT = new Set(['everyth', 'all', 'code', 'codebas', 'project', 'repo', 'repositori', 'sourc', 'file', 'chang', 'it', 'them', 'thi', 'whole', 'entir', 'everi', 'each', 'stuff', 'work'].map(stem))

/**
 * What an imperative text's verb acts on: its first word (not a word of instruction, "Use …") and
 * the stems of the content words after it, up to a word that ends the object, a verb that states
 * a fact, or the text's first command ("Regenerate | GraphQL types | with `pnpm codegen`"); null for a text that does not start
 * with a verb acting on something of its own, or whose object is any code at all. A text that starts
 * with a noun stops at the verb that follows it ("Logs | are retained …": no object): read as a verb,
 * "Logs are retained for 30 days" / "Log data is kept for two weeks" were two things.
 */
const objectOfVerb = oncePer((shape: FactShape): {verb: string; object: string[]} | null => {
  const seq = shape.sequence
  const first = seq[0]?.toLowerCase() ?? ''
  if (!/^\p{L}+(?:-\p{L}+)*$/u.test(first) || STOP_WORDS.has(first) || INSTRUCTION_WORDS.has(stem(first))) return null
  const command = commandsIn(shape)[0]?.at ?? seq.length
  const end = Math.min(command, shape.breaks.find((b) => b > 0) ?? seq.length)
  const object: string[] = []
  for (let i = 1; i < end; i++) {
    const w = seq[i].toLowerCase()
    if (END_OF_OBJECT.has(w) || STATING_VERBS.has(w)) break
    if (contentWord(w)) object.push(stem(w))
  }
  if (object.length === 0 || object.every((w) => ANY_OBJECT.has(w))) return null
  return {verb: stem(first), object}
})

/**
 * Verbs whose object is one more of several things a project does it to, not the one value of a
 * setting: it caches, logs, commits (or never commits), ignores or redacts several things at once.
 */
const ADDITIVE_VERBS = new Set(
  ['cache', 'caches', 'cached', 'log', 'logs', 'logged', 'commit', 'commits', 'committed', 'ignore', 'ignores', 'ignored', 'exclude', 'excludes', 'excluded', 'include', 'includes', 'track', 'tracks', 'tracked', 'redact', 'redacts', 'redacted', 'mask', 'masks', 'masked', 'encrypt', 'encrypts', 'encrypted', 'archive', 'archives', 'archived'],
)

/** Whether the word at `at` of a text stands in the object of an ADDITIVE_VERBS verb: after the verb, before a word that ends the object or the clause. */
function inObjectOfAdditiveVerb(shape: FactShape, at: number): boolean {
  if (at <= 0) return false
  const seq = shape.sequence
  const clauseStart = Math.max(0, ...shape.breaks.filter((b) => b <= at))
  for (let i = at - 1; i >= clauseStart; i--) {
    const w = seq[i].toLowerCase()
    if (ADDITIVE_VERBS.has(w)) return verbAt(seq, i, clauseStart)
    if (END_OF_OBJECT.has(w) || STATING_VERBS.has(w)) return false
  }
  return false
}

/** Verbs that state a fact of a subject: a word of ADDITIVE_VERBS before one is a noun ("Commit messages follow gitmoji", "Log lines are JSON"). */
const STATING_VERBS = new Set(['is', 'are', 'be', 'was', 'were', 'follow', 'follows', 'use', 'uses', 'go', 'goes', 'run', 'runs', 'live', 'lives', 'stay', 'stays', 'must', 'should', 'need', 'needs', 'get', 'gets', 'has', 'have', 'keep', 'keeps', 'start', 'starts', 'end', 'ends', 'look', 'looks', 'read', 'reads'])

/** Words before a noun, not a verb: "the cache holds …", "each commit …". */
const DETERMINERS = new Set(['the', 'a', 'an', 'each', 'every', 'this', 'that', 'these', 'those', 'our', 'its', 'their', 'your', 'any', 'all', 'no'])
/** Words a verb of ADDITIVE_VERBS comes after: "Never commit …", "We also log …", "… must be cached". */
const BEFORE_VERB = new Set([...NEGATIONS, 'always', 'also', 'only', 'do', 'does', 'must', 'should', 'to', 'we', 'you', 'please', 'automatically', 'and', 'or', 'be', 'is', 'are', 'get', 'gets'])

/**
 * Whether a word of ADDITIVE_VERBS at `i` is a verb: first in its clause ("Cache …"), after a word
 * that comes before verbs ("Never commit …"), or a form a noun does not take after another word
 * ("CI caches …"); not after a determiner ("the cache holds …") nor, in the form a noun takes, after
 * another noun ("the audit log keeps …").
 */
function verbAt(seq: readonly string[], i: number, clauseStart: number): boolean {
  if (i === clauseStart) return true
  const before = seq[i - 1].toLowerCase()
  if (DETERMINERS.has(before)) return false
  if (BEFORE_VERB.has(before)) return true
  const w = seq[i].toLowerCase()
  return /(?:s|ed)$/.test(w) && !/ss$/.test(w)
}

/**
 * same-words, wider, reworded and same-frame: what changed is, in both texts, what a verb of a list
 * acts on — "Never log request bodies" / "Always log request IDs", "CI caches `node_modules` between
 * runs" / "CI caches the Playwright browsers between runs", "Never commit `.pem` files" / "Never
 * commit `.p12` files": one more thing cached, logged or kept out, both true at once.
 */
export const addedObject: Guard = {
  name: 'one more object of the same action',
  refuses: ({newer, older}, m) => {
    if (m.slot) return inObjectOfAdditiveVerb(older, m.slot.p) && inObjectOfAdditiveVerb(newer, m.slot.p)
    // the values that changed, a soft one (the word that ends a clause: "…, ever") aside where a hard one changed too
    const [gained, lost] = [m.gained.some(isHard) ? m.gained.filter(isHard) : m.gained, m.lost.some(isHard) ? m.lost.filter(isHard) : m.lost]
    return gained.length > 0 && gained.every((k) => inObjectOfAdditiveVerb(newer, valueAt(newer, k))) && lost.every((k) => inObjectOfAdditiveVerb(older, valueAt(older, k)))
  },
}

/** Words that open the next step of a procedure: "Then write the rollback …", "Next, run …". */
const NEXT_STEP = new Set(['then', 'next', 'afterwards', 'afterward', 'finally', 'second', 'lastly'])
/** Words that say a step ended well, in a first clause of "if" or "once": "If the dry run passes", "Once the download finishes". */
const STEP_ENDED = new Set(['pass', 'passes', 'passed', 'succeeds', 'succeeded', 'finishes', 'finished', 'completes', 'completed', 'green', 'done', 'lands', 'landed', 'approved'])

/**
 * A step of a procedure beside the step before it: a text that opens with a word of the next step
 * ("Then write the matching rollback in `down.sql`") or whose verb acts on what another text made
 * ("Run it with `rake db:migrate`", "Commit them with …"). It goes on from another text; it
 * does not replace one.
 */
export const nextStep: Guard = {
  name: 'the next step of a procedure',
  refuses: ({newer, older}) => [newer, older].some(isNextStep),
}

const isNextStep = oncePer((shape: FactShape): boolean => {
  const [first, second] = [shape.sequence[0]?.toLowerCase(), shape.sequence[1]?.toLowerCase()]
  if (first === undefined) return false
  if (NEXT_STEP.has(first) || (first === 'after' && (second === 'that' || second === 'this'))) return true
  // a first clause on how the step before it ended: "If the dry run passes, …", "Once the download finishes, …"
  if (first === 'if' || first === 'once') {
    const end = shape.breaks.find((b) => b > 0) ?? shape.sequence.length
    if (shape.sequence.slice(1, end).some((w) => STEP_ENDED.has(w.toLowerCase()))) return true
  }
  // an imperative whose object is a pronoun: "Run it with …", "Commit them …"
  return second !== undefined && ['it', 'them'].includes(second) && /^\p{L}+$/u.test(first) && !STOP_WORDS.has(first)
})

/**
 * same-command and same-quantity: both texts tell one verb of the task to act on a thing each
 * names and the other does not — "Lint the shell scripts with `shellcheck scripts/*.sh`" / "Lint the Python code with
 * `ruff check .`", "Regenerate GraphQL types with `pnpm codegen`" / "Regenerate the Prisma client
 * with `pnpm prisma generate`": one task done to two things, each with its own command.
 */
export const otherObjectOfVerb: Guard = {
  name: 'one verb for two things',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [objectOfVerb(newer), objectOfVerb(older)]
    return mine !== null && theirs !== null && mine.verb === theirs.verb && !sharesWord(mine.object, theirs.object)
  },
}

/**
 * same-command: the two commands run one program, and the words where they part say no task they
 * share: two commands of one tool, side by side — two targets ("`cargo test -p core`" / "`cargo test
 * -p cli`", "`pnpm dev:api`" / "`pnpm dev:worker`"), two actions ("`alembic revision --autogenerate`" creates a migration, "`alembic upgrade
 * head`" applies it; "`docker compose up`" / "`docker compose down -v`"); or two programs each naming
 * a target of its own that says no task ("`make test-volox`" / "`just test-vomix`"). Flags
 * changed, another subcommand for one task ("`cargo test`" → "`cargo nextest run`"), or another
 * program ("`npm install`" → "`pnpm i`") are the command changed.
 */
/** Words of a command that say to run something, not what: "npm run …", "pnpm exec …", "uv run …". */
const RUNNING_WORDS = new Set(['run', 'exec', 'x', 'dlx'])

export const otherTarget: Guard = {
  name: 'another use of a program, or another target',
  refuses: (pair) => {
    const parts = commandPartsApart(pair)
    if (!parts) return false
    const {sameProgram, own, theirs, mine, their} = parts
    // one program: its two uses share no task; two programs: each names a target of its own, and neither a task
    // ("`make test-volox`" / "`just test-vomix`"), where another program for one task says the task or nothing more
    if (sameProgram) return ![...mine].some((t) => their.has(t))
    return own.length > 0 && theirs.length > 0 && mine.size === 0 && their.size === 0
  },
}

/**
 * The one command each text gives, where they part: the words of each after the program (flags and
 * words of running aside: "dev:api" is "dev" and "api") that the other lacks, and the tasks those
 * name. Null unless each text gives one command and they differ past the program.
 */
function commandPartsApart({newer, older}: Pair): {sameProgram: boolean; own: string[]; theirs: string[]; mine: Set<string>; their: Set<string>} | null {
  const [given, taken] = [commandsIn(newer), commandsIn(older)]
  // (a guard of every pair asks it of texts that may give no command)
  if (given.length !== 1 || taken.length !== 1) return null
  const [[a], [b]] = [given, taken]
  const parts = (key: string) => key.split(' ').slice(1).filter((w) => !w.startsWith('-')).flatMap(commandParts).filter((w) => !RUNNING_WORDS.has(w))
  const [x, y] = [parts(a.key), parts(b.key)]
  const [own, theirs] = [x.filter((w) => !y.includes(w)), y.filter((w) => !x.includes(w))]
  if (own.length === 0 && theirs.length === 0) return null
  const [mine, their] = [new Set(own.flatMap((part) => [...tasksOfCommandWord(part, a.program)])), new Set(theirs.flatMap((part) => [...tasksOfCommandWord(part, b.program)]))]
  return {sameProgram: a.program === b.program, own, theirs, mine, their}
}

/**
 * Each text gives one command of one program, with a word of its own in each naming tasks they do
 * not share — "Run `make lint` before pushing" / "Run `make test` before pushing", "`npx prisma
 * migrate dev`" / "`npx prisma generate`": two steps side by side, for every rule (same-words,
 * wider and reworded read the commands as values). A command that only adds to the other ("`rake
 * db:seed`" → "`rake db:seed:replant`") or takes another program is the command changed.
 */
export const otherTaskOfProgram: Guard = {
  name: 'two tasks of one program',
  refuses: (pair) => {
    const parts = commandPartsApart(pair)
    if (!parts?.sameProgram || parts.own.length === 0 || parts.theirs.length === 0) return false
    return parts.mine.size > 0 && parts.their.size > 0 && ![...parts.mine].some((t) => parts.their.has(t))
  },
}

/**
 * same-command: the two programs belong to two ecosystems — "`cargo fmt`" formats Rust, "`terraform
 * fmt -recursive`" Terraform; "`cmake --build --target format`" / "`composer format`": one task for
 * two languages of a project, side by side. A program of any project (make, just, a script) may
 * replace one of an ecosystem ("`cargo fmt --all`" → "`just fmt`").
 */
export const otherEcosystem: Guard = {
  name: 'programs of two ecosystems',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [commandsIn(newer), commandsIn(older)]
    if (mine.length !== 1 || theirs.length !== 1) return false
    const [x, y] = [ecosystemOf(mine[0].program), ecosystemOf(theirs[0].program)]
    return x !== null && y !== null && x !== y
  },
}

/**
 * same-choice: the convention's options say how, not what — a case style, classes or functions —
 * and the two texts share no word of what they are about (the words of the choice, verbs of use and
 * instruction aside), even through the developer thesaurus: "Variables are camelCase" / "Database
 * columns are snake_case" are two conventions side by side.
 */
export const noSharedSubjectOfChoice: Guard = {
  name: 'nothing chosen about shared',
  refuses: ({newer, older}) => {
    const changed = changedChoice(newer, older)
    if (!changed?.mine.needsSubject) return false
    return !sharesWord(subjectOfChoice(newer, changed), subjectOfChoice(older, changed))
  },
}

/** Stems of the words of the parts of a message a style is for, by part: a commit's message, subject or summary line are one; a title, a body, a footer others. */
const PARTS_OF_MESSAGE: ReadonlyMap<string, string> = new Map(
  Object.entries({message: ['message', 'subject', 'summary'], title: ['title'], body: ['body', 'description'], footer: ['footer']}).flatMap(([part, words]) =>
    words.map((w) => [stem(w), part] as const),
  ),
)

/**
 * same-choice: each text says which part of a message its style is for, and they name different
 * parts — "PR titles follow Conventional Commits and always carry a scope, …" / "Commit messages
 * start with a capitalized imperative verb …": a style for each, side by side.
 */
export const otherPartOfMessage: Guard = {
  name: 'styles of two parts of a message',
  refuses: ({newer, older}) => {
    const parts = (shape: FactShape) => new Set(shape.sequence.flatMap((w) => PARTS_OF_MESSAGE.get(stem(w.toLowerCase())) ?? []))
    const [mine, theirs] = [parts(newer), parts(older)]
    return mine.size > 0 && theirs.size > 0 && ![...mine].some((p) => theirs.has(p))
  },
}

/** Words of any convention, which say nothing of what it is about: "Environment variable names are …" / "CSS class names are …". */
const CONVENTION_WORDS = new Set(['name', 'style', 'case', 'convent', 'format', 'code', 'upper', 'lower'])

/** A text's words of what its choice is about: its core words less the choice's, verbs of use, instruction and convention words. */
function subjectOfChoice(shape: FactShape, changed: {mine: {shown: string}; theirs: {shown: string}}): string[] {
  const chosen = new Set([changed.mine.shown, changed.theirs.shown].flatMap((t) => t.toLowerCase().split(/\s+/)).map(stem))
  return shape.core.filter((w) => !chosen.has(w) && !VERBS_OF_USE.has(w) && !INSTRUCTION_WORDS.has(w) && !CONVENTION_WORDS.has(w) && !NEGATIONS.has(w) && w !== 'avoid')
}

/** Stems of words that name a kind of file or place in a codebase, where an exception to a ban lives: "Route page files", "Storybook stories", "legacy scripts". */
const PLACES_IN_CODE = new Set(
  ['file', 'files', 'page', 'pages', 'route', 'routes', 'story', 'stories', 'script', 'scripts', 'module', 'modules', 'component', 'components', 'fixture', 'fixtures', 'migration', 'migrations', 'folder', 'folders', 'directory', 'directories', 'package', 'packages', 'legacy', 'vendor', 'vendored', 'generated', 'example', 'examples', 'template', 'templates', 'test', 'tests', 'spec', 'specs', 'config', 'configs'].map(stem),
)

/**
 * Stems of words that name who or what case a ban on everyone lets through: "The release bot pushes version
 * bumps directly to `main`", "Release managers may push … straight to main", "a hotfix during an incident".
 */
const EXCEPTION_HOLDERS = new Set(
  ['bot', 'bots', 'dependabot', 'renovate', 'automation', 'manager', 'managers', 'maintainer', 'maintainers', 'admin', 'admins', 'administrator', 'administrators', 'owner', 'owners', ...CASE_WORDS].map(stem),
)

/**
 * same-choice: one text bans an option for everything (it names nothing but the choice: "Never use
 * default exports") and the other takes it for a kind of file or place it names ("Route page files
 * are the one place a default export is required", "Storybook story files keep their default
 * export"), or for someone or some case it names ("Never commit directly to `main`" / "The release
 * bot commits version bumps directly to `main`"): the exception beside the rule.
 */
export const exceptionToBan: Guard = {
  name: 'a ban and its exception',
  refuses: ({newer, older}) => {
    const changed = changedChoice(newer, older)
    if (!changed) return false
    const banAll = (shape: FactShape, choice: {shown: string}) => subjectOfChoice(shape, changed).length === 0 && choice.shown.startsWith('not ')
    const names = (shape: FactShape) => subjectOfChoice(shape, changed).some((w) => PLACES_IN_CODE.has(w))
    if ((banAll(older, changed.theirs) && names(newer)) || (banAll(newer, changed.mine) && names(older))) return true
    // the ban's words in the other (all but one: "straight" / "directly"), which names who or what case it lets through
    const chosen = [changed.mine.shown, changed.theirs.shown].flatMap((t) => t.toLowerCase().split(/\s+/)).map(stem)
    const subject = (shape: FactShape) => subjectOfChoice(shape, changed).filter((w) => !chosen.some((c) => w.startsWith(c)))
    const letsThrough = (ban: FactShape, choice: {shown: string}, other: FactShape) =>
      choice.shown.startsWith('not ') && other.core.some((w) => EXCEPTION_HOLDERS.has(w)) && subject(ban).filter((w) => !other.core.includes(w)).length <= 1
    return letsThrough(older, changed.theirs, newer) || letsThrough(newer, changed.mine, older)
  },
}

/**
 * same-choice: but for their choices the two texts are one sentence with one slot each of their own
 * — "Interfaces describe public contracts" / "Type aliases describe unions and mapped types": two
 * choices, each for its own thing.
 */
export const otherUse: Guard = {
  name: 'one frame, each choice for its own thing',
  refuses: ({newer, older}) => {
    const changed = changedChoice(newer, older)
    if (!changed) return false
    const beside = (shape: FactShape, shown: string) => {
      const chosen = new Set(shown.toLowerCase().split(/\s+/))
      return shape.sequence.map((w) => w.toLowerCase()).filter((w) => !chosen.has(w))
    }
    return oneSlotEach(beside(older, changed.theirs.shown), beside(newer, changed.mine.shown), {shared: 1, slot: 4})
  },
}

/**
 * same-choice: a text names a kind of branch the other does not — "Pull requests to main are
 * squash-merged" / "Merges from a release branch back to main keep a merge commit": a policy for
 * that kind beside the general one (feature branches are the branches all work is on: no kind).
 */
export const otherBranches: Guard = {
  name: 'policies of two kinds of branch',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [branchKindsIn(newer.sequence), branchKindsIn(older.sequence)]
    return [...mine].some((k) => !theirs.has(k)) || [...theirs].some((k) => !mine.has(k))
  },
}

/**
 * same-choice: each text names a kind of file or place in the code the other does not — "Library
 * packages use named exports" / "Page files in the app router export their component as the
 * default": a choice for each kind of file, side by side.
 */
export const otherPlaces: Guard = {
  name: 'choices for two kinds of file',
  refuses: ({newer, older}) => {
    const places = (shape: FactShape) => new Set(shape.core.filter((w) => PLACES_IN_CODE.has(w)))
    const [mine, theirs] = [places(newer), places(older)]
    return [...mine].some((w) => !theirs.has(w)) && [...theirs].some((w) => !mine.has(w))
  },
}

/**
 * Each text names a thing of its own — a path, a quoted name, an identifier, a flag (a value of a
 * strong kind the other text does not hold) — besides the value the rule reads as changed:
 * "Coverage must stay above 80% for `packages/core`" / "… above 60% for `packages/cli`", "Android
 * `minSdkVersion` is 24" / "Android `targetSdkVersion` is 34": one frame said of two things, each
 * with its own value, both true at once. An update changes the value of one thing.
 */
export const otherThingNamed: Guard = {
  name: 'another thing named by each',
  refuses: (pair, m) => {
    // same-frame reads a slot, not values: the values each text states and the other does not
    const [gained, lost] = m.slot ? [pair.gained.filter(isHard), pair.lost.filter(isHard)] : [m.gained, m.lost]
    return thingOfItsOwn(pair.newer, pair.older, gained) && thingOfItsOwn(pair.older, pair.newer, lost)
  },
}

/**
 * Whether `shape` holds a strong value `other` does not, beside the value `read` changed (the words
 * a rule shows, or the values of the same-words rule: of those, the numbers when it reads a number
 * and a name, "2, yaml → 4, python", where the name is the thing whose number changed).
 */
function thingOfItsOwn(shape: FactShape, other: FactShape, read: readonly string[]): boolean {
  const theirs = new Set(other.values.map(bodyOf))
  const asValues = read.length > 0 && read.every((r) => /^[a-z]:/.test(r))
  const weak = asValues ? read.filter((r) => !STRONG_KINDS.has(kindOf(r))) : []
  const shown = (weak.length > 0 ? weak : read).map((r) => (asValues ? bodyOf(r) : r.toLowerCase()))
  return shape.values.some((v) => {
    if (!isHard(v) || !STRONG_KINDS.has(kindOf(v)) || theirs.has(bodyOf(v))) return false
    const body = bodyOf(v)
    return !shown.some((s) => s === body || s.includes(body) || body.includes(s))
  })
}

/** Words that say a quoted name is a part of the codebase: "the `cli` crate", "the `payments` service", "the `server` repository". */
const PARTS_OF_CODEBASE = new Set(['crate', 'crates', 'package', 'packages', 'repo', 'repos', 'repository', 'repositories', 'service', 'services', 'app', 'apps', 'application', 'module', 'modules', 'workspace', 'workspaces', 'library', 'libraries', 'project', 'folder', 'directory', 'branch', 'branches'])
const PLACE_WORDS = new Set(['in', 'inside', 'within', 'under'])

/**
 * The parts of the codebase a text says it is about, by a quoted name: one the text opens with ("In
 * `packages/server`, …", "Inside the `core` crate …") or one a word of a part follows ("the `cli`
 * crate", "The `payments` service owns …").
 */
const namedPartsOf = oncePer((shape: FactShape): Set<string> => {
  const out = new Set<string>()
  const seq = shape.sequence.map((w) => w.toLowerCase())
  for (const v of shape.values) {
    if (!v.startsWith('q:')) continue
    const body = bodyOf(v)
    const length = body.split(/\s+/).length
    // each place the name stands as written: not across the end of a clause ("… with uv; add packages with `uv add`")
    for (let at = placeIn(seq, body); at >= 0; at = placeIn(seq, body, at + 1)) {
      if (shape.breaks.some((b) => b > at && b < at + length)) continue
      let before = at - 1
      while (before >= 0 && ARTICLES.has(seq[before])) before--
      const opens = before === 0 && PLACE_WORDS.has(seq[0])
      const forPath = before >= 0 && (seq[before] === 'for' || seq[before] === 'on') && body.includes('/')
      if (opens || forPath || PARTS_OF_CODEBASE.has(seq[at + length] ?? '')) out.add(body)
    }
  }
  return out
})

/**
 * Each text is about a part of the codebase it names and the other does not, and says something else
 * of it — "In the `cli` crate, errors use anyhow" / "In the `core` library crate, errors are typed
 * enums built with thiserror", "The `payments` service owns the `invoices` table" / "The `accounts`
 * service owns the `users` table": a rule for each part, side by side (a guard of every rule). The
 * same sentence said of another part ("The `billing` service owns the `invoices` table") is the
 * thing moved: an update.
 */
export const otherNamedPart: Guard = {
  name: 'another part of the codebase named',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [namedPartsOf(newer), namedPartsOf(older)]
    if (mine.size === 0 || theirs.size === 0 || [...mine].some((p) => theirs.has(p))) return false
    return restOf(newer, mine) !== restOf(older, theirs)
  },
}

/**
 * A text's words but where it writes the names given and words of no meaning (negations kept), in
 * order of the alphabet: what it says besides the names ("Run `cargo test -p lexer` to test the
 * lexer": "lexer", "test").
 */
function restOf(shape: FactShape, names: Iterable<string>): string {
  const seq = shape.sequence.map((w) => w.toLowerCase())
  const named = new Set<number>()
  for (const name of names) {
    const length = name.split(/\s+/).length
    const at = placeIn(seq, name)
    if (at >= 0) for (let i = at; i < at + length; i++) named.add(i)
  }
  return seq.filter((w, i) => !named.has(i) && (!STOP_WORDS.has(w) || NEGATIONS.has(w))).sort().join(' ')
}

/** A command's targets — the word after a flag ("-p parser", "--filter web"), a path ("./api/...") — and the command without them. */
function targetsOf(key: string): {targets: string[]; rest: string} {
  const words = key.split(' ')
  const isTarget = (w: string, i: number) => i > 0 && !w.startsWith('-') && (words[i - 1].startsWith('-') || w.includes('/'))
  return {targets: words.filter(isTarget), rest: words.filter((w, i) => !isTarget(w, i)).join(' ')}
}

/**
 * Each text gives one command, the same but for a target of its own — the word after a flag, a path
 * ("`cargo test -p parser`" / "`cargo test -p codegen`") — and the texts say something else besides
 * ("… to test the parser" / "… to test the code generator"): the same command for two parts, side by
 * side (a guard of every rule). The same text with another target is the target changed.
 */
export const otherTargetSaidOtherwise: Guard = {
  name: 'one command for two targets, said of each',
  refuses: (pair) => {
    const [given, taken] = [commandsIn(pair.newer), commandsIn(pair.older)]
    if (given.length !== 1 || taken.length !== 1) return false
    const [a, b] = [targetsOf(given[0].key), targetsOf(taken[0].key)]
    if (a.rest !== b.rest || a.targets.length === 0 || b.targets.length === 0 || a.targets.some((t) => b.targets.includes(t))) return false
    const quoted = (shape: FactShape) => shape.values.filter((v) => v.startsWith('q:')).map(bodyOf)
    return restOf(pair.newer, quoted(pair.newer)) !== restOf(pair.older, quoted(pair.older))
  },
}

/**
 * Each text states a quantity and none of one text's is of a dimension of the other's: "The cache
 * keeps entries for 10 minutes" / "The cache holds at most 5,000 entries", "Retry webhook deliveries
 * up to 5 times" / "Give up on a webhook after 24 hours": two things measured (a time, a count), each
 * with its number, not one number changed (read before every rule).
 */
export const otherDimension: Guard = {
  name: 'quantities of two dimensions',
  refuses: ({newer, older}) => {
    const [mine, theirs] = [quantitiesIn(newer.sequence), quantitiesIn(older.sequence)]
    if (mine.length === 0 || theirs.length === 0) return false
    const dims = new Set(theirs.map((q) => q.dim))
    return !mine.some((q) => dims.has(q.dim))
  },
}

/** The stem of "names" / "name", as the own-places of a pair hold it. */
const NAMES = stem('names')

/**
 * same-choice: a naming convention of another thing — each text has a word of its own right before
 * "names" ("Database table names use PascalCase" / "Write database column names in snake_case"):
 * two conventions, both true at once. ownWordBeforeShared narrowed to the naming word: on any shared
 * word it refused right choices too (docs/currency.md).
 */
export const otherThingNamedByConvention: Guard = {
  name: 'names of another thing',
  refuses: (pair, m) => {
    const {mine, theirs} = placesOf(pair, m)
    return mine.adjacent.has(NAMES) && theirs.adjacent.has(NAMES)
  },
}

/**
 * The newer gains only soft words (the plain words ending a clause), or words naming what a command
 * both texts quote does, while both quote that thing — a command, a path, a flag: "Run `pnpm test`
 * before pushing; CI runs the same" / "To run the tests, run `pnpm test`", "Always run `pnpm
 * typecheck` after changing types" / "To type-check, run `pnpm typecheck`" say two things of one
 * command, not a new value of one subject. An update states a new value; here the thing both quote
 * stays. (A name both state is most often the subject itself: "Manage Python dependencies with
 * Poetry" → "… with uv".)
 */
export const softBesideSameValue: Guard = {
  name: 'only soft words gained beside a thing both quote',
  refuses: ({newer, older}, m) => {
    const quoted = (v: string) => QUOTED_KINDS.has(kindOf(v))
    const theirs = new Set(older.values.filter(quoted).map(bodyOf))
    const both = newer.values.filter((v) => quoted(v) && theirs.has(bodyOf(v)))
    if (both.length === 0) return false
    // what the commands both quote do ("pnpm typecheck": typecheck)
    const tasks = new Set(commandsIn(newer).filter((c) => both.some((v) => bodyOf(v) === c.key.toLowerCase())).flatMap((c) => c.key.split(' ').slice(1).flatMap(commandParts).flatMap((w) => [...tasksOfCommandWord(w, c.program)])))
    // a word, not a thing quoted: a flag added to the command is a new value ("`--prefer-offline`")
    const namesTask = (v: string) => !quoted(v) && commandParts(bodyOf(v)).some((w) => [...tasksOfCommandWord(w)].some((t) => tasks.has(t)))
    return m.gained.every((v) => !isHard(v) || namesTask(v))
  },
}

/** Kinds of value a text quotes or writes as code: quoted text and commands, paths, flags. */
const QUOTED_KINDS: ReadonlySet<string> = new Set(['q', 'p', 'f'])
