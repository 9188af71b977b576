/** The memory operations: store, recall, the session context, reading, editing, forgetting, feedback. */
import {z} from 'zod'
import {ERROR_CODES} from '../../model/errors.js'
import {isRejected} from '../../model/memory.js'
import {RecallInput, StatsInput} from '../../model/schemas.js'
import * as M from '../../model/shapes/memories.js'
import {OptionalRepo, IdParams, RepoOnly, one} from './common.js'
import {defineOp, type OpDef, type Outcome} from '../define.js'
import {browse, BrowseInput} from '../browse.js'
import {context, ContextInput, contextPreview} from '../session-context.js'
import {edit, EditInput} from '../edit.js'
import {feedback, FeedbackInput} from '../feedback.js'
import {forget, ForgetInput} from '../forget.js'
import {get, GetInput} from '../get.js'
import {history, HistoryInput} from '../history.js'
import {recallCall} from '../recall.js'
import {repos, type ReposOptions} from '../repos.js'
import {stats} from '../stats.js'
import {store, StoreInput} from '../store.js'

/** A store or edit that the secret scanner or content gate refused: unprocessable (422, exit 5), its reason on stderr. */
function rejected<R extends {success: boolean}>(): Outcome<R> {
  return {when: (r) => isRejected(r), ...ERROR_CODES.unprocessable, failed: true, message: (r) => (isRejected(r) ? r.reason : ''), answer: 'Rejected by the secret scanner or content gate: nothing stored'}
}


