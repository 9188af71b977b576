/**
 * Currency's rules, as an engine of named parts: whether a newer text updates an older one (the
 * same subject with another value), restates it, or says something else. Each rule finds a pair
 * its way (rules below, tried in order: UPDATE_RULES); each of its guards (guards.ts) may refuse
 * what it found, and a refused pair goes on to the next rule. Pure functions over the shapes of
 * text/values.ts; stores (gates/duplicates.ts) and maintenance (maintenance/dedup.ts) ask them.
 * See docs/currency.md.
 */
import {factShape, isHard, kindOf, sameValues, valuesOnly, type FactShape} from '../../text/values.js'
import {
  addressed,
  anotherKind,
  fewShared,
  fewWordsRestated,
  fewWordsShared,
  littleBeforeSlot,
  nameOfSubject,
  negationInSlot,
  noSharedSubject,
  oneWordNoLikeValue,
  otherLabel,
  otherScope,
  otherValues,
  ownWordBeforeShared,
  ownWordsBetweenSame,
  question,
  slotAfterContentWord,
  slotStatesNothing,
  valueOutsideSlot,
  bodyOf,
  commandAndName,
  toolsInCommands,
  toolInPassing,
  namedInPassing,
  noSharedMeasured,
  otherBound,
  otherThingMeasured,
  oneSlotApart,
  carvedOut,
  namedException,
  otherCodeCheck,
  oneOfMany,
  otherNounMeasured,
  ownSubjects,
  inAddition,
  tasksOfItsOwn,
  otherTarget,
  otherEcosystem,
  otherObjectOfVerb,
  addedObject,
  otherThingFor,
  nextStep,
  otherNamedPart,
  otherTargetSaidOtherwise,
  otherPartOfMessage,
  buildBesideSupport,
  noSharedSubjectOfChoice,
  otherBranches,
  exceptionToBan,
  otherUse,
  otherPlaces,
  otherThingNamed,
  otherDimension,
  otherTaskOfProgram,
  type Guard,
  type Match,
  otherThingNamedByConvention,
  softBesideSameValue,
} from './guards.js'
import {Pair, placeIn, shownList, slotOf, withNames} from './pair.js'
import {oncePer} from '../../text/once.js'
import {toolKeysIn, toolsIn} from '../../text/roles.js'
import {quantitiesIn} from '../../text/quantities.js'
import {versionsIn} from '../../text/versions.js'
import {commandsIn, commandTasks} from '../../text/commands.js'
import {changedChoice} from '../../text/choices.js'

export {Pair} from './pair.js'

/** Which rule found an update. */
export type UpdateKind = 'same-words' | 'wider' | 'reworded' | 'same-frame' | 'same-role' | 'same-quantity' | 'same-version' | 'same-command' | 'same-choice' | 'retired' | 'first-sentence'

export interface UpdateRelation {
  /**
   * Which rule found it: `same-words` (only values differ), `wider` (one wording adds words to the
   * other), `reworded` (most words shared, one value changed), `same-frame` (one sentence, one
   * slot of it changed) or `same-role`
   * (one tool of a role replaced by another of the same role: text/roles.ts) or `same-quantity` (one
   * limit, duration, size or count of one thing, in other words: text/quantities.ts) or
   * `same-version` (one runtime required at another version, in other words: text/versions.ts) or
   * `same-command` (another command for one task, in other words: text/commands.ts) or
   * `same-choice` (another option of one convention: text/choices.ts) or
   * `retired` (the newer says a thing the older names is gone: "… and TypeORM has been removed") or
   * `first-sentence` (the newer's first sentence updates the older by a rule of words, and the rest adds to it).
   */
  kind: UpdateKind
  /** What changed, as people read it: `'e_' → 'j_'`. */
  reason: string
}

/** A named rule: how it finds a pair, the guards that may refuse it, and what changed as people read it. */
export interface Rule<K extends string = UpdateKind> {
  kind: K
  find(pair: Pair): Match | null
  guards: readonly Guard[]
  reason(pair: Pair, match: Match): string
}

