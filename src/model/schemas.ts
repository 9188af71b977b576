import {z} from 'zod'
import {MAX_CONTENT_CHARS, MAX_TAG_CHARS, MAX_TAGS, MEMORY_ID_PATTERN, MEMORY_TYPES} from './memory.js'
import {RECALL_LIMIT_RANGE, RECALL_LIMITS} from './inputs.js'

// a memory id's shape lives in memory.ts, without zod: the client reads it too
export {MEMORY_ID_PATTERN, repoIdOf} from './memory.js'

export const RepoRef = z.string({error: 'repo is required'}).trim().min(1, 'repo is required')
export const MemoryTypeSchema = z.enum(MEMORY_TYPES, {error: 'must be one of observation, insight, procedure, heuristic'})
export const MemoryId = z
  .string()
  .trim()
  .regex(MEMORY_ID_PATTERN, 'must look like memories/<repo-id>/<type>/<12 hex digits>')
/** A short ref: a prefix of a memory id's key, 6 to 12 hex digits (case folded). */
export const SHORT_REF_PATTERN = /^[0-9a-f]{6,12}$/i
/**
 * What every face accepts where it takes a memory id: the whole id, or a unique prefix of its key
 * (≥ 6 hex digits) that operations resolve within the request's repository (operations/lookup.ts).
 */
export const MemoryRef = z
  .string({error: 'an id is required'})
  .trim()
  .refine((s) => MEMORY_ID_PATTERN.test(s) || SHORT_REF_PATTERN.test(s), 'must be a memory id (memories/<repo-id>/<type>/<12 hex digits>) or a unique prefix of its key (6 to 12 hex digits)')
export const Content = z
  .string({error: 'content is required'})
  .refine((s) => s.trim().length > 0, 'content is empty')
  .refine((s) => s.length <= MAX_CONTENT_CHARS, `content is longer than ${MAX_CONTENT_CHARS.toLocaleString('en-US')} characters`)
export const Importance = z.number({error: 'must be a number from 0.0 to 1.0'}).min(0, 'must be at least 0.0').max(1, 'must be at most 1.0')

/** The input of `stats` (the core checks it by hand, to start without zod: plainStatsInput in inputs.ts). */
export const StatsInput = z.object({repo: RepoRef})

/** Recall's input (src/operations/recall.ts takes well-formed input by hand, plainRecallInput in src/model/inputs.ts, and falls back to this). */
const LIMIT_RANGE = `limit must be ${RECALL_LIMIT_RANGE}`
export const RecallInput = z.object({
  repo: RepoRef,
  q: z
    .string({error: 'q (the query) is required'})
    .max(RECALL_LIMITS.maxQueryChars, `q is longer than ${RECALL_LIMITS.maxQueryChars.toLocaleString('en-US')} characters`),
  limit: z.number().int().min(RECALL_LIMITS.minLimit, LIMIT_RANGE).max(RECALL_LIMITS.maxLimit, LIMIT_RANGE).default(RECALL_LIMITS.defaultLimit),
  type: MemoryTypeSchema.optional(),
  touch: z
    .boolean({error: 'touch must be true or false'})
    .optional()
    .describe('Whether this recall counts as an agent using the memories it returns (access counts, "recalled" in quality; default true). A person browsing passes false.'),
})

export const PrepareRecallInput = z.object({repo: RepoRef})

/** Tags: trimmed, lower-cased, inner spaces as dashes, empty ones dropped, duplicates removed. */
export const Tags = z
  .array(z.string().max(MAX_TAG_CHARS, `a tag is longer than ${MAX_TAG_CHARS} characters`))
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .transform((tags) => [...new Set(tags.map((t) => t.trim().toLowerCase().replace(/\s+/g, '-')).filter(Boolean))])

