// Contract tests of the HTTP API through the client library, against a real listening server.
// Every response is parsed with the strict response schema the OpenAPI document publishes.
import {describe, expect, it} from 'vitest'
import {z} from 'zod'
import {MemApiError, MemClient} from '../../../src/client/index.js'
import {createKey} from '../../../src/config/api-keys.js'
import {buildServer} from '../../../src/faces/server/build-server.js'
import * as S from '../../../src/model/shapes/index.js'
import {eventually, fakeRegistry, memServer, rawRequest} from '../../helpers/server.js'

const TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'

/** Runs `fn` and returns the MemApiError it throws. */
async function apiError(fn: () => Promise<unknown>): Promise<MemApiError> {
  try {
    await fn()
  } catch (err) {
    expect(err).toBeInstanceOf(MemApiError)
    return err as MemApiError
  }
  throw new Error('expected the call to fail')
}

function strict<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  return schema.parse(value)
}

describe('HTTP API through the client library', () => {
  it('health and status answer the spec shapes, without waiting on an update check', async () => {
    const {client} = await memServer()
    const mem = client()
    const health = strict(S.HealthResult, await mem.health())
    expect(health).toEqual({status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/), latestVersion: null, updateAvailable: false})
    const status = strict(S.StatusResult, await mem.status())
    expect(status.status).toBe('running')
    expect(status.uptime).toBe('0 days, 0 hours, 0 minutes')
    expect(status.api).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(status.version).toBe(health.version)
    expect(await mem.isAvailable()).toBe(true)
  })

  it('store: 201 stored, 200 duplicate, 422 rejected (returned, not thrown), 400 invalid (thrown)', async () => {
    const {client, repo, url} = await memServer()
    const mem = client()
    const stored = await mem.store({repo, content: 'integration suite: npm run test:int, needs docker', type: 'procedure', tags: ['Testing', 'CI']})
    expect(stored).toEqual({success: true, id: expect.stringMatching(/^memories\/[^/]+\/procedure\/[0-9a-f]{12}$/)})

    const dup = await mem.store({repo, content: 'Integration suite: npm run test:int,  needs docker!', type: 'insight'})
    expect(dup).toEqual({success: false, duplicateId: stored.id, reason: 'duplicate'})

    const rejected = await mem.store({repo, content: `ci uses ${TOKEN}`, type: 'observation'})
    expect(rejected.success).toBe(false)
    expect(rejected.error).toMatch(/^Rejected: .*GitHub token/)
    expect(rejected.reason).toBe(rejected.error)
    expect(JSON.stringify(rejected)).not.toContain(TOKEN)

    // the raw statuses and bodies behind those outcomes
    const post = (body: unknown) =>
      rawRequest(`${url}/api/mem`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})
    const r201 = await post({repo, content: 'Release from main only', type: 'heuristic'})
    expect(r201.status).toBe(201)
    strict(S.Stored, r201.json())
    const r200 = await post({repo, content: 'release from main ONLY', type: 'heuristic'})
    expect(r200.status).toBe(200)
    strict(S.Duplicate, r200.json())
    const r422 = await post({repo, content: `token ${TOKEN}`, type: 'heuristic'})
    expect(r422.status).toBe(422)
    strict(S.Rejected, r422.json())

    for (const [body, field] of [
      [{content: 'no repo', type: 'insight'}, 'repo'],
      [{repo, type: 'insight'}, 'content'],
      [{repo, content: 'x y', type: 'fact'}, 'type'],
      [{repo, content: 'x y', type: 'insight', importance: 1.5}, 'importance'],
      [{repo, content: 'x'.repeat(16_001), type: 'insight'}, 'content'],
      [{repo, content: 'x y', type: 'insight', supersedes: 'not-an-id'}, 'supersedes'],
    ] as const) {
      const err = await apiError(() => mem.store(body as never))
      expect(err.status, field).toBe(400)
      const parsed = strict(S.ErrorResponse, err.body)
      expect(parsed.code).toBe('invalid_input')
      expect(parsed.error).toContain(field)
      expect((parsed.details as Array<{path: string}>)[0].path).toBe(field)
    }
  })

  it('store with supersedes links the chain; unknown supersedes is 404, superseding twice is 409', async () => {
    const {client, repo} = await memServer()
    const mem = client()
    const old = await mem.store({repo, content: 'Use npm 9 for the monorepo', type: 'heuristic'})
    const next = await mem.store({repo, content: 'Use pnpm 9 for the monorepo, not npm', type: 'heuristic', supersedes: old.id})
    expect(next.success).toBe(true)
    expect((await mem.get(old.id!)).supersededBy).toBe(next.id)
    expect((await mem.history(next.id!)).map((c) => c.id)).toEqual([next.id, old.id])
    const missing = await apiError(() => mem.store({repo, content: 'other text entirely here', type: 'heuristic', supersedes: old.id!.replace(/.{12}$/, '000000000000')}))
    expect(missing.status).toBe(404)
    expect(missing.code).toBe('not_found')
    const twice = await apiError(() => mem.store({repo, content: 'Use yarn berry for the monorepo', type: 'heuristic', supersedes: old.id}))
    expect(twice.status).toBe(409)
    expect(twice.code).toBe('conflict')
  })

  it('recall: default limit 10, limit, type filter, the search alias, and query-string errors', async () => {
    const {client, repo, url} = await memServer()
    const mem = client()
    const topics = ['docker', 'kubernetes', 'postgres', 'redis', 'nginx', 'terraform', 'webpack', 'vitest', 'eslint', 'prettier', 'grafana', 'kafka']
    for (const [i, topic] of topics.entries()) {
      const r = await mem.store({repo, content: `The deploy pipeline configures ${topic} in stage ${i}`, type: i % 2 ? 'insight' : 'procedure', tags: ['deploy']})
      expect(r.success).toBe(true)
    }
    const all = await mem.recall(repo, 'deploy pipeline stage')
    expect(all).toHaveLength(10)
    strict(S.RecallResult, {results: all})
    for (const item of all) {
      expect(['Insight', 'Procedure']).toContain(item.type)
      expect(item.score).toBeGreaterThan(0)
      expect(item.score).toBeLessThanOrEqual(1)
    }
    expect([...all].sort((a, b) => b.score - a.score).map((r) => r.id)).toEqual(all.map((r) => r.id))
    expect(await mem.recall(repo, 'deploy pipeline stage', 3)).toHaveLength(3)
    const insights = await mem.recall(repo, 'deploy pipeline stage', 20, 'insight')
    expect(insights).toHaveLength(6)
    expect(insights.every((r) => r.type === 'Insight')).toBe(true)
    expect((await mem.search(repo, 'kafka')).map((r) => r.id)).toEqual((await mem.recall(repo, 'kafka')).map((r) => r.id))
    expect(await mem.recall(repo, 'the of and')).toEqual([])

    const q = (query: string) => rawRequest(`${url}/api/mem/recall?${query}`)
    const repoQ = `repo=${encodeURIComponent(repo)}`
    for (const [query, message] of [
      [`${repoQ}&q=x&limit=abc`, /limit must be a whole number/],
      [`${repoQ}&q=x&limit=1.5`, /limit must be a whole number/],
      [`${repoQ}&q=x&limit=0`, /limit must be 1 to 100/],
      [`${repoQ}&q=x&limit=101`, /limit must be 1 to 100/],
      [`${repoQ}&q=x&type=fact`, /type/],
      [`${repoQ}`, /q/],
      [`q=docker`, /repo/],
    ] as const) {
      const r = await q(query)
      expect(r.status, query).toBe(400)
      expect(r.json().code).toBe('invalid_input')
      expect(r.json().error, query).toMatch(message)
    }
  })

  it('context and context preview', async () => {
    const {client, repo} = await memServer()
    const mem = client()
    await mem.store({repo, content: 'Release with npm run release from main only', type: 'procedure'})
    await mem.store({repo, content: 'Flaky tests are quarantined, not retried', type: 'heuristic'})
    await mem.store({repo, content: 'The cache layer hides slow queries', type: 'insight'})
    const text = await mem.context(repo)
    const lines = text.split('\n')
    expect(lines[0]).toBe('[Memory: 3 entries, 0 observations, 1 insights, 1 procedures, 1 heuristics]')
    // each line ends with the memory's ref (issue 18)
    expect(lines.slice(1).map((l) => l.replace(/ \[[0-9a-f]{8,12}\]$/, '')).sort()).toEqual(['[H] Flaky tests are quarantined, not retried', '[I] The cache layer hides slow queries', '[P] Release with npm run release from main only'])

    const preview = strict(S.ContextPreview, await mem.contextPreview(repo, 600))
    expect(preview).toMatchObject({repo, maxTokens: 600, context: text, layers: [], crossRepoScope: []})
    expect(preview.estimatedTokens).toBeGreaterThan(10)
    expect(preview.estimatedTokens).toBeLessThan(600)
    expect((await mem.contextPreview(repo)).maxTokens).toBe(600)
    const small = await mem.contextPreview(repo, 40)
    expect(small.estimatedTokens).toBeLessThan(40)
    const bad = await apiError(() => mem.contextPreview(repo, 5))
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({code: 'invalid_input', error: expect.stringMatching(/tokens/)})
  })

  it('get, edit, forget, feedback and history with URL-encoded ids', async () => {
    const {client, repo, url} = await memServer()
    const mem = client()
    const {id} = await mem.store({repo, content: 'integration suite: npm run test:int, needs docker', type: 'procedure', tags: ['testing']})
    expect(id).toContain('/')

    const entry = strict(S.MemoryEntry, await mem.get(id!))
    expect(entry).toMatchObject({id, type: 'procedure', tags: ['testing'], importance: 0.5, source: 'claude-session', supersededBy: null, forgottenAt: null})
    // the raw path carries %2F; an unencoded id is a JSON 404 with a hint
    expect((await rawRequest(`${url}/api/mem/${encodeURIComponent(id!)}`)).status).toBe(200)
    const raw = await rawRequest(`${url}/api/mem/${id}`)
    expect(raw.status).toBe(404)
    expect(raw.json()).toMatchObject({code: 'not_found', hint: expect.stringMatching(/%2F/)})

    // metadata edit: same id, superseded null
    const meta = await mem.edit(id!, {tags: ['testing', 'docker'], importance: 0.9})
    expect(strict(S.Edited, meta)).toEqual({success: true, id, superseded: null})
    expect(await mem.get(id!)).toMatchObject({tags: ['testing', 'docker'], importance: 0.9})

    // content edit: new id, old one superseded and still readable
    const edited = await mem.edit(id!, {content: 'integration suite: npm run test:int; docker must be running'})
    expect(edited).toEqual({success: true, id: expect.not.stringMatching(id!), superseded: id})
    const newId = edited.id!
    expect((await mem.get(id!)).supersededBy).toBe(newId)
    const chain = await mem.history(id!)
    strict(S.HistoryResult, {chain})
    expect(chain.map((c) => c.id)).toEqual([newId, id])

    // editing the old version is a conflict; nothing to change is 400; a secret is a 422 outcome
    const conflict = await apiError(() => mem.edit(id!, {importance: 0.1}))
    expect([conflict.status, conflict.code]).toEqual([409, 'conflict'])
    const empty = await apiError(() => mem.edit(newId, {}))
    expect([empty.status, empty.code]).toEqual([400, 'invalid_input'])
    const secret = await mem.edit(newId, {content: `integration suite uses ${TOKEN}`})
    expect(secret).toMatchObject({success: false, error: expect.stringMatching(/^Rejected/)})

    expect(await mem.feedback(newId, true)).toBe(true)
    expect((await mem.get(newId)).usedCount).toBe(1)
    expect(await mem.feedback(id!, true)).toBe(false) // superseded

    expect(await mem.forget(newId, 'moved to CI docs')).toBe(true)
    expect(await mem.get(newId)).toMatchObject({forgetReason: 'moved to CI docs', forgottenAt: expect.any(String)})
    expect(await mem.forget(newId)).toBe(false)
    expect(await mem.feedback(newId, false)).toBe(false)

    const unknown = id!.replace(/.{12}$/, 'abcdefabcdef')
    for (const call of [() => mem.get(unknown), () => mem.forget(unknown), () => mem.history(unknown), () => mem.feedback(unknown, true), () => mem.edit(unknown, {importance: 0.2})]) {
      const err = await apiError(call)
      expect(err.status).toBe(404)
      expect(strict(S.ErrorResponse, err.body)).toMatchObject({code: 'not_found', error: `No memory ${unknown}.`})
    }
    const malformed = await apiError(() => mem.get('not-an-id'))
    expect([malformed.status, malformed.code]).toEqual([400, 'invalid_input'])
  })

  it('stats, browse (defaults, paging, type) and repos', async () => {
    const {client, repo, repo: root} = await memServer()
    const mem = client()
    for (let i = 0; i < 7; i++) await mem.store({repo, content: `observation number ${i} about the build cache ${'abcdefg'[i]}`, type: i < 5 ? 'observation' : 'insight'})
    const stats = strict(S.StatsResult, await mem.stats(repo))
    expect(stats).toEqual({repo, summary: '7 memories: 5 observations, 2 insights.', counts: {observation: 5, insight: 2, procedure: 0, heuristic: 0}, total: 7})

    const page = strict(S.BrowseResult, await mem.browse(repo))
    expect(page).toMatchObject({skip: 0, take: 50, count: 7})
    expect(page.entries).toHaveLength(7)
    const second = await mem.browse(repo, 5, 5)
    expect(second).toMatchObject({skip: 5, take: 5, count: 7})
    expect(second.entries).toHaveLength(2)
    const insights = await mem.browse(repo, 0, 50, 'insight')
    expect(insights.count).toBe(2)
    expect(insights.entries.every((e) => e.type === 'insight')).toBe(true)
    const bad = await apiError(() => mem.browse(repo, 0, 0))
    expect([bad.status, bad.code]).toEqual([400, 'invalid_input'])
    const neg = await apiError(() => mem.browse(repo, -1))
    expect(neg.status).toBe(400)

    const repos = await mem.listRepos()
    expect(repos).toEqual([page.repo])
    expect(page.repo).toBe(root.replace(/[:\\/._]/g, '-'))
  })

  it('repo by id: a registered id reaches its path; an unknown id gets a store under MEM_HOME and is listed', async () => {
    const {client, repo, home} = await memServer()
    const mem = client()
    const {id} = await mem.store({repo, content: 'stored by path', type: 'insight'})
    const repoId = id!.split('/')[1]
    expect((await mem.stats(repoId)).total).toBe(1)
    expect((await mem.store({repo: 'scratchpad', content: 'a repo known only by id', type: 'observation'})).success).toBe(true)
    expect(await mem.listRepos()).toEqual(expect.arrayContaining([repoId, 'scratchpad']))
    const {existsSync} = await import('node:fs')
    expect(existsSync(`${home}/repos/scratchpad/.mem/journal`)).toBe(true)
  })

  it('request errors: unknown route 404, body over 1 MB 413, malformed JSON 400, wrong content type 400, bad encoding 400', async () => {
    const {url} = await memServer()
    const json = {'content-type': 'application/json'}
    const cases: Array<[() => ReturnType<typeof rawRequest>, number, string]> = [
      [() => rawRequest(`${url}/api/nope`), 404, 'not_found'],
      [() => rawRequest(`${url}/api/mem`, {method: 'PATCH'}), 404, 'not_found'],
      [() => rawRequest(`${url}/api/mem`, {method: 'POST', headers: json, body: `{"repo":"x","content":"${'a'.repeat(1024 * 1024)}"}`}), 413, 'payload_too_large'],
      [() => rawRequest(`${url}/api/mem`, {method: 'POST', headers: json, body: '{"repo": "x", '}), 400, 'invalid_input'],
      [() => rawRequest(`${url}/api/mem`, {method: 'POST', headers: json, body: ''}), 400, 'invalid_input'],
      [() => rawRequest(`${url}/api/mem`, {method: 'POST', headers: json, body: '{"__proto__": {"x": 1}}'}), 400, 'invalid_input'],
      [() => rawRequest(`${url}/api/mem`, {method: 'POST', headers: {'content-type': 'text/plain'}, body: '{"repo":"x"}'}), 400, 'invalid_input'],
      [() => rawRequest(`${url}/api/mem/%E0%A4%A`), 400, 'invalid_input'],
    ]
    for (const [send, status, code] of cases) {
      const r = await send()
      expect(r.status).toBe(status)
      expect(r.headers['content-type']).toMatch(/^application\/json/)
      const body = strict(S.ErrorResponse, r.json())
      expect(body.code).toBe(code)
    }
  })

  it('a body-less POST or DELETE works with or without a JSON content type; a missing body is named as such', async () => {
    const {url, repo} = await memServer()
    const json = {'content-type': 'application/json'}
    for (const headers of [json, {}]) {
      const consolidate = await rawRequest(`${url}/api/mem/consolidate?repo=${encodeURIComponent(repo)}`, {method: 'POST', headers})
      expect(consolidate.status).toBe(200)
      expect(consolidate.json()).toEqual({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
      const maintenance = await rawRequest(`${url}/api/maintenance?repo=${encodeURIComponent(repo)}`, {method: 'POST', headers})
      expect(maintenance.status).toBe(200)
      const forget = await rawRequest(`${url}/api/mem/${encodeURIComponent('memories/x/insight/0123456789ab')}`, {method: 'DELETE', headers})
      expect(forget.status).toBe(404)
    }
    const store = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: json})
    expect(store.status).toBe(400)
    expect(store.json()).toMatchObject({code: 'invalid_input', error: 'Invalid input: expected a JSON object, got nothing (an empty body).'})
    const array = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: json, body: '[1]'})
    expect(array.json().error).toBe('Invalid input: expected a JSON object, got an array.')
  })

  it('a 500 answers a generic body: no stack, no internal message', async () => {
    const ctx = {
      now: () => new Date(),
      repo: async () => {
        throw new Error('sql.js exploded at /secret/internal/path.ts:42')
      },
      listRepos: async () => {
        throw new TypeError('cannot read x of undefined')
      },
      scanSecrets: async () => null,
      close: async () => undefined,
    } as never
    const seen: unknown[] = []
    const app = buildServer({ctx, onInternalError: (err) => seen.push(err)})
    await app.listen({host: '127.0.0.1', port: 0})
    try {
      const mem = new MemClient(`http://127.0.0.1:${(app.server.address() as {port: number}).port}`)
      for (const call of [() => mem.stats('any'), () => mem.listRepos()]) {
        const err = await apiError(call)
        expect(err.status).toBe(500)
        expect(err.body).toEqual({error: 'Internal error: this is a bug in mem.', code: 'internal', hint: expect.any(String)})
        expect(JSON.stringify(err.body)).not.toMatch(/exploded|secret|undefined|at /)
      }
      expect(seen).toHaveLength(2)
    } finally {
      await app.close()
    }
  })

  it('the client: failures throw MemApiError with status and body; isAvailable never throws; close aborts', async () => {
    const {client, url} = await memServer()
    const nothing = new MemClient('http://127.0.0.1:9')
    expect(await nothing.isAvailable()).toBe(false)
    const refused = await apiError(() => nothing.health())
    expect(refused.status).toBe(0)
    expect(refused.body).toBeNull()

    const mem = client()
    const notFound = await apiError(() => mem.get('memories/x/insight/abcdefabcdef'))
    expect(notFound).toMatchObject({status: 404, code: 'not_found', message: 'No memory memories/x/insight/abcdefabcdef.'})

    let inFlight: Promise<unknown>
    {
      using disposable = new MemClient(url)
      expect(await disposable.isAvailable()).toBe(true)
      inFlight = disposable.health()
    }
    // disposed at the end of the block: the pending request was aborted
    await expect(inFlight).rejects.toMatchObject({status: 0})

    const trailing = new MemClient(`${url}/`)
    expect((await trailing.health()).status).toBe('ok')
  })

  it('consolidate through the client: dry_run writes nothing; a second run on the same corpus answers zeros', async () => {
    const {client, repo} = await memServer()
    const mem = client()
    for (const text of [
      'The checkout flow times out when the payment provider is slow',
      'Checkout requests time out while the payment provider answers slowly',
      'A slow payment provider makes the checkout flow time out',
      'Checkout times out whenever the payment provider responds slowly',
    ]) {
      expect((await mem.store({repo, content: text, type: 'observation', tags: ['checkout']})).success).toBe(true)
    }
    const before = (await mem.stats(repo)).total
    const dry = await mem.consolidate(repo, true)
    for (const key of ['candidates', 'insightsCreated', 'insightsBoosted'] as const) expect(Number.isInteger(dry[key]), key).toBe(true)
    expect((await mem.stats(repo)).total).toBe(before)
    const run = await mem.consolidate(repo)
    expect(run.candidates).toBe(dry.candidates)
    expect(await mem.consolidate(repo)).toMatchObject({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
    const bad = await apiError(() => mem.consolidate(''))
    expect([bad.status, bad.code]).toEqual([400, 'invalid_input'])
  })

  it('/api/openapi.json describes every route with its parameters, bodies and responses', async () => {
    const {client, url} = await memServer()
    const doc = (await rawRequest(`${url}/api/openapi.json`)).json()
    expect(doc.openapi).toBe('3.0.3')
    expect(doc.info.version).toBe((await client().health()).version)
    const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    )
    expect(ops.sort()).toEqual(
      [
        'GET /api/health',
        'GET /api/status',
        'POST /api/mem',
        'GET /api/mem/recall',
        'GET /api/mem/search',
        'GET /api/mem/context',
        'GET /api/mem/context/preview',
        'GET /api/mem/{id}',
        'PUT /api/mem/{id}',
        'DELETE /api/mem/{id}',
        'POST /api/mem/feedback',
        'GET /api/mem/history/{id}',
        'GET /api/mem/stats',
        'GET /api/mem/browse',
        'GET /api/mem/repos',
        'POST /api/mem/consolidate',
        'POST /api/maintenance',
        'GET /api/maintenance/runs/{id}',
        'GET /api/mem/scheduled-tasks',
        'GET /api/mem/usage',
        'GET /api/mem/usage/timeseries',
        'GET /api/mem/usage/hourly',
        'GET /api/mem/quality',
        'GET /api/mem/portal',
        'POST /api/mem/enrich',
        'GET /api/openapi.json',
        'POST /api/mem/intake',
        'GET /api/mem/export',
        'GET /api/mem/graph',
        'POST /api/mem/packs/export',
        'POST /api/mem/packs/import',
        'GET /api/mem/layers',
        'POST /api/mem/layers/mount',
        'POST /api/mem/layers/sync',
        'DELETE /api/mem/layers/{layerId}',
        'GET /api/mem/links',
        'POST /api/mem/links',
        'POST /api/mem/{id}/links',
        'DELETE /api/mem/{id}/links',
      ].sort(),
    )
    const recall = doc.paths['/api/mem/recall'].get
    expect(recall.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({name: 'repo', in: 'query', required: true}),
        expect.objectContaining({name: 'q', in: 'query', required: true}),
        expect.objectContaining({name: 'limit', in: 'query', required: false, schema: expect.objectContaining({type: 'integer', default: 10, minimum: 1, maximum: 100})}),
        expect.objectContaining({name: 'type', in: 'query', required: false}),
      ]),
    )
    expect(recall.security).toEqual([{bearerAuth: []}])
    expect(recall['x-mem-scope']).toBe('read')
    expect(doc.paths['/api/health'].get.security).toEqual([])
    expect(doc.paths['/api/mem'].post['x-mem-scope']).toBe('write')
    expect(Object.keys(doc.paths['/api/mem'].post.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '403', '413', '422', '500']))
    expect(doc.paths['/api/mem'].post.requestBody.content['application/json'].schema.required).toEqual(['repo', 'content', 'type'])
    expect(doc.paths['/api/mem/{id}'].get.parameters).toContainEqual(expect.objectContaining({name: 'id', in: 'path', required: true}))
    expect(doc.components.schemas.MemoryEntry.required).toContain('supersededBy')
    expect(doc.components.schemas.Error.properties.code.enum).toContain('payload_too_large')
    // every $ref resolves
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? []
    expect(refs.length).toBeGreaterThan(5)
    for (const ref of refs) expect(doc.components.schemas[ref.split('/').pop()!.replace('"', '')], ref).toBeDefined()
  })
})