/** The values that changed, as people read them: `'e_' → 'j_'`. */
const changed = ({newer, older}: Pair, m: Match) => `${shownList(older, [...m.lost])} → ${shownList(newer, [...m.gained])}`

/**
 * same-words: the core words are identical (at least one) and the newer states a value the older
 * does not: "CI runs on Node 18" → "CI runs on Node 20".
 */
export const sameWords: Rule = {
  kind: 'same-words',
  find: (p) => (p.gained.length > 0 && p.shared >= 1 && p.shared === p.union ? {gained: p.gained, lost: p.lost} : null),
  guards: [oneWordNoLikeValue, nameOfSubject, otherBound, namedException, otherThingNamed, addedObject, softBesideSameValue],
  reason: changed,
}

/**
 * wider: one text's core words are all in the other's, and exactly one value changed: "CI runs the
 * tests on Node 18" → "Our CI pipeline runs the tests on Node 20".
 */
export const wider: Rule = {
  kind: 'wider',
  find: (p) => (p.gained.length === 1 && p.lost.length === 1 && p.shared >= 1 && p.shared === Math.min(p.a.size, p.b.size) ? {gained: p.gained, lost: p.lost} : null),
  guards: [anotherKind, fewShared, nameOfSubject, otherBound, namedException, addedObject, softBesideSameValue],
  reason: changed,
}

/**
 * reworded: each text has words of its own, one hard value changed (soft values aside: "with the
 * --headed flag" / "use --ui"), most words shared: "Convention: class names end with _K" →
 * "Always suffix class names with _T".
 */
export const reworded: Rule = {
  kind: 'reworded',
  find: (p) => {
    const [gained, lost] = [p.hardGained, p.hardLost]
    if (gained.length !== 1 || lost.length !== 1) return null
    return {gained, lost, named: {a: withNames(p.newer, p.a, p.older), b: withNames(p.older, p.b, p.newer)}}
  },
  guards: [anotherKind, fewWordsShared, addressed, otherLabel, ownWordBeforeShared, ownWordsBetweenSame, nameOfSubject, otherBound, namedException, otherEcosystem, addedObject],
  reason: changed,
}

/**
 * same-frame: the two sentences are word for word the same but for one slot of one to three words,
 * where a value may be a word no other rule reads as one: "Format the code with Biome on save" →
 * "… with dprint on save", "boolean variables start with is" → "… with has".
 */
export const sameFrame: Rule = {
  kind: 'same-frame',
  find: (p) => {
    const slot = slotOf(p.older, p.newer)
    return slot ? {gained: [], lost: [], slot} : null
  },
  guards: [littleBeforeSlot, slotStatesNothing, negationInSlot, slotAfterContentWord, valueOutsideSlot, otherBound, otherThingNamed, addedObject],
  reason: ({newer, older}, m) => {
    const {a, p, q} = m.slot!
    return `${older.sequence.slice(p, a.length - q).join(' ')} → ${newer.sequence.slice(p, newer.sequence.length - q).join(' ')}`
  },
}

/**
 * The cosine of two texts' vectors (the built-in model's) at or above which a memory is a candidate
 * for an update of the other beside those its words find (currency/meaning.ts); the rules of words
 * decide. Chosen on the currency set and the pair sets of test/bench/currency/pairs.mjs
 * (docs/currency.md, "With meaning").
 */
export const SAME_SUBJECT_COSINE = 0.75

/**
 * same-role: each text names one tool of a role (text/roles.ts) and not the other's — "Errors are
 * reported to Sentry" → "Production errors go to Rollbar", "Lint with ESLint before pushing" →
 * "The linter is Biome". A project has one tool in such a role at a time, so that is the rule
 * changed, in words that may share little and that a meaning model may find far apart. The guards
 * refuse two tools of a role named about two things (no word of the subject shared), or for two
 * scopes ("Frontend errors go to Sentry" / "Backend errors go to Rollbar").
 */
