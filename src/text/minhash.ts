/**
 * MinHash banding for near-duplicate candidates: memories whose word-shingle sets are ≥ 0.9
 * similar share at least one band key with probability ≥ 0.99 (4 bands of 3 hashes), so a store
 * looks up four keys instead of comparing against every memory. Candidates are then verified with
 * the exact Jaccard similarity.
 */
import {ROLES, toolsIn} from './roles.js'
import {QUANTITY_DIMENSIONS, quantitiesIn} from './quantities.js'
import {RUNTIME_NAMES, versionsIn} from './versions.js'
import {commandTasks, TASK_NAMES} from './commands.js'
import {choicesIn, CONVENTION_NAMES} from './choices.js'
import {shinglesOf} from './shingles.js'
import {factShape, factShapeOf, subjectKeys, valueKeys, type FactShape} from './values.js'
import {keptBy} from './kept.js'

export const BANDS = 4
const ROWS = 3
const SEEDS = Array.from({length: BANDS * ROWS}, (_, i) => mix(0x9e3779b9 ^ (i * 0x85ebca6b)))

function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

type ContentKeys = {shingles: ReadonlySet<string>; bands: readonly number[]; values: readonly number[]; lookups: readonly number[]; shape: FactShape}

/**
 * The shingle set and keys of a memory's content: `bands`, the near-duplicate and subject keys a
 * store finds its duplicates and updates by; `values`, the keys of the values it states
 * (values.ts `valueKeys`), held in the band table only while a newer version updates the memory
 * (storedKeys), so that a revert in other words finds it; `lookups`, a key for each role of a tool
 * it names (roles.ts: "Sentry" is error tracking), so that a store finds the memory naming another
 * tool of the role (the same-role rule), and one for the dimension of the one quantity it states
 * (quantities.ts: "30 days" is a duration), so that a store finds the memory stating another amount
 * of it (the same-quantity rule), and one for the runtime of the one version it names (versions.ts:
 * "Node 18"), for the same-version rule, and one for each task of the one command it gives
 * (commands.ts: "`rake db:migrate`" migrates), for the same-command rule, and one for each
 * convention it chooses (choices.ts: "Squash commits when merging"), for the same-choice rule; looked up apart and capped (many memories name a database
 * or a duration). A store computes them twice for the
 * same text (the gates, then the band index), so the last answers are kept. Callers must not
 * modify what they get.
 */
export function contentBands(content: string, {keep = false}: {keep?: boolean} = {}): ContentKeys {
  // `keep`: among the kept shapes (values.ts factShapeOf), as a store keeps the text it stores
  // (later stores read it as a candidate); not maintenance, which runs every memory it forgets
  // through here and would fill them with texts no store looks at again
  shapeFor = keep ? factShapeOf : factShape
  return recentKeys(content)
}

/** How the next text missing from `recentKeys` is read (set by contentBands just before it asks). */
let shapeFor: (text: string) => FactShape = factShape

/**
 * The answers for the texts asked lately: a store asks twice for a text (the gates, then the band
 * index), and a team replica once more for each text of its batch when it applies the batch as
 * committed (repo-store.ts drainReplica, at most 64 writes).
 */
const recentKeys = keptBy((content: string): ContentKeys => {
  const shingles = shinglesOf(content)
  const shape = shapeFor(content)
  // the near-duplicate keys, then the subject keys (values.ts) that find updates of a fact
  const bands = [...new Set([...bandKeys(shingles), ...subjectKeys(shape)])]
  const quantities = quantitiesIn(shape.sequence)
  const versions = versionsIn(shape.sequence)
  const lookups = [
    ...[...toolsIn(shape.sequence).keys()].map(roleKey),
    // the dimension of a text's one quantity (quantities.ts): the same-quantity rule's candidates
    ...(quantities.length === 1 ? [quantityKey(quantities[0].dim)] : []),
    // the runtime of a text's one version (versions.ts): the same-version rule's candidates
    ...(versions.length === 1 ? [versionKey(versions[0].runtime)] : []),
    // the tasks of a text's one command (commands.ts): the same-command rule's candidates
    ...[...commandTasks(shape)].map(taskKey),
    // the conventions a text chooses (choices.ts): the same-choice rule's candidates
    ...[...choicesIn(shape).keys()].map(choiceKey),
  ]
  return {shingles, shape, bands, values: valueKeys(shape).filter((k) => !bands.includes(k)), lookups}
}, 64)

const roleKey = (role: string) => fnv1a(`role\u0000${role}`)
const quantityKey = (dimension: string) => fnv1a(`quantity\u0000${dimension}`)
const versionKey = (runtime: string) => fnv1a(`version\u0000${runtime}`)
const taskKey = (task: string) => fnv1a(`command\u0000${task}`)
const choiceKey = (convention: string) => fnv1a(`choice\u0000${convention}`)

/**
 * Every key a role, a quantity's dimension, a version's runtime, a command's task or a convention gives
 * (`lookups` of contentBands): a store looks them up apart, the newest few each; maintenance does not group memories by them
 * (the memories naming a database or a duration are thousands, not a near-duplicate group: at 100k
 * memories, grouping by them made the dedup stage 16 times slower and doubled its peak memory).
 */
export const LOOKUP_KEYS: ReadonlySet<number> = new Set([
  ...ROLES.map((line) => roleKey(line.slice(0, line.indexOf(':')))),
  ...QUANTITY_DIMENSIONS.map(quantityKey),
  ...RUNTIME_NAMES.map(versionKey),
  ...TASK_NAMES.map(taskKey),
  ...CONVENTION_NAMES.map(choiceKey),
])

/** The value keys of a text (kept shapes: a store links the memories its gates just read). */
export function valueKeysOf(content: string): readonly number[] {
  return valueKeys(factShapeOf(content))
}

/** The keys the band table holds for a live memory: its bands, its value keys while a newer version updates it, and its lookup keys. */
export function storedKeys(content: string, updated: boolean): readonly number[] {
  const {bands, values, lookups} = contentBands(content)
  return [...bands, ...(updated ? values : []), ...lookups]
}

/** The band keys of a shingle set (empty for an empty set). */
export function bandKeys(shingles: Iterable<string>): number[] {
  const mins = new Array<number>(BANDS * ROWS).fill(0xffffffff)
  let any = false
  for (const s of shingles) {
    any = true
    const base = fnv1a(s)
    for (let i = 0; i < mins.length; i++) {
      const v = mix(base ^ SEEDS[i])
      if (v < mins[i]) mins[i] = v
    }
  }
  if (!any) return []
  const keys: number[] = []
  for (let b = 0; b < BANDS; b++) {
    let h = mix(0x1234567 + b)
    for (let r = 0; r < ROWS; r++) h = mix(h ^ mins[b * ROWS + r])
    // signed 32-bit, as SQLite stores it compactly
    keys.push(h | 0)
  }
  return keys
}
