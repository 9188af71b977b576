import type {FastifyInstance} from 'fastify'
import {browse} from '../../../operations/browse.js'
import {context, contextPreview} from '../../../operations/context.js'
import {edit, type EditInput} from '../../../operations/edit.js'
import {feedback} from '../../../operations/feedback.js'
import {forget} from '../../../operations/forget.js'
import {get} from '../../../operations/get.js'
import {history} from '../../../operations/history.js'
import type {MemContext} from '../../../engines/context.js'
import {recall} from '../../../operations/recall.js'
import {repos} from '../../../operations/repos.js'
import {stats} from '../../../operations/stats.js'
import {isRejected, store} from '../../../operations/store.js'
import type {RouteTable} from '../route.js'
import * as S from '../schemas.js'

const TAG = 'memories'
const ERRORS = {400: {description: 'Invalid input', schema: S.ErrorResponse}}
const NOT_FOUND = {404: {description: 'No such memory', schema: S.ErrorResponse}}

/** The core endpoints of spec section 4: each route is an adapter over one core operation. */
export function memoryRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext): void {
  routes.add(app, {
    method: 'POST',
    url: '/api/mem',
    operationId: 'store',
    tag: TAG,
    summary: 'Store a memory',
    description: 'A duplicate answers 200 with `duplicateId`; content the secret scanner or content gate flags answers 422 with `reason`.',
    body: S.StoreBody,
    responses: {
      201: {description: 'Stored', schema: S.Stored},
      200: {description: 'Duplicate of a live memory: nothing stored', schema: S.Duplicate},
      422: {description: 'Rejected by the secret scanner or content gate: nothing stored', schema: S.Rejected},
      ...ERRORS,
    },
    handler: async (req, reply) => {
      const result = await store(ctx, req.body)
      return reply.code(result.success ? 201 : isRejected(result) ? 422 : 200).send(result)
    },
  })

  for (const [url, operationId, summary] of [
    ['/api/mem/recall', 'recall', 'Recall the memories relevant to a query'],
    ['/api/mem/search', 'search', 'Recall (legacy alias of /api/mem/recall)'],
  ] as const) {
    routes.add(app, {
      method: 'GET',
      url,
      operationId,
      tag: TAG,
      summary,
      query: S.RecallQuery,
      responses: {200: {description: 'Results, best first', schema: S.RecallResponse}, ...ERRORS},
      handler: async (req) => recall(ctx, req.query),
    })
  }

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/context',
    operationId: 'context',
    tag: TAG,
    summary: 'The session context (under 600 tokens)',
    query: S.ContextQuery,
    responses: {200: {description: 'Context text', schema: S.ContextResponse}, ...ERRORS},
    handler: async (req) => context(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/context/preview',
    operationId: 'contextPreview',
    tag: TAG,
    summary: 'The session context with its token estimate, layers and cross-repo scope',
    query: S.ContextPreviewQuery,
    responses: {200: {description: 'Context preview', schema: S.ContextPreviewResponse}, ...ERRORS},
    handler: async (req) => contextPreview(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/stats',
    operationId: 'stats',
    tag: TAG,
    summary: 'Live memory counts by type',
    query: S.StatsQuery,
    responses: {200: {description: 'Counts', schema: S.StatsResponse}, ...ERRORS},
    handler: async (req) => stats(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/browse',
    operationId: 'browse',
    tag: TAG,
    summary: 'A page of live memories, newest first',
    query: S.BrowseQuery,
    responses: {200: {description: 'A page; `count` is the total matching', schema: S.BrowseResponse}, ...ERRORS},
    handler: async (req) => browse(ctx, req.query),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/repos',
    operationId: 'repos',
    tag: TAG,
    summary: 'Every repository mem has touched',
    responses: {200: {description: 'Registered repositories', schema: S.ReposResponse}},
    handler: async () => repos(ctx),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/feedback',
    operationId: 'feedback',
    tag: TAG,
    summary: 'Report whether a recalled memory was used',
    body: S.FeedbackBody,
    responses: {200: {description: '`applied` is false for a forgotten or superseded memory', schema: S.FeedbackResponse}, ...ERRORS, ...NOT_FOUND},
    handler: async (req) => feedback(ctx, req.body),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/history/:id',
    operationId: 'history',
    tag: TAG,
    summary: 'The version chain of a memory, newest first',
    params: S.IdParams,
    query: S.RepoOnlyQuery,
    responses: {200: {description: 'Version chain', schema: S.HistoryResponse}, ...ERRORS, ...NOT_FOUND},
    handler: async (req) => history(ctx, {id: req.params.id, repo: req.query.repo}),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/:id',
    operationId: 'get',
    tag: TAG,
    summary: 'One memory with all its fields (superseded and forgotten ones too)',
    params: S.IdParams,
    query: S.RepoOnlyQuery,
    responses: {200: {description: 'The full memory entry', schema: S.MemoryEntry}, ...ERRORS, ...NOT_FOUND},
    handler: async (req) => get(ctx, {id: req.params.id, repo: req.query.repo}),
  })

  routes.add(app, {
    method: 'PUT',
    url: '/api/mem/:id',
    operationId: 'edit',
    tag: TAG,
    summary: 'Edit a memory',
    description: 'New content creates a new version (new `id`, old id in `superseded`); tags or importance alone change in place (`superseded` null).',
    params: S.IdParams,
    query: S.RepoOnlyQuery,
    body: S.EditBody,
    responses: {
      200: {description: 'Edited; or the new content duplicates a live memory (`duplicateId`)', schema: S.Edited.or(S.Duplicate)},
      422: {description: 'New content rejected by the secret scanner or content gate', schema: S.Rejected},
      409: {description: 'The memory is superseded or forgotten', schema: S.ErrorResponse},
      ...ERRORS,
      ...NOT_FOUND,
    },
    handler: async (req, reply) => {
      const body = (req.body ?? {}) as Partial<EditInput>
      const result = await edit(ctx, {...body, id: req.params.id, repo: req.query.repo ?? body.repo})
      return reply.code(isRejected(result) ? 422 : 200).send(result)
    },
  })

  routes.add(app, {
    method: 'DELETE',
    url: '/api/mem/:id',
    operationId: 'forget',
    tag: TAG,
    summary: 'Forget a memory (soft delete)',
    params: S.IdParams,
    query: S.ForgetQuery,
    responses: {200: {description: '`forgotten` is false when it was already forgotten', schema: S.ForgetResponse}, ...ERRORS, ...NOT_FOUND},
    handler: async (req) => forget(ctx, {id: req.params.id, reason: req.query.reason, repo: req.query.repo}),
  })
}