describe('API key auth', () => {
  async function withKeys() {
    const setup = await memServer()
    const now = new Date()
    const keys = {
      read: (await createKey(setup.home, {name: 'reader', scope: 'read', now})).key,
      write: (await createKey(setup.home, {name: 'writer', scope: 'write', now})).key,
      admin: (await createKey(setup.home, {name: 'root', scope: 'admin', now})).key,
    }
    return {...setup, keys}
  }

  it('public routes stay public; everything else needs a key (401 bodies as specified)', async () => {
    const {client, url, repo} = await withKeys()
    const anonymous = client()
    expect(await anonymous.isAvailable()).toBe(true)
    expect((await anonymous.status()).status).toBe('running')

    const missing = await apiError(() => anonymous.recall(repo, 'x'))
    expect(missing.status).toBe(401)
    expect(strict(S.ErrorResponse, missing.body)).toMatchObject({error: 'Authentication required', code: 'unauthorized'})
    const unknown = await apiError(() => client('mem_' + 'A'.repeat(43)).recall(repo, 'x'))
    expect(unknown.status).toBe(401)
    expect(unknown.body).toMatchObject({error: 'Invalid API key', code: 'unauthorized'})
    const junk = await apiError(() => client('not-even-a-key').stats(repo))
    expect(junk.body).toMatchObject({error: 'Invalid API key'})

    for (const header of ['Basic abc', 'Bearer', 'Bearer ', 'mem_xyz']) {
      const r = await rawRequest(`${url}/api/mem/repos`, {headers: {authorization: header}})
      expect(r.status, header).toBe(401)
      expect(r.json()).toMatchObject({error: 'Authentication required', code: 'unauthorized'})
      expect(r.headers['www-authenticate']).toBe('Bearer realm="mem"')
    }
    // an unauthenticated request learns nothing about which routes exist, and writes nothing
    expect((await rawRequest(`${url}/api/nope`)).status).toBe(401)
    const post = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({repo, content: 'sneaky', type: 'insight'})})
    expect(post.status).toBe(401)
  })

  it('scopes: read < write < admin; a short scope is 403 with `required`', async () => {
    const {client, url, repo, keys} = await withKeys()
    const reader = client(keys.read)
    const writer = client(keys.write)
    const admin = client(keys.admin)

    const denied = await apiError(() => reader.store({repo, content: 'readers cannot write', type: 'insight'}))
    expect(denied.status).toBe(403)
    expect(strict(S.ErrorResponse, denied.body)).toMatchObject({code: 'forbidden', required: 'write'})

    const {id} = await writer.store({repo, content: 'writers can write', type: 'insight'})
    expect(id).toMatch(new RegExp(`^memories/${repo.replace(/[:\\/._]/g, '-')}/insight/[0-9a-f]{12}$`))
    expect((await reader.recall(repo, 'writers')).map((r) => r.id)).toEqual([id])
    expect((await reader.get(id!)).id).toBe(id)
    expect((await admin.store({repo, content: 'admins can write too', type: 'insight'})).success).toBe(true)
    const forget = await apiError(() => reader.forget(id!))
    expect(forget.status).toBe(403)
    expect(await writer.forget(id!)).toBe(true)

    // maintenance needs admin
    for (const [key, status, required] of [[keys.read, 403, 'admin'], [keys.write, 403, 'admin'], [keys.admin, 200, undefined]] as const) {
      const r = await rawRequest(`${url}/api/maintenance?repo=x`, {method: 'POST', headers: {authorization: `Bearer ${key}`}})
      expect(r.status).toBe(status)
      if (required) expect(r.json()).toMatchObject({code: 'forbidden', required})
    }
  })

  it('keys are read from the user config while serving: a revoked key is refused at once, a new one accepted', async () => {
    const {client, repo, home, keys} = await withKeys()
    const {revokeKey} = await import('../../../src/config/api-keys.js')
    const reader = client(keys.read)
    expect((await reader.stats(repo)).total).toBe(0)
    await revokeKey(home, 'reader')
    const err = await apiError(() => reader.stats(repo))
    expect(err.body).toMatchObject({error: 'Invalid API key'})
    const fresh = await createKey(home, {name: 'fresh', scope: 'read', now: new Date()})
    expect((await client(fresh.key).stats(repo)).total).toBe(0)
  })

  it('auth.enabled: false turns checking off (keys kept)', async () => {
    const {client, repo, home} = await withKeys()
    const {readFileSync, writeFileSync} = await import('node:fs')
    const file = `${home}/config.yaml`
    writeFileSync(file, readFileSync(file, 'utf8').replace('enabled: true', 'enabled: false'))
    expect((await client().stats(repo)).total).toBe(0)
  })

  it('the update check: health reports the cached latest version from the configured registry', async () => {
    const registry = await fakeRegistry('99.0.0')
    const {client, home} = await memServer({server: {updateCheck: {registry: registry.url, enabled: true}}})
    const mem = client()
    const health = await eventually(async () => {
      const h = await mem.health()
      return h.latestVersion ? h : undefined
    })
    expect(health).toMatchObject({latestVersion: '99.0.0', updateAvailable: true})
    expect(registry.hits()).toBe(1)
    // it asks about this package's own name, never `mem` (an unrelated npm package at 10.0.0)
    expect(registry.paths()).toEqual(['/mem-for-agents/latest'])
    const {readFileSync} = await import('node:fs')
    expect(JSON.parse(readFileSync(`${home}/update-check.json`, 'utf8'))).toMatchObject({registry: registry.url, latestVersion: '99.0.0'})
  })
})
