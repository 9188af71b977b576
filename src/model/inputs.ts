/**
 * One contract per input: the bounds of what the faces take, written once. Every check reads them
 * from here: the zod schemas of the declarations (schemas.ts, and through them HTTP, OpenAPI and
 * MCP), the hand-written checks of the paths that start without zod (`mem recall` and `mem stats`:
 * the functions below), the CLI's flags and help, the client's defaults and the web UI's fields.
 *
 * It imports only memory.ts (which imports nothing), so the client and the web UI, which take
 * nothing else of src but types, may take values from it (test/architecture holds this).
 * test/model/inputs.test.ts holds that each hand-written check accepts and refuses exactly what
 * its zod schema does.
 */
import {MEMORY_TYPES, type MemoryType} from './memory.js'

/** Recall: the query, how many results. */
export const RECALL_LIMITS = {
  /** The longest query, in Unicode code points (as zod counts a string's length: a surrogate pair is one). */
  maxQueryChars: 4_000,
  minLimit: 1,
  maxLimit: 100,
  defaultLimit: 10,
} as const

/**
 * The HTTP header a request names its repo in (the project's client sends it; a replica reads it as
 * a hint, and a load balancer may route on it: docs/team.md, "Routing a repo to one replica").
 */
export const REPO_HEADER = 'X-Mem-Repo'

/** The longest reason a forget may give. */
export const MAX_FORGET_REASON_CHARS = 500

/** "1 to 100": how the faces word the range of recall's `limit`. */
export const RECALL_LIMIT_RANGE = `${RECALL_LIMITS.minLimit} to ${RECALL_LIMITS.maxLimit}`

/** Recall's input as the operation takes it (RecallInput in schemas.ts parses to the same). */
export interface RecallArgs {
  repo: string
  q: string
  limit: number
  type?: MemoryType
  touch?: boolean
}

type Fields = Record<string, unknown>

/** A string's length in code points, as zod's max() counts it (a lone surrogate is one). */
function codePoints(s: string): number {
  let n = s.length
  for (let i = 0; i < s.length - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n--
      i++
    }
  }
  return n
}

/** A plain object, as zod's `z.object` takes one (not null, not an array). */
function fields(raw: unknown): Fields | null {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Fields) : null
}

/** A repo reference as RepoRef (schemas.ts) takes it: a string, trimmed, not empty; null otherwise. */
export function plainRepoRef(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const repo = value.trim()
  return repo === '' ? null : repo
}

/**
 * Recall's input when it is well formed, parsed as RecallInput (schemas.ts) parses it: the repo
 * trimmed, the default limit, other keys dropped. Null when it is not: the caller then parses it
 * with the schema, which words what is wrong.
 */
export function plainRecallInput(raw: unknown): RecallArgs | null {
  const r = fields(raw)
  if (!r) return null
  const repo = plainRepoRef(r.repo)
  if (repo === null) return null
  // a code point is one or two units: only a string longer in units than the bound needs counting
  if (typeof r.q !== 'string' || (r.q.length > RECALL_LIMITS.maxQueryChars && codePoints(r.q) > RECALL_LIMITS.maxQueryChars)) return null
  const limit = r.limit === undefined ? RECALL_LIMITS.defaultLimit : r.limit
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < RECALL_LIMITS.minLimit || limit > RECALL_LIMITS.maxLimit) return null
  if (r.type !== undefined && !(MEMORY_TYPES as readonly unknown[]).includes(r.type)) return null
  if (r.touch !== undefined && typeof r.touch !== 'boolean') return null
  return {
    repo,
    q: r.q,
    limit,
    ...(r.type === undefined ? {} : {type: r.type as MemoryType}),
    ...(r.touch === undefined ? {} : {touch: r.touch}),
  }
}

/** Stats' input when it is well formed, as StatsInput (schemas.ts) parses it; null when it is not. */
export function plainStatsInput(raw: unknown): {repo: string} | null {
  const r = fields(raw)
  const repo = r ? plainRepoRef(r.repo) : null
  return repo === null ? null : {repo}
}