export const sameRole: Rule = {
  kind: 'same-role',
  find: ({newer, older}) => {
    const mine = toolsIn(newer.sequence)
    if (mine.size === 0) return null
    const theirs = toolsIn(older.sequence)
    const [myKeys, theirKeys] = [toolKeysIn(mine), toolKeysIn(theirs)]
    for (const [role, tools] of mine) {
      const other = theirs.get(role)
      if (!other || tools.size !== 1 || other.size !== 1) continue
      const [[gained, shownNew]] = tools
      const [[lost, shownOld]] = other
      if (gained === lost || theirKeys.has(gained) || myKeys.has(lost)) continue
      return {gained: [shownNew], lost: [shownOld]}
    }
    return null
  },
  guards: [namedInPassing, commandAndName, toolsInCommands, noSharedSubject, ownWordBeforeShared],
  reason: swapped,
}

/** What replaced what, as each text writes it: `Sentry → Rollbar`, `30 days → a week`. */
function swapped(_pair: Pair, m: Match): string {
  return `${m.lost.join(', ')} → ${m.gained.join(', ')}`
}

/**
 * The one mention `read` finds in each text (a quantity, a version), when the two are one thing
 * with another value (`changed`): what each text wrote there, as the match of a rule.
 */
function oneChanged<T extends {at: number; end: number}>({newer, older}: Pair, read: (sequence: readonly string[]) => readonly T[], changed: (mine: T, theirs: T) => boolean): Match | null {
  const [mine, theirs] = [read(newer.sequence), read(older.sequence)]
  if (mine.length !== 1 || theirs.length !== 1 || !changed(mine[0], theirs[0])) return null
  return {gained: [shownSpan(newer.sequence, mine[0])], lost: [shownSpan(older.sequence, theirs[0])]}
}

/** A mention as the text writes it; a long one (words of a requirement between: "Go toolchain is pinned at 1.20") by its first and last word. */
function shownSpan(sequence: readonly string[], {at, end}: {at: number; end: number}): string {
  return end - at > 3 ? `${sequence[at]} ${sequence[end - 1]}` : sequence.slice(at, end).join(' ')
}

/**
 * same-quantity: each text states one quantity (a number and its unit: text/quantities.ts) of one
 * dimension, and another amount of it — "Logs are kept for 30 days" → "We retain log data for a
 * week", "Keep functions under 50 lines" → "A function longer than thirty lines should be split",
 * "Indent with two spaces" → "Use four-space indentation". The units and numbers are said in other
 * words that share nothing as values; the guards refuse two quantities of two things (no word of
 * what is measured shared, two scopes, own words before the shared one) or the two ends of a range.
 */
export const sameQuantity: Rule = {
  kind: 'same-quantity',
  find: (pair) => oneChanged(pair, quantitiesIn, (a, b) => a.dim === b.dim && Math.abs(a.value - b.value) > 1e-9 * Math.max(a.value, b.value)),
  guards: [toolInPassing, noSharedMeasured, otherThingMeasured, oneSlotApart, otherNounMeasured, otherBound, carvedOut, otherThingNamed, otherThingFor, otherObjectOfVerb],
  reason: swapped,
}

/**
 * same-version: each text names one runtime (language, toolchain, database, framework, OS image:
 * text/versions.ts) with a version, the same runtime and another version — "Node 18 is the minimum
 * supported runtime" → "Requires Node.js 20 or newer", "We target Python 3.9" → "The codebase
 * needs CPython 3.12 or later". The guards refuse one runtime in two places (a subject of its own
 * each: two scopes are that too), the two ends of a range, an addition ("CI also tests Node 22")
 * and an exception.
 */
export const sameVersion: Rule = {
  kind: 'same-version',
  find: (pair) => oneChanged(pair, versionsIn, (a, b) => a.runtime === b.runtime && a.version !== b.version) ?? stackChanged(pair) ?? oldVersionRetired(pair),
  guards: [namedInPassing, ownSubjects, otherBound, carvedOut, buildBesideSupport],
  reason: swapped,
}

