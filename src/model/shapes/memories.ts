/** Shapes of the memory operations: entries, store and edit outcomes, recall, context, browse, stats. */
import {z} from 'zod'
import {DEFAULT_IMPORTANCE, DEFAULT_SOURCE, MEMORY_TYPES, type Memory} from '../memory.js'
import {Content, Importance, MemoryRef, MemoryTypeSchema, RepoRef, Tags} from '../schemas.js'
import {Iso} from './common.js'
import type {WholeInputCheck} from '../validate.js'

/** A store request (spec section 2). */
export const StoreInput = z.object({
  repo: RepoRef,
  content: Content,
  type: MemoryTypeSchema,
  tags: Tags.default([]),
  importance: Importance.default(DEFAULT_IMPORTANCE),
  source: z.string().trim().min(1).max(200).default(DEFAULT_SOURCE),
  sessionId: z.string().max(200).nullable().default(null),
  supersedes: MemoryRef.nullable().default(null),
})
export type StoreInput = z.input<typeof StoreInput>

/** An edit: new content makes a new version; tags or importance alone change in place. */
export const EditInput = z
  .object({
    id: MemoryRef,
    repo: z.string().optional(),
    content: Content.optional(),
    tags: Tags.optional(),
    importance: Importance.optional(),
  })
  .refine((v) => v.content !== undefined || v.tags !== undefined || v.importance !== undefined, {
    message: 'give at least one of content, tags, importance',
    path: ['content'],
    params: {
      whole: true,
      message: 'Nothing to edit: give at least one of content, tags, importance.',
      hint: 'Send what changes: new content (a new version), tags or importance, at least one.',
    } satisfies WholeInputCheck,
  })
export type EditInput = z.input<typeof EditInput>

const Type = z.enum(MEMORY_TYPES)

/** The full memory entry (`GET /api/mem/{id}`, browse). It is the model's `Memory`, checked below. */
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
    origin: z
      .string()
      .describe('Where it came from, as this machine vouches for it: `user`, `intake:<path>`, `pack:<name>`, `layer:<id>`, `derived`, or `foreign` (not written on this machine; see docs/security.md)'),
  })
  .meta({id: 'MemoryEntry'})
export type MemoryEntry = z.output<typeof MemoryEntry>
// The model's Memory and the wire's entry are one shape: this fails to compile when they drift.
const sameShape: [Memory, MemoryEntry] extends [MemoryEntry, Memory] ? true : never = true
void sameShape

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
    origin: z.string().describe('Where it came from (as on MemoryEntry); anything but `user` did not come from this user\'s own agents'),
  })
  .meta({id: 'RecallItem'})
export type RecallItem = z.output<typeof RecallItem>

export const RecallResult = z.strictObject({results: z.array(RecallItem)})
export type RecallResult = z.output<typeof RecallResult>

/** A live memory the stored one looks like an update of: same subject, another value (docs/currency.md). */
export const UpdateOf = z.strictObject({id: z.string(), reason: z.string()}).meta({id: 'UpdateOf'})
export type UpdateOf = z.output<typeof UpdateOf>
export const Stored = z
  .strictObject({
    success: z.literal(true),
    id: z.string(),
    /** Present when the text states another value of a live memory's subject; confirm with `supersedes`. */
    updates: z.array(UpdateOf).optional(),
    /**
     * Present when like memories were left uncompared (for duplicates and updates): long texts
     * past a store's budget of characters compared (docs/currency.md). Ordinary notes never have it.
     */
    unchecked: z.number().int().positive().optional(),
  })
  .meta({id: 'Stored'})
export const Duplicate = z
  .strictObject({success: z.literal(false), duplicateId: z.string(), reason: z.literal('duplicate')})
  .meta({id: 'Duplicate'})
export const Rejected = z.strictObject({success: z.literal(false), reason: z.string()}).meta({id: 'Rejected'})
export const StoreResult = z.union([Stored, Duplicate, Rejected])
export type StoreResult = z.output<typeof StoreResult>

export {isRejected} from '../memory.js'

export const Edited = z
  .strictObject({success: z.literal(true), id: z.string(), superseded: z.string().nullable()})
  .meta({id: 'Edited', description: '`superseded` is the old id after a content edit, null after a metadata-only edit.'})
export const EditResult = z.union([Edited, Duplicate, Rejected])
export type EditResult = z.output<typeof EditResult>

export const ContextResult = z.strictObject({context: z.string()})
export type ContextResult = z.output<typeof ContextResult>

export const ContextPreview = z.strictObject({
  repo: z.string(),
  maxTokens: z.number().int(),
  context: z.string(),
  estimatedTokens: z.number().int(),
  layers: z.array(z.strictObject({id: z.string(), name: z.string(), type: z.string()})),
  crossRepoScope: z.array(z.string()),
})
export type ContextPreview = z.output<typeof ContextPreview>

export const ForgetResult = z.strictObject({forgotten: z.boolean()})
export type ForgetResult = z.output<typeof ForgetResult>

export const FeedbackResult = z.strictObject({applied: z.boolean()})
export type FeedbackResult = z.output<typeof FeedbackResult>

export const ChainItem = z.strictObject({id: z.string(), content: z.string(), createdAt: Iso})
export const HistoryResult = z.strictObject({chain: z.array(ChainItem)})
export type HistoryResult = z.output<typeof HistoryResult>

export const Counts = z.strictObject({observation: z.number().int(), insight: z.number().int(), procedure: z.number().int(), heuristic: z.number().int()})

export const StatsResult = z.strictObject({
  repo: z.string(),
  summary: z.string(),
  counts: Counts,
  total: z.number().int(),
})
export type StatsResult = z.output<typeof StatsResult>

export const BrowseResult = z.strictObject({
  repo: z.string(),
  skip: z.number().int(),
  take: z.number().int(),
  count: z.number().int().describe('The total matching, not the page size'),
  entries: z.array(MemoryEntry),
})
export type BrowseResult = z.output<typeof BrowseResult>

export const RepoItem = z.strictObject({
  repoId: z.string(),
  path: z.string(),
  name: z.string().describe("What people call it: the folder's name (the repo id for a repository with no folder of its own)"),
})
export type RepoItem = z.output<typeof RepoItem>
export const ReposResult = z.strictObject({
  repos: z.array(RepoItem),
  current: RepoItem.optional().describe('The repository the service was started in (`mem serve` in a repository, or `--repo`); the CLI: the one it runs in. It may have no memories yet.'),
})
export type ReposResult = z.output<typeof ReposResult>

export const PrepareRecallResult = z.strictObject({prepared: z.boolean()})