export const memoryOps = {
  store: defineOp({
    name: 'store',
    summary: 'Store a memory',
    description: 'A duplicate answers 200 with `duplicateId`; content the secret scanner or content gate flags answers 422 with `reason`.',
    access: 'write',
    input: StoreInput,
    output: M.StoreResult,
    outcomes: [rejected(), {when: (r) => !r.success, status: 200, exit: 0, answer: 'Duplicate of a live memory: nothing stored'}],
    track: {count: (r) => (r.success ? 1 : 0)},
    run: store,
    http: {method: 'POST', path: '/api/mem', answer: 'Stored', status: 201, tag: 'memories', errors: {}},
  }),
  recall: defineOp({
    ...recallCall,
    summary: 'Recall the memories relevant to a query',
    access: 'read',
    input: RecallInput,
    output: M.RecallResult,
    http: {method: 'GET', path: '/api/mem/recall', answer: 'Results, best first', tag: 'memories', aliases: [{path: '/api/mem/search', name: 'search', summary: 'Recall (legacy alias of /api/mem/recall)'}]},
  }),
  context: defineOp({
    name: 'context',
    summary: 'The session context (under 600 tokens)',
    access: 'read',
    input: ContextInput,
    output: M.ContextResult,
    track: {count: (r) => contextLines(r.context)},
    run: context,
    http: {method: 'GET', path: '/api/mem/context', answer: 'Context text', tag: 'memories', query: z.object({repo: ContextInput.shape.repo})},
  }),
  contextPreview: defineOp({
    name: 'contextPreview',
    summary: 'The session context with its token estimate, layers and cross-repo scope',
    access: 'read',
    input: ContextInput,
    output: M.ContextPreview,
    track: {as: 'context-preview', count: (r) => contextLines(r.context)},
    run: contextPreview,
    http: {method: 'GET', path: '/api/mem/context/preview', answer: 'Context preview', tag: 'memories'},
  }),
  stats: defineOp({
    name: 'stats',
    summary: 'Live memory counts by type',
    access: 'read',
    input: StatsInput,
    output: M.StatsResult,
    track: {count: (r) => r.total},
    run: stats,
    http: {method: 'GET', path: '/api/mem/stats', answer: 'Counts', tag: 'memories'},
  }),
  browse: defineOp({
    name: 'browse',
    summary: 'A page of live memories, newest first',
    access: 'read',
    input: BrowseInput,
    output: M.BrowseResult,
    track: {count: (r) => r.entries.length},
    run: browse,
    http: {method: 'GET', path: '/api/mem/browse', answer: 'A page; `count` is the total matching', tag: 'memories'},
  }),
  repos: defineOp({
    name: 'repos',
    summary: 'Every repository mem has touched',
    access: 'read',
    input: z.object({}),
    output: M.ReposResult,
    track: false,
    run: (ctx, _input: unknown, options?: ReposOptions) => repos(ctx, options),
    http: {method: 'GET', path: '/api/mem/repos', answer: 'Registered repositories, each with its folder name; `current`: the repository the service was started in', tag: 'memories', query: z.object({})},
  }),
  feedback: defineOp({
    name: 'feedback',
    summary: 'Report whether a recalled memory was used',
    description: '`applied` is false for a forgotten or superseded memory.',
    access: 'write',
    input: FeedbackInput,
    output: M.FeedbackResult,
    track: {count: (r) => (r.applied ? 1 : 0)},
    run: feedback,
    http: {method: 'POST', path: '/api/mem/feedback', answer: '`applied` is false for a forgotten or superseded memory', tag: 'memories', errors: {404: 'No such memory'}},
  }),
  history: defineOp({
    name: 'history',
    summary: 'The version chain of a memory, newest first',
    access: 'read',
    input: HistoryInput,
    output: M.HistoryResult,
    track: {count: (r) => r.chain.length},
    run: history,
    http: {method: 'GET', path: '/api/mem/history/:id', answer: 'Version chain', tag: 'memories', params: IdParams, query: RepoOnly, errors: {404: 'No such memory'}},
  }),
  get: defineOp({
    name: 'get',
    summary: 'One memory with all its fields (superseded and forgotten ones too)',
    access: 'read',
    input: GetInput,
    output: M.MemoryEntry,
    track: {count: one},
    run: get,
    http: {method: 'GET', path: '/api/mem/:id', answer: 'The full memory entry', tag: 'memories', params: IdParams, query: RepoOnly, errors: {404: 'No such memory'}},
  }),
  edit: defineOp({
    name: 'edit',
    summary: 'Edit a memory',
    description: 'New content creates a new version (new `id`, old id in `superseded`); tags or importance alone change in place (`superseded` null). New content that duplicates a live memory answers `duplicateId`.',
    access: 'write',
    input: EditInput,
    output: M.EditResult,
    outcomes: [rejected()],
    track: {count: (r) => (r.success ? 1 : 0)},
    run: edit,
    http: {
      method: 'PUT',
      path: '/api/mem/:id',
      answer: 'Edited; or the new content duplicates a live memory (`duplicateId`)',
      tag: 'memories',
      params: IdParams,
      query: RepoOnly,
      body: z.object({content: EditInput.shape.content, tags: EditInput.shape.tags, importance: EditInput.shape.importance, repo: OptionalRepo}),
      input: ({query, params, body}) => ({...((body ?? {}) as object), id: params.id, repo: (query.repo ?? (body as {repo?: string} | undefined)?.repo) as string | undefined}) as never,
      errors: {404: 'No such memory', 409: 'The memory is superseded or forgotten'},
    },
  }),
  forget: defineOp({
    name: 'forget',
    summary: 'Forget a memory (soft delete)',
    description: '`forgotten` is false when it was already forgotten.',
    access: 'write',
    input: ForgetInput,
    output: M.ForgetResult,
    track: {count: (r) => (r.forgotten ? 1 : 0)},
    run: forget,
    http: {
      method: 'DELETE',
      path: '/api/mem/:id',
      answer: '`forgotten` is false when it was already forgotten',
      tag: 'memories',
      params: IdParams,
      query: z.object({reason: ForgetInput.shape.reason.describe('Why it is forgotten (kept with the entry).'), repo: OptionalRepo}),
      errors: {404: 'No such memory'},
    },
  }),
} satisfies Record<string, OpDef<any, any, any>>

/** The number of memory lines of a context (the counts line is not one). */
function contextLines(text: string): number {
  return Math.max(0, text.split('\n').length - 1)
}