/**
 * The same runtimes, each once in each text, some at another version: "We support Ruby 2.7 and Rails
 * 6.1" → "The app runs on Ruby 3.3 with Rails 7.2" (a stack upgraded at once).
 */
function stackChanged({newer, older}: Pair): Match | null {
  const [mine, theirs] = [versionsIn(newer.sequence), versionsIn(older.sequence)]
  if (mine.length < 2 || mine.length !== theirs.length) return null
  const runtimes = new Set(mine.map((m) => m.runtime))
  if (runtimes.size !== mine.length || !theirs.every((t) => runtimes.has(t.runtime))) return null
  const changed = mine.flatMap((m) => {
    const t = theirs.find((x) => x.runtime === m.runtime)!
    return t.version === m.version ? [] : [[m, t] as const]
  })
  if (changed.length === 0) return null
  return {gained: changed.map(([m]) => shownSpan(newer.sequence, m)), lost: changed.map(([, t]) => shownSpan(older.sequence, t))}
}

/**
 * The older names one runtime at a version; the newer says that version is gone and names the
 * runtime at one other: "PHP 8.1 is the lowest version we support" → "PHP 8.1 is no longer
 * supported; composer.json requires PHP 8.2", "The iOS app supports iOS 15 and newer" → "We dropped
 * iOS 15; the deployment target is iOS 16".
 */
function oldVersionRetired({newer, older}: Pair): Match | null {
  const theirs = versionsIn(older.sequence)
  if (theirs.length !== 1) return null
  const [old] = theirs
  const mine = versionsIn(newer.sequence).filter((m) => m.runtime === old.runtime)
  const gone = mine.filter((m) => m.version === old.version)
  const fresh = [...new Set(mine.filter((m) => m.version !== old.version).map((m) => m.version))]
  if (gone.length === 0 || fresh.length !== 1) return null
  const words = newer.sequence.map((w) => w.toLowerCase())
  const said = gone.some((m) => retiringClauses(newer).some((clause) => placeIn(clause, words.slice(m.at, m.end).join(' ')) >= 0))
  if (!said) return null
  return {gained: [shownSpan(newer.sequence, mine.find((m) => m.version === fresh[0])!)], lost: [shownSpan(older.sequence, old)]}
}

/**
 * same-command: each text gives one command (text/commands.ts), another command, for a task both
 * name — "Apply migrations with `rake db:migrate`" → "Schema changes are applied by running `rails
 * db:migrate`", "Install dependencies with `npm install`" → "Set up node_modules by running
 * `pnpm i`", "Run `make check` before opening a PR" → "Before you ask for review, `just ci` must
 * pass". A project has one command for a task at a time. The guards refuse two tasks (each text
 * names one the other does not), two scopes ("`npm run dev`" for development / "`npm start`" in
 * production), two targets of one program (`cargo test -p core` / `cargo test -p cli`), programs of
 * two ecosystems (`cargo fmt` / `terraform fmt`), an addition and an exception.
 */
export const sameCommand: Rule = {
  kind: 'same-command',
  find: ({newer, older}) => {
    const [mine, theirs] = [commandsIn(newer), commandsIn(older)]
    if (mine.length !== 1 || theirs.length !== 1 || mine[0].key === theirs[0].key) return null
    const theirTasks = commandTasks(older)
    return [...commandTasks(newer)].some((t) => theirTasks.has(t)) ? {gained: [mine[0].shown], lost: [theirs[0].shown]} : null
  },
  guards: [toolInPassing, tasksOfItsOwn, otherTarget, otherEcosystem, carvedOut, oneOfMany, otherObjectOfVerb, otherThingFor],
  reason: swapped,
}

