/**
 * The request and response shapes of the HTTP API as zod schemas. Request schemas are the core's
 * own input schemas (or a part of them); response schemas describe exactly what the core returns.
 * Both are turned into JSON Schema for the routes and for `GET /api/openapi.json`; contract tests
 * parse every response with the strict response schema, so the document cannot drift from reality.
 */
import {z} from 'zod'
import {ERROR_CODES} from '../../model/errors.js'
import {MEMORY_TYPES} from '../../model/memory.js'
import {BrowseInput} from '../../operations/browse.js'
import {ContextInput} from '../../operations/context.js'
import {FeedbackInput} from '../../operations/feedback.js'
import {RecallInput} from '../../model/schemas.js'
import {Content, Importance, MemoryId, Tags} from '../../model/schemas.js'
import {StatsInput} from '../../model/schemas.js'
import {StoreInput} from '../../operations/store.js'

// ---- requests ----------------------------------------------------------------------------------

const OptionalRepo = z.string().optional().describe('Repository path or repo id; defaults to the repo the id names.')

export const StoreBody = StoreInput
export const RecallQuery = RecallInput
export const ContextQuery = z.object({repo: ContextInput.shape.repo})
export const ContextPreviewQuery = ContextInput
export const IdParams = z.object({id: MemoryId.describe('Memory id, URL-encoded (/ as %2F).')})
export const RepoOnlyQuery = z.object({repo: OptionalRepo})
export const EditBody = z.object({
  content: Content.optional().describe('New content: creates a new version that supersedes this one.'),
  tags: Tags.optional(),
  importance: Importance.optional(),
  repo: OptionalRepo,
})
export const ForgetQuery = z.object({
  reason: z.string().max(500).optional().describe('Why it is forgotten (kept with the entry).'),
  repo: OptionalRepo,
})
export const FeedbackBody = FeedbackInput
export const StatsQuery = StatsInput
export const BrowseQuery = BrowseInput

// ---- responses ---------------------------------------------------------------------------------

const Iso = z.string().describe('ISO 8601 UTC timestamp')
const Type = z.enum(MEMORY_TYPES)

export const MemoryEntry = z
  .strictObject({
    id: z.string(),
    repoId: z.string(),
    type: Type,
    content: z.string(),
    oneLiner: z.string().nullable(),
    summary: z.string().nullable(),
    tags: z.array(z.string()),
    importance: z.number(),
    source: z.string(),
    sessionId: z.string().nullable(),
    supersedes: z.string().nullable(),
    supersededBy: z.string().nullable(),
    createdAt: Iso,
    updatedAt: Iso,
    forgottenAt: Iso.nullable(),
    forgetReason: z.string().nullable(),
    expiresAt: Iso.nullable(),
    accessCount: z.number().int(),
    lastAccessedAt: Iso.nullable(),
    usedCount: z.number().int(),
    unusedCount: z.number().int(),
    lastUsedAt: Iso.nullable(),
    derivedFrom: z.array(z.string()),
    links: z.array(z.strictObject({targetId: z.string(), relation: z.string()})),
  })
  .meta({id: 'MemoryEntry'})

export const RecallItem = z
  .strictObject({
    id: z.string(),
    repoId: z.string(),
    type: z.string().describe('The capitalized type: Observation, Insight, Procedure or Heuristic'),
    content: z.string(),
    oneLiner: z.string().nullable(),
    tags: z.array(z.string()),
    importance: z.number(),
    score: z.number().min(0).max(1),
    createdAt: Iso,
    ageDays: z.number().int().nullable(),
    stalenessWarning: z.string().nullable(),
  })
  .meta({id: 'RecallItem'})

export const RecallResponse = z.strictObject({results: z.array(RecallItem)})

export const Stored = z.strictObject({success: z.literal(true), id: z.string()}).meta({id: 'Stored'})
export const Duplicate = z
  .strictObject({success: z.literal(false), duplicateId: z.string(), reason: z.literal('duplicate')})
  .meta({id: 'Duplicate'})
export const Rejected = z.strictObject({success: z.literal(false), reason: z.string()}).meta({id: 'Rejected'})

export const Edited = z
  .strictObject({success: z.literal(true), id: z.string(), superseded: z.string().nullable()})
  .meta({id: 'Edited', description: '`superseded` is the old id after a content edit, null after a metadata-only edit.'})

export const ContextResponse = z.strictObject({context: z.string()})
export const ContextPreviewResponse = z.strictObject({
  repo: z.string(),
  maxTokens: z.number().int(),
  context: z.string(),
  estimatedTokens: z.number().int(),
  layers: z.array(z.strictObject({id: z.string(), name: z.string(), type: z.string()})),
  crossRepoScope: z.array(z.string()),
})
export const ForgetResponse = z.strictObject({forgotten: z.boolean()})
export const FeedbackResponse = z.strictObject({applied: z.boolean()})
export const HistoryResponse = z.strictObject({chain: z.array(z.strictObject({id: z.string(), content: z.string(), createdAt: Iso}))})
export const StatsResponse = z.strictObject({
  repo: z.string(),
  summary: z.string(),
  counts: z.strictObject({observation: z.number().int(), insight: z.number().int(), procedure: z.number().int(), heuristic: z.number().int()}),
  total: z.number().int(),
})
export const BrowseResponse = z.strictObject({
  repo: z.string(),
  skip: z.number().int(),
  take: z.number().int(),
  count: z.number().int(),
  entries: z.array(MemoryEntry),
})
export const ReposResponse = z.strictObject({repos: z.array(z.strictObject({repoId: z.string(), path: z.string()}))})

export const HealthResponse = z.strictObject({
  status: z.string(),
  version: z.string(),
  latestVersion: z.string().nullable(),
  updateAvailable: z.boolean(),
})
export const StatusResponse = z.strictObject({
  version: z.string(),
  status: z.string(),
  uptime: z.string().describe('Human uptime, e.g. "1 day, 2 hours, 5 minutes"'),
  api: z.string().describe('The address the service listens on'),
  enrichment: z
    .strictObject({
      enabled: z.boolean(),
      provider: z.enum(['ollama', 'openai', 'heuristic']),
      model: z.string().nullable(),
      reachable: z.boolean().describe('Whether the configured runtime answers its health endpoint; false when enrichment is off'),
    })
    .describe('Enrichment through a local language-model runtime (off by default: the heuristic answers)'),
})

export const ErrorResponse = z
  .strictObject({
    error: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...Array<keyof typeof ERROR_CODES>]),
    hint: z.string().optional(),
    details: z.unknown().optional(),
    required: z.enum(['read', 'write', 'admin']).optional().describe('The scope a 403 needs'),
  })
  .meta({id: 'Error'})