/**
 * same-choice: the two texts choose another option of one convention (text/choices.ts) —
 * "Squash commits when merging" → "Merge pull requests with a merge commit", "Use default exports
 * for components" → "Export each component under its own name". A project holds one choice of a
 * convention at a time (the other stance on a practice, "Do not use enums" / "Enums are fine in
 * …", is not read: it was a rule beside its exception more often than the rule reversed). The guards refuse a choice named in passing (a text of more
 * than 15 words that does not state it in a short first clause: `namedInPassing`), styles of two
 * parts of a message (a PR title, a commit message), two scopes, a choice about two things (`noSharedSubjectOfChoice`), a ban and its exception for one kind of
 * thing, one frame with each choice for its own thing, choices for two kinds of file, a policy for
 * one kind of branch beside the general one, an addition and an exception.
 */
export const sameChoice: Rule = {
  kind: 'same-choice',
  find: ({newer, older}) => {
    const changed = changedChoice(newer, older)
    return changed ? {gained: [changed.mine.shown], lost: [changed.theirs.shown]} : null
  },
  guards: [namedInPassing, otherPartOfMessage, noSharedSubjectOfChoice, exceptionToBan, otherUse, otherPlaces, otherBranches, carvedOut, otherThingNamed, otherThingNamedByConvention],
  reason: swapped,
}

/** Words that say a thing named before them is gone: "TypeORM has been removed", "axios was dropped", "Black is no longer installed", "`app/old/` is legacy". */
const RETIRED_WORDS = new Set(['removed', 'dropped', 'deprecated', 'retired', 'legacy', 'frozen', 'obsolete', 'replaced', 'deleted', 'gone', 'sunset', 'abandoned', 'discontinued', 'uninstalled', 'decommissioned', 'revoked', 'anymore', 'longer'])
/**
 * Words that say the thing named right after them is gone: "use pnpm instead of npm", "Vitest
 * replaces Jest", "add no new Redux slices", "Staging moved off Heroku". (Not "moved from" or
 * "switched from": history told in passing, "ADR 0007 records why we moved from npm", docs/currency.md.)
 */
const RETIRED_BEFORE = new Set(['instead of', 'rather than', 'in place of', 'replaces', 'replacing', 'no new', 'moved off', 'migrated off'])
/** Words between such a cue and its thing: "instead of the old compose workflow". */
const ON_THE_WAY = new Set(['a', 'an', 'the', 'old', 'older', 'bare', 'plain', 'our', 'any'])

/**
 * The things a text names — its tools, the paths and commands it quotes, a quoted command's program, and the names it writes as
 * names (a capital inside a sentence, or an identifier: "Distillery", "DocSearch", values.ts) —
 * lowercased, each with how the text writes it (once per shape).
 */
const thingsNamed: (shape: FactShape) => ReadonlyMap<string, string> = oncePer((shape: FactShape) => {
  const tools = [...toolsIn(shape.sequence).values()].flatMap((byKey) => [...byKey.values()])
  const quoted = shape.values.filter((v) => v.startsWith('q:') || v.startsWith('p:')).map((v) => v.slice(2))
  // the program a quoted command runs: "`openocd -f board.cfg`" names openocd
  const programs = quoted.map((q) => /^([a-z][\w.-]*) \S/i.exec(q)?.[1]).filter((p): p is string => p !== undefined)
  // a runtime at a version, as the text writes it: "Java 11", "Kotlin 1.8"
  const versions = versionsIn(shape.sequence).map(({at, end}) => shape.sequence.slice(at, end).join(' '))
  // last: the thing found gone is the first that matches ("Kotlin 1.9", not the name "Kotlin")
  const names = shape.values.filter((v) => v.startsWith('w:') || v.startsWith('i:')).map((v) => shape.shown.get(v) ?? v.slice(2))
  const out = new Map<string, string>()
  for (const t of [...tools, ...quoted, ...versions, ...names, ...programs]) if (t.length > 1 && !out.has(t.toLowerCase())) out.set(t.toLowerCase(), t)
  return out
})

/** The clauses of a text (its words, lowercased, between the marks that end a clause) that say something is gone (once per shape: most say nothing of it). */
const retiringClauses: (shape: FactShape) => readonly string[][] = oncePer((shape: FactShape) => {
  const words = shape.sequence.map((w) => w.toLowerCase())
  const ends = [...shape.breaks.filter((b) => b < words.length), words.length]
  return ends.map((end, i) => words.slice(i === 0 ? 0 : ends[i - 1], end)).filter((c) => c.length > 0 && saysGone(c))
})

/** Whether a clause holds a word that says a thing is gone (RETIRED_WORDS, RETIRED_BEFORE, addsNoMore). */
function saysGone(clause: readonly string[]): boolean {
  return clause.some((w, i) => RETIRED_WORDS.has(w) || RETIRED_BEFORE.has(w) || (i > 0 && RETIRED_BEFORE.has(`${clause[i - 1]} ${w}`)) || addsNoMore(clause, i))
}

/** Whether "add new" ends at `i` after a negation: "do not add new Sequelize models", "never add new Redux slices" (what is kept, and grows no more). */
function addsNoMore(clause: readonly string[], i: number): boolean {
  return i > 0 && clause[i - 1] === 'add' && clause[i] === 'new' && clause.slice(Math.max(0, i - 3), i - 1).some((w) => w === 'not' || w === 'never' || w === "don't")
}

/** Words before "replaced" that make it passive: "Jest was replaced by Vitest" (the thing before it is gone). */
const PASSIVE = new Set(['was', 'were', 'is', 'are', 'be', 'been', 'being', 'got', 'gets', 'get'])

/** Whether `i` is an active "replaced", whose thing gone comes after it: "`mix release`, which replaced Distillery", "Vitest replaced Jest". */
function replacedActive(clause: readonly string[], i: number): boolean {
  return clause[i] === 'replaced' && i > 0 && !PASSIVE.has(clause[i - 1])
}

/** Which of `things` a clause says is gone: named before a word of RETIRED_WORDS, or right after a cue of RETIRED_BEFORE. */
function retiredIn(clause: readonly string[], things: readonly string[]): string | undefined {
  for (let i = 0; i < clause.length; i++) {
    if (RETIRED_WORDS.has(clause[i])) {
      // "no longer": the thing before it; "longer" alone is a comparison ("longer than 80 lines")
      if (clause[i] === 'longer' && clause[i - 1] !== 'no') continue
      const before = clause.slice(0, i)
      const gone = things.find((t) => placeIn(before, t) >= 0)
      if (gone) return gone
    }
    const cue = i > 0 ? `${clause[i - 1]} ${clause[i]}` : ''
    if (RETIRED_BEFORE.has(cue) || RETIRED_BEFORE.has(clause[i]) || addsNoMore(clause, i) || replacedActive(clause, i)) {
      let at = i + 1
      while (at < clause.length && ON_THE_WAY.has(clause[at])) at++
      const gone = things.find((t) => placeIn(clause, t, at) === at)
      if (gone) return gone
    }
  }
  return undefined
}

/**
 * retired: the newer text says a thing the older names is gone — its tool, a path or a command it
 * quotes (or the program such a command runs), a name ("Distillery"), a runtime at a version ("Java 11"): named before "removed", "dropped", "deprecated", "no
 * longer", "legacy", "decommissioned", "anymore", or right after
 * "instead of", "rather than", "replaces", an active "replaced", "no new", "moved off", a negated "add new" — and states something the older does not: "The ORM
 * is TypeORM" → "Database access goes through Drizzle; … TypeORM has been removed", "Use Black for
 * formatting" → "Python formatting is `ruff format`; Black is no longer installed", "Put new modules
 * under `app/old/`" → "… under `app/core/`; `app/old/` is legacy and frozen". A text that retires
 * what the other states is its update, whatever words it shares with it.
 */
export const retired: Rule = {
  kind: 'retired',
  find: ({newer, older}) => {
    const clauses = retiringClauses(newer)
    if (clauses.length === 0) return null
    const [mine, theirs] = [thingsNamed(newer), thingsNamed(older)]
    const fresh = [...mine.keys()].filter((t) => !theirs.has(t))
    if (fresh.length === 0 || theirs.size === 0) return null
    for (const clause of clauses) {
      const gone = retiredIn(clause, [...theirs.keys()])
      if (gone) return {gained: [mine.get(replacementOf(gone, newer, older, fresh))!], lost: [theirs.get(gone)!]}
    }
    return null
  },
  guards: [noSharedSubject],
  reason: swapped,
}

/**
 * Of the things the newer names and the older does not (lowercased), the one in a role of the thing
 * gone when there is one, else the first: "React components are tested with Testing Library;
 * Enzyme is no longer used" replaced Enzyme with Testing Library, not React.
 */
function replacementOf(gone: string, newer: FactShape, older: FactShape, fresh: readonly string[]): string {
  const named = (tools: ReadonlyMap<string, string>) => [...tools.values()].map((t) => t.toLowerCase())
  const roles = new Set([...toolsIn(older.sequence)].filter(([, tools]) => named(tools).includes(gone)).map(([role]) => role))
  const inRole = [...toolsIn(newer.sequence)].filter(([role]) => roles.has(role)).flatMap(([, tools]) => named(tools))
  return fresh.find((t) => inRole.includes(t)) ?? fresh[0]
}

/**
 * The rules `firstSentence` tries on the newer's first sentence: those of words and values, and
 * another amount of one quantity or another version of one runtime (their guards read the short
 * sentence for a shared subject). Not same-role or same-command: an observation names its tool or
 * command first ("Type-aware ESLint over the whole repo takes about 90 seconds. …"), and with them
 * the currency set linked 5 pairs of other memories.
 */
const SENTENCE_RULES: readonly Rule[] = [sameWords, sameFrame, sameQuantity, sameVersion]

/** The shape of a text's first sentence (FactShape `lead`, which the caller checks is there), read once per shape. */
const leadShape: (shape: FactShape) => FactShape = oncePer((shape: FactShape) => factShape(shape.lead!))

/**
 * first-sentence: the newer's first sentence updates the older by one of SENTENCE_RULES, and the
 * sentences after it add to it — "The Android app has `minSdkVersion 21`" → "The
 * Android app has `minSdkVersion 24`; devices older than Android 7 are no longer supported", "Mock
 * HTTP in tests with `nock`" → "Mock HTTP in tests with `msw`; `nock` does not intercept native
 * fetch". Real edits often change a rule's value and say why in a second sentence, which the
 * rules comparing whole texts count as words and values of another fact. (The guards read before
 * every rule read the whole texts: two scopes, an addition, a question.)
 */
export const firstSentence: Rule = {
  kind: 'first-sentence',
  find: ({newer, older}) => {
    if (newer.lead === undefined) return null
    const lead = leadShape(newer)
    // against the older whole, then against its own first sentence when it has more
    for (const theirs of older.lead === undefined ? [older] : [older, leadShape(older)]) {
      const first = new Pair(lead, theirs)
      // a first sentence is short: an update of it changes one value, not a sentence of other values
      if (first.gained.filter(isHard).length > 1 || first.lost.filter(isHard).length > 1) continue
      // the guards of every pair read the sentences compared too: "To build, run `pnpm build`" (of
      // a text whose aside quotes the script) and "Run `pnpm test` before pushing" are two tasks
      if (PAIR_GUARDS.some((g) => g.refuses(first, NOTHING))) continue
      for (const rule of SENTENCE_RULES) {
        const found = applyRule(rule, first)
        if (found) return {gained: [found.reason], lost: []}
      }
    }
    return null
  },
  guards: [],
  reason: (_pair, m) => m.gained[0],
}

/** The update rules, in the order they are tried. */
export const UPDATE_RULES: readonly Rule[] = [
  sameWords,
  wider,
  reworded,
  sameFrame,
  sameRole,
  sameQuantity,
  sameVersion,
  sameCommand,
  sameChoice,
  retired,
  firstSentence,
]

/** Guards of every update rule: read before any rule. */
export const PAIR_GUARDS: readonly Guard[] = [question, inAddition, otherScope, otherCodeCheck, otherDimension, otherTaskOfProgram, nextStep, otherNamedPart, otherTargetSaidOtherwise]

const NOTHING: Match = {gained: [], lost: []}

/** What a rule finds in a pair that none of its guards refuses, or null. */
export function applyRule<K extends string>(rule: Rule<K>, pair: Pair): {kind: K; reason: string} | null {
  const m = rule.find(pair)
  if (m === null) return null
  for (const g of rule.guards) if (g.refuses(pair, m)) return null
  return {kind: rule.kind, reason: rule.reason(pair, m)}
}

/** The first rule that finds an update in a pair, none of its guards refusing. */
export function updateOf(pair: Pair): UpdateRelation | null {
  for (const g of PAIR_GUARDS) if (g.refuses(pair, NOTHING)) return null
  for (const rule of UPDATE_RULES) {
    const found = applyRule(rule, pair)
    if (found) return found
  }
  return null
}

/**
 * Whether `newer` states the same subject as `older` with another value: an update. Null for
 * another subject, or the same values (a restatement or a duplicate).
 */
export function updateRelation(newer: FactShape, older: FactShape): UpdateRelation | null {
  return updateOf(new Pair(newer, older))
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
 * Whether two texts alike as texts say one thing: the same values, and neither an update of the
 * other in one sentence (one slot of one sentence changed is another value even where no rule
 * reads a value: "boolean variables start with is" / "… with has").
 */
export function sayTheSame(a: FactShape, b: FactShape): boolean {
  return sameValues(a, b) && applyRule(sameFrame, new Pair(a, b)) === null && applyRule(sameFrame, new Pair(b, a)) === null
}

/**
 * restates: a value both texts state whole and none changed — the values one text states that the
 * other does not are what it found ("Vitest" is not the `npx vitest run` of another text).
 * "Production errors go to Honeybadger" restates "Errors are reported to Honeybadger". A store uses
 * it to carry a revert across wordings: when the older has a newer version since, stating its
 * value again updates that version.
 */
export const restatement: Rule<'restates'> = {
  kind: 'restates',
  find: ({newer, older}) => {
    // most pairs (maintenance compares every pair a key groups) share no value: out before any set
    // is made — by comparing each with each while that is cheap, through a set when the texts state many
    const shareOne =
      newer.values.length * older.values.length <= 64
        ? newer.values.some((v) => isHard(v) && older.values.some((o) => isHard(o) && o.length === v.length && bodyOf(o) === bodyOf(v)))
        : ((bodies) => newer.values.some((v) => isHard(v) && bodies.has(bodyOf(v))))(new Set(older.values.filter(isHard).map(bodyOf)))
    if (!shareOne) return null
    const olderBodies = new Set(older.values.filter(isHard).map(bodyOf))
    const newerBodies = new Set(newer.values.filter(isHard).map(bodyOf))
    return {gained: newer.values.filter((v) => isHard(v) && !olderBodies.has(bodyOf(v))), lost: older.values.filter((v) => isHard(v) && !newerBodies.has(bodyOf(v)))}
  },
  // with the same value, words between the same neighbours are most often the verb said another
  // way ("errors are reported to" / "errors go to"): only a word right before a shared one counts
  guards: [question, otherValues, fewWordsRestated, ownWordBeforeShared],
  reason: () => 'the same value',
}

/** The rules of a restatement. */
export const RESTATEMENT_RULES: ReadonlyArray<Rule<'restates'>> = [
  restatement,
]

/** Whether `newer` states what `older` states in other words (restatement). */
export function restates(newer: FactShape, older: FactShape): boolean {
  const pair = new Pair(newer, older)
  return RESTATEMENT_RULES.some((rule) => applyRule(rule, pair) !== null)
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
