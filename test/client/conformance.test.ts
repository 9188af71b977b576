// Conformance: the specification (memory-store-spec.md) read as a client's checklist, every route
// driven through the typed client (src/client) against a real `mem serve` on loopback. Each `it`
// is one line a client author would tick: the route, its defaults, its status codes, its shapes
// (parsed strictly with the server's own schemas) and its encodings. Where the client cannot say
// something (a raw status, a header, a body-less POST with a JSON content type), the raw request
// is made beside it.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import type {z} from 'zod'
import {MemApiError, MemClient} from '../../src/client/index.js'
import {createKey} from '../../src/config/api-keys.js'
import {type RunningServer, startServer} from '../../src/faces/server/serve.js'
import * as S from '../../src/model/shapes/index.js'
import {openMem, type MemRuntime} from '../../src/runtime/open-mem.js'
import {fixedClock, tempDir} from '../helpers/mem.js'
import {rawRequest} from '../helpers/server.js'

const strict = <T extends z.ZodType>(schema: T, value: unknown): z.output<T> => schema.parse(value)
const JSON_TYPE = {'content-type': 'application/json'}

async function failure(call: () => Promise<unknown>): Promise<MemApiError> {
  try {
    await call()
  } catch (err) {
    if (err instanceof MemApiError) return err
    throw err
  }
  throw new Error('expected the call to fail')
}

let runtime: MemRuntime
let server: RunningServer
let mem: MemClient
let url: string
let repo: string
let other: string
let repoId: string
const clock = fixedClock('2026-05-01T09:00:00.000Z')
let shared: string

beforeAll(async () => {
  const base = (shared = mkdtempSync(join(tmpdir(), 'mem-conformance-')))
  repo = join(base, 'app')
  other = join(base, 'api')
  for (const dir of [repo, other]) mkdirSync(join(dir, '.git'), {recursive: true})
  writeFileSync(join(repo, 'README.md'), '# App\n\nRun the tests with `npm test`.\n')
  runtime = openMem({meaning: {model: 'off'}, home: join(base, 'home'), now: clock, longLived: true})
  server = await startServer({runtime, port: 0, updateCheck: false, currentRepo: repo, maintenance: {schedule: false}})
  url = server.url
  mem = new MemClient(url)
  const first = await mem.store({repo, content: 'Integration tests need docker compose up before npm run test:int.', type: 'procedure', tags: ['testing']})
  repoId = first.id!.split('/')[1]
}, 60_000)

afterAll(async () => {
  mem?.close()
  await server?.close()
  await runtime?.close()
  if (shared) rmSync(shared, {recursive: true, force: true})
})

describe('1. Repo parameter convention', () => {
  it('`repo` takes a path or an already normalized id; both reach one store', async () => {
    const byPath = await mem.stats(repo)
    const byId = await mem.stats(repoId)
    expect(byId.total).toBe(byPath.total)
    expect(byPath.total).toBeGreaterThan(0)
  })

  it('a drive path `C:\\proj` becomes `C--proj`, whatever the server runs on, and `repo=C--proj` reaches it', async () => {
    const stored = await mem.store({repo: 'C:\\proj', content: 'A Windows client keeps its memories under its drive path.', type: 'insight'})
    expect(stored.id).toMatch(/^memories\/C--proj\/insight\/[0-9a-f]{12}$/)
    expect((await mem.stats('C--proj')).total).toBe(1)
    expect((await mem.recall('C:\\proj', 'windows drive path')).map((r) => r.repoId)).toEqual(['C--proj'])
  })

  it('search text goes in `q`; a memory id in a path segment is URL-encoded (`%2F`)', async () => {
    const [hit] = await mem.recall(repo, 'docker compose')
    const raw = await rawRequest(`${url}/api/mem/${encodeURIComponent(hit.id)}`)
    expect(raw.status).toBe(200)
    expect(raw.json().id).toBe(hit.id)
    expect((await rawRequest(`${url}/api/mem/recall?repo=${encodeURIComponent(repo)}&q=docker`)).status).toBe(200)
    expect((await rawRequest(`${url}/api/mem/recall?repo=${encodeURIComponent(repo)}&query=docker`)).status).toBe(400)
  })

  it('`repoId` is refused as a parameter name: a missing `repo` is a 400 that names it', async () => {
    const r = await rawRequest(`${url}/api/mem/stats?repoId=${encodeURIComponent(repoId)}`)
    expect(r.status).toBe(400)
    expect(strict(S.ErrorResponse, r.json())).toMatchObject({code: 'invalid_input'})
    expect(r.json().error).toMatch(/repo/)
  })
})

describe('2. Store: request defaults and the three outcomes', () => {
  it('stored: 201 {id, success: true}; the id is memories/<repo id>/<type>/<key>; defaults applied', async () => {
    const r = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: JSON_TYPE, body: JSON.stringify({repo, content: 'The staging cluster scales to zero at night.', type: 'observation'})})
    expect(r.status).toBe(201)
    const {id} = strict(S.Stored, r.json())
    expect(id).toMatch(new RegExp(`^memories/${repoId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/observation/[0-9a-f]{12}$`))
    const entry = strict(S.MemoryEntry, await mem.get(id))
    expect(entry).toMatchObject({tags: [], importance: 0.5, source: 'claude-session', sessionId: null, supersedes: null, type: 'observation'})
  })

  it('duplicate: 200 {duplicateId, success: false}; the client returns it, nothing is stored', async () => {
    const before = (await mem.stats(repo)).total
    const again = await mem.store({repo, content: 'integration tests need Docker Compose up before npm run test:int', type: 'procedure'})
    expect(again).toMatchObject({success: false, duplicateId: expect.stringMatching(/^memories\//)})
    const raw = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: JSON_TYPE, body: JSON.stringify({repo, content: 'Integration tests need docker compose up before npm run test:int.', type: 'procedure'})})
    expect(raw.status).toBe(200)
    strict(S.Duplicate, raw.json())
    expect((await mem.stats(repo)).total).toBe(before)
  })

  it('rejected by the secret scanner: 422 {reason, success: false}; the client returns it, nothing is stored', async () => {
    const before = (await mem.stats(repo)).total
    const secret = `the deploy bot uses ${'ghp_'}a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8`
    const outcome = await mem.store({repo, content: secret, type: 'observation'})
    expect(outcome.success).toBe(false)
    expect(outcome.reason).toBeTruthy()
    expect(outcome.reason).not.toContain('a1B2c3D4e5F6')
    const raw = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: JSON_TYPE, body: JSON.stringify({repo, content: secret, type: 'observation'})})
    expect(raw.status).toBe(422)
    strict(S.Rejected, raw.json())
    expect((await mem.stats(repo)).total).toBe(before)
  })

  it('invalid request (unknown type, importance outside 0..1, no content): 400 {error, code, details}, thrown by the client', async () => {
    for (const bad of [
      {repo, content: 'x', type: 'fact'},
      {repo, content: 'x', type: 'insight', importance: 1.5},
      {repo, type: 'insight'},
    ]) {
      const err = await failure(() => mem.store(bad as never))
      expect(err.status).toBe(400)
      expect(strict(S.ErrorResponse, err.body)).toMatchObject({code: 'invalid_input'})
    }
  })

  it('supersedes: the old entry is replaced and the version chain links them', async () => {
    const old = await mem.store({repo, content: 'Releases are cut on Fridays.', type: 'procedure'})
    const next = await mem.store({repo, content: 'Releases are cut on Thursdays, never on Fridays.', type: 'procedure', supersedes: old.id})
    expect(next.success).toBe(true)
    expect((await mem.history(next.id!)).map((c) => c.id)).toEqual([next.id, old.id])
    expect((await mem.get(old.id!)).supersededBy).toBe(next.id)
  })
})

describe('4. Core routes', () => {
  it('GET /api/mem/recall: `limit` defaults to 10 and is a maximum; type filter; items in the spec shape, capitalized type, sorted by score', async () => {
    // twelve flaky tests, each told differently (a sentence that only swaps a value reads as an update)
    const flaky = [
      'The flaky checkout test for cart totals fails when the mock clock drifts past midnight',
      'Coupon validation is flaky in checkout because the fixture expires after one hour',
      'Gift card balance checks flake on CI runners with little memory',
      'Tax rounding assertions in the checkout suite are flaky under the German locale',
      'Guest login during checkout flakes when the session cookie is set too late',
      'The address form test is flaky: autocomplete answers arrive out of order',
      'Shipping quote lookups make the checkout suite flaky when the carrier sandbox is slow',
      'Refund email assertions flake because the mail catcher is polled only every two seconds',
      'Order history pagination in the checkout suite is flaky with more than fifty orders',
      'Wish list merges flake after login in the checkout flow when two tabs are open',
      'Currency switching is flaky at checkout because exchange rates are fetched live',
      'Saved card tokens flake in checkout tests after the payment sandbox rotates keys',
    ]
    for (const [i, content] of flaky.entries()) await mem.store({repo, content, type: i % 2 ? 'observation' : 'heuristic', tags: ['flaky']})
    const all = await mem.recall(repo, 'flaky checkout suite')
    expect(all).toHaveLength(10)
    for (const item of all) {
      strict(S.RecallItem, item)
      expect(['Observation', 'Insight', 'Procedure', 'Heuristic']).toContain(item.type)
      expect(item.repoId).toBe(repoId)
      expect(item.ageDays).toBe(0)
      expect(item.stalenessWarning).toBeNull()
    }
    expect(all.map((r) => r.score)).toEqual([...all.map((r) => r.score)].sort((a, b) => b - a))
    expect(await mem.recall(repo, 'flaky checkout suite', 3)).toHaveLength(3)
    expect(new Set((await mem.recall(repo, 'flaky checkout suite', 20, 'heuristic')).map((r) => r.type))).toEqual(new Set(['Heuristic']))
    // a maximum, never padded: a question nothing matches answers no results
    expect(await mem.recall(repo, 'quantum telescope aperture')).toEqual([])
  })

  it('GET /api/mem/search is the legacy alias of recall: the same answer', async () => {
    expect((await mem.search(repo, 'flaky checkout suite', 5)).map((r) => r.id)).toEqual((await mem.recall(repo, 'flaky checkout suite', 5)).map((r) => r.id))
  })

  it('GET /api/mem/context: `[Memory: …]` first line, then [I]/[P]/[H] lines, under 600 tokens', async () => {
    const context = await mem.context(repo)
    const [head, ...lines] = context.split('\n')
    expect(head).toMatch(/^\[Memory: \d+ entries, \d+ observations, \d+ insights, \d+ procedures, \d+ heuristics\]$/)
    expect(lines.length).toBeGreaterThan(0)
    for (const line of lines) expect(line).toMatch(/^\[(I|P|H|O)\] \S/)
    expect(context.length).toBeLessThan(600 * 4)
  })

  it('GET /api/mem/{id}: the full entry; an unknown id is 404 {error, code: not_found}', async () => {
    const [hit] = await mem.recall(repo, 'docker compose')
    strict(S.MemoryEntry, await mem.get(hit.id))
    const err = await failure(() => mem.get(`memories/${repoId}/insight/000000000000`))
    expect(err.status).toBe(404)
    expect(strict(S.ErrorResponse, err.body).code).toBe('not_found')
  })

  it('PUT /api/mem/{id}: a content edit answers {id, superseded, success} with a new id; a metadata edit keeps the id', async () => {
    const {id} = await mem.store({repo, content: 'Lint with npm run lint.', type: 'procedure'})
    const meta = await mem.edit(id!, {tags: ['lint'], importance: 0.9})
    expect(meta).toMatchObject({id, success: true, superseded: null})
    expect(await mem.get(id!)).toMatchObject({tags: ['lint'], importance: 0.9})
    const edited = await mem.edit(id!, {content: 'Lint with npm run lint:all (lint alone skips docs).'})
    expect(edited).toMatchObject({success: true, superseded: id})
    expect(edited.id).not.toBe(id)
  })

  it('DELETE /api/mem/{id}?reason=: {forgotten: true}; the entry keeps the reason and leaves recall', async () => {
    const {id} = await mem.store({repo, content: 'The old VPN needs a hardware token.', type: 'observation'})
    expect(await mem.forget(id!, 'the VPN was retired')).toBe(true)
    expect(await mem.get(id!)).toMatchObject({forgetReason: 'the VPN was retired', forgottenAt: expect.any(String)})
    expect((await mem.recall(repo, 'VPN hardware token')).map((r) => r.id)).not.toContain(id)
  })

  it('POST /api/mem/feedback {memoryId, wasUsed}: {applied: true}', async () => {
    const [hit] = await mem.recall(repo, 'docker compose')
    expect(await mem.feedback(hit.id, true)).toBe(true)
    const raw = await rawRequest(`${url}/api/mem/feedback`, {method: 'POST', headers: JSON_TYPE, body: JSON.stringify({memoryId: hit.id, wasUsed: false})})
    expect(strict(S.FeedbackResult, raw.json())).toEqual({applied: true})
  })

  it('GET /api/mem/history/{id}: {chain: [{id, content, createdAt}]}, newest first, from any version', async () => {
    const a = await mem.store({repo, content: 'The cache TTL is 5 minutes.', type: 'insight'})
    clock.advance(60_000)
    const b = await mem.edit(a.id!, {content: 'The cache TTL is 10 minutes.'})
    const raw = await rawRequest(`${url}/api/mem/history/${encodeURIComponent(a.id!)}`)
    expect(strict(S.HistoryResult, raw.json()).chain.map((c) => c.id)).toEqual([b.id, a.id])
  })

  it('GET /api/mem/stats: {repo (as given), summary, counts keyed by lowercase type, total = their sum}', async () => {
    const s = strict(S.StatsResult, await mem.stats(repo))
    expect(s.repo).toBe(repo)
    expect(Object.keys(s.counts).sort()).toEqual(['heuristic', 'insight', 'observation', 'procedure'])
    expect(s.total).toBe(Object.values(s.counts).reduce((a, b) => a + b, 0))
    expect(s.summary).toContain(String(s.total))
  })
})

describe('4. Browse and graph', () => {
  it('GET /api/mem/browse: skip 0 and take 50 by default, `count` is the total, newest first, type filter', async () => {
    const page = strict(S.BrowseResult, await mem.browse(repo))
    expect(page).toMatchObject({repo: repoId, skip: 0, take: 50})
    expect(page.count).toBe((await mem.stats(repo)).total)
    expect(page.entries.length).toBe(Math.min(50, page.count))
    const dates = page.entries.map((e) => e.createdAt)
    expect(dates).toEqual([...dates].sort().reverse())
    const second = await mem.browse(repo, 2, 3, 'observation')
    expect(second).toMatchObject({skip: 2, take: 3})
    expect(new Set(second.entries.map((e) => e.type))).toEqual(new Set(['observation']))
  })

  it('GET /api/mem/repos: {repos: [{repoId, …}]}; the client lists the ids', async () => {
    const listed = strict(S.ReposResult, await mem.repos())
    expect(await mem.listRepos()).toEqual(listed.repos.map((r) => r.repoId))
    expect(listed.repos.map((r) => r.repoId)).toEqual(expect.arrayContaining([repoId, 'C--proj']))
    expect(listed.current).toEqual({repoId, path: repo, name: 'app'})
  })

  it('GET /api/mem/graph: nodes {id, type, label, importance, tags}, edges {from, to, relation}; limit 200 by default', async () => {
    const graph = strict(S.GraphResult, await mem.graph(repo))
    expect(graph.nodes.length).toBe(Math.min(200, (await mem.stats(repo)).total))
    const limited = await mem.graph(repo, 5)
    expect(limited.nodes).toHaveLength(5)
  })
})

describe('4. Operations', () => {
  it('POST /api/mem/intake: {newCount, skippedCount}; a second run writes nothing new', async () => {
    const first = strict(S.IntakeResult, await mem.intake(repo))
    expect(first.newCount).toBeGreaterThan(0)
    const second = await mem.intake(repo)
    expect(second.newCount).toBe(0)
  })

  it('POST /api/mem/consolidate: dry_run writes nothing; a run makes insights with `derived` edges; a converged corpus answers zeros', async () => {
    for (const when of ['on Mondays', 'after the clock changes', 'when the runner is slow', 'under parallel load']) {
      await mem.store({repo, content: `The payment webhook test times out ${when}, a retry passes`, type: 'observation', tags: ['webhook-flake']})
    }
    const before = (await mem.stats(repo)).counts.insight
    const total = (await mem.stats(repo)).total
    const dry = strict(S.ConsolidateResult, await mem.consolidate(repo, true))
    expect(dry.candidates).toBeGreaterThan(0)
    expect((await mem.stats(repo)).counts.insight).toBe(before)
    expect((await mem.stats(repo)).total).toBe(total)
    const run = await mem.consolidate(repo)
    expect(run.insightsCreated).toBeGreaterThan(0)
    expect((await mem.graph(repo)).edges.some((e) => e.relation === 'derived')).toBe(true)
    expect(await mem.consolidate(repo)).toMatchObject({candidates: 0, insightsCreated: 0, insightsBoosted: 0})
  })

  it('dry_run accepts true/false/True/False/1/0; anything else is a 400', async () => {
    for (const value of ['true', 'True', '1', 'false', 'False', '0']) {
      const r = await rawRequest(`${url}/api/mem/consolidate?repo=${encodeURIComponent(repo)}&dry_run=${value}`, {method: 'POST'})
      expect(r.status, value).toBe(200)
    }
    expect((await rawRequest(`${url}/api/mem/consolidate?repo=${encodeURIComponent(repo)}&dry_run=maybe`, {method: 'POST'})).status).toBe(400)
  })

  it('a body-less POST works with or without `Content-Type: application/json`', async () => {
    for (const headers of [JSON_TYPE, {}]) {
      expect((await rawRequest(`${url}/api/mem/consolidate?repo=${encodeURIComponent(repo)}`, {method: 'POST', headers})).status).toBe(200)
      expect((await rawRequest(`${url}/api/maintenance?repo=${encodeURIComponent(repo)}`, {method: 'POST', headers})).status).toBe(200)
    }
  })

  it('POST /api/maintenance: 200 with {repoId, stages} in the spec order; an unknown run id is 404', async () => {
    const answer = await mem.maintenance(repo)
    expect('runId' in answer).toBe(false)
    const report = strict(S.MaintenanceReport, answer)
    expect(report.repoId).toBe(repoId)
    expect(report.stages.map((s) => s.name)).toEqual(['ttl-expiry', 'retention', 'dedup', 'decay', 'cleanup', 'enrichment', 'consolidation'])
    expect((await failure(() => mem.maintenanceRun('run-unknown'))).status).toBe(404)
  })

  it('GET /api/mem/export: plain markdown, organised by type', async () => {
    const raw = await rawRequest(`${url}/api/mem/export?repo=${encodeURIComponent(repo)}`)
    expect(raw.headers['content-type']).toMatch(/^text\/markdown/)
    const markdown = await mem.exportMarkdown(repo)
    expect(markdown).toBe(raw.text)
    for (const heading of ['Procedures', 'Heuristics', 'Insights', 'Observations']) expect(markdown).toMatch(new RegExp(`^## ${heading}`, 'm'))
  })
})

describe('4. Maintenance beyond the synchronous window (202 and the poll)', () => {
  it('202 {runId, repo, status: running, startedAt, poll}; the poll answers the run until it completes with the report', async () => {
    const base = tempDir('mem-conformance-202-')
    const slow = join(base, 'svc')
    mkdirSync(join(slow, '.git'), {recursive: true})
    const rt = openMem({meaning: {model: 'off'}, home: join(base, 'home'), longLived: true})
    const srv = await startServer({runtime: rt, port: 0, updateCheck: false, maintenance: {windowMs: 0, schedule: false}})
    const client = new MemClient(srv.url)
    try {
      await client.store({repo: slow, content: 'The billing cron runs at 02:00 UTC.', type: 'observation'})
      const raw = await rawRequest(`${srv.url}/api/maintenance?repo=${encodeURIComponent(slow)}`, {method: 'POST'})
      expect(raw.status).toBe(202)
      const accepted = strict(S.MaintenanceAccepted, raw.json())
      expect(accepted.poll).toBe(`/api/maintenance/runs/${accepted.runId}`)
      let run = strict(S.MaintenanceRun, await client.maintenanceRun(accepted.runId))
      for (let i = 0; i < 200 && run.status === 'running'; i++) {
        await new Promise((r) => setTimeout(r, 25))
        run = await client.maintenanceRun(accepted.runId)
      }
      expect(run).toMatchObject({runId: accepted.runId, status: 'completed', completedAt: expect.any(String)})
      expect(run.report?.stages).toHaveLength(7)
    } finally {
      client.close()
      await srv.close()
      await rt.close()
    }
  })
})

describe('4. Layers, links, packs, enrichment', () => {
  it('packs: export answers a .mem file (SQLite); import answers {imported, skipped, packId, name, version}', async () => {
    const raw = await rawRequest(`${url}/api/mem/packs/export?repo=${encodeURIComponent(repo)}`, {method: 'POST'})
    expect(raw.headers['content-disposition']).toBe('attachment; filename="app.mem"')
    const pack = await mem.packExport(repo, {name: 'team', version: '1.0.0'})
    expect(Buffer.from(pack.subarray(0, 15)).toString()).toBe('SQLite format 3')
    const imported = strict(S.PackImportResult, await mem.packImport(other, pack))
    expect(imported).toMatchObject({imported: (await mem.stats(repo)).total, skipped: 0, name: 'team', version: '1.0.0'})
    expect((await mem.packImport(other, pack)).imported).toBe(0)
    expect((await failure(() => mem.packImport(other, new Uint8Array([1, 2, 3])))).status).toBe(400)
  })

  it('layers: GET lists, mount {repo, layerId, type: shared}, sync, DELETE unmounts', async () => {
    const source = join(tempDir('mem-conformance-layer-'), 'packs')
    mkdirSync(source, {recursive: true})
    writeFileSync(join(source, 'team.mem'), await mem.packExport(other, {name: 'team'}))
    const layer = strict(S.Layer, await mem.mountLayer(repo, 'team', 'shared', source))
    expect(layer).toMatchObject({id: 'team', type: 'shared'})
    // the repository's own layer is listed as `local`
    expect((await mem.layers(repo)).map((l) => [l.id, l.type])).toEqual([['local', 'local'], ['team', 'shared']])
    strict(S.SyncResult, await mem.syncLayer(repo, 'team'))
    expect(await mem.unmountLayer(repo, 'team')).toBe(true)
    expect((await mem.layers(repo)).map((l) => l.id)).toEqual(['local'])
  })

  it('links: POST /api/mem/links {repo, targetRepo, note} makes a cross-repo-link memory; memory links attach and detach', async () => {
    const link = await mem.linkRepo(repo, other, 'the api serves this app')
    expect((await mem.get(link.id)).tags).toContain('cross-repo-link')
    expect((await mem.links(repo)).map((l) => l.id)).toContain(link.id)
    const [a, b] = await mem.recall(repo, 'flaky checkout suite', 2)
    expect(await mem.linkMemory(a.id, b.id, 'see-also')).toBe(true)
    expect((await mem.get(a.id)).links).toContainEqual({targetId: b.id, relation: 'see-also'})
    expect(await mem.unlinkMemory(a.id, b.id)).toBe(true)
  })

  it('POST /api/mem/enrich {id}: {id, enriched, oneLiner, summary} (the heuristic when no runtime is set)', async () => {
    const [hit] = await mem.recall(repo, 'docker compose')
    const enriched = strict(S.EnrichResult, await mem.enrich(hit.id))
    expect(enriched).toMatchObject({id: hit.id, enriched: true})
    expect(enriched.oneLiner).toBeTruthy()
  })
})

describe('4. Quality, usage and monitoring', () => {
  it('quality, usage (days default 30), timeseries, hourly, scheduled tasks, portal and context preview answer their shapes', async () => {
    strict(S.QualityReport, await mem.quality(repo))
    const usage = strict(S.UsageResult, await mem.usage(repo))
    expect(usage.days).toBe(30)
    expect(strict(S.UsageTimeseries, await mem.usageTimeseries(repo, 7)).buckets).toHaveLength(7)
    strict(S.UsageHourly, await mem.usageHourly(repo))
    strict(S.ScheduledTasksResult, {tasks: await mem.scheduledTasks()})
    strict(S.PortalResult, await mem.portal(repo))
    const preview = strict(S.ContextPreview, await mem.contextPreview(repo, 300))
    expect(preview).toMatchObject({repo, maxTokens: 300})
    expect(preview.estimatedTokens).toBeLessThanOrEqual(300)
  })
})

describe('4. Health, status, MCP and the web UI (public)', () => {
  it('GET /api/health {status, version, latestVersion: null (no check yet), updateAvailable}; GET /api/status {version, status, uptime, api}', async () => {
    expect(strict(S.HealthResult, await mem.health())).toMatchObject({latestVersion: null, updateAvailable: false})
    const status = strict(S.StatusResult, await mem.status())
    expect(status.uptime).toMatch(/^\d+ days?, \d+ hours?, \d+ minutes?$/)
    expect(status.api).toBe(url)
    expect(await mem.isAvailable()).toBe(true)
    const gone = new MemClient('http://127.0.0.1:9', undefined, {timeoutMs: 2_000})
    expect(await gone.isAvailable()).toBe(false)
  })

  it('POST /mcp: a JSON-RPC 2.0 tools/list answers the tool catalog', async () => {
    const res = await fetch(`${url}/mcp?repo=${encodeURIComponent(repo)}`, {
      method: 'POST',
      headers: {'content-type': 'application/json', accept: 'application/json, text/event-stream'},
      body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list'}),
    })
    expect(res.status).toBe(200)
    const text = await res.text()
    const body = (res.headers.get('content-type') ?? '').includes('event-stream') ? JSON.parse(text.split('\n').find((l) => l.startsWith('data: '))!.slice(6)) : JSON.parse(text)
    expect(body).toMatchObject({jsonrpc: '2.0', id: 1})
    expect(body.result.tools.map((t: {name: string}) => t.name)).toContain('memory_recall')
  })

  it('GET /ui serves the embedded interface', async () => {
    const r = await rawRequest(`${url}/ui/`)
    expect(r.status).toBe(200)
    expect(r.headers['content-type']).toMatch(/^text\/html/)
  })
})

describe('5. Authentication', () => {
  it('bearer keys: public health and status; missing key 401; short scope 403 {required}; maintenance needs admin', async () => {
    const base = tempDir('mem-conformance-auth-')
    const home = join(base, 'home')
    const app = join(base, 'app')
    mkdirSync(join(app, '.git'), {recursive: true})
    const read = (await createKey(home, {name: 'reader', scope: 'read', now: new Date()})).key
    const write = (await createKey(home, {name: 'writer', scope: 'write', now: new Date()})).key
    const admin = (await createKey(home, {name: 'admin', scope: 'admin', now: new Date()})).key
    const rt = openMem({meaning: {model: 'off'}, home, longLived: true})
    const srv = await startServer({runtime: rt, port: 0, updateCheck: false, maintenance: {schedule: false}})
    const clients = [new MemClient(srv.url), new MemClient(srv.url, read), new MemClient(srv.url, write), new MemClient(srv.url, admin), new MemClient(srv.url, 'mem_not-a-key')]
    const [anonymous, reader, writer, administrator, wrong] = clients
    try {
      expect((await anonymous.health()).status).toBe('ok')
      expect((await anonymous.status()).status).toBe('running')
      const missing = await failure(() => anonymous.stats(app))
      expect(missing.status).toBe(401)
      expect(missing.body).toMatchObject({code: 'unauthorized', error: 'Authentication required'})
      expect((await failure(() => wrong.stats(app))).body).toMatchObject({code: 'unauthorized', error: 'Invalid API key'})
      expect((await reader.stats(app)).total).toBe(0)
      const short = await failure(() => reader.store({repo: app, content: 'readers cannot write', type: 'observation'}))
      expect(short.status).toBe(403)
      expect(short.body).toMatchObject({code: 'forbidden', required: 'write'})
      expect((await writer.store({repo: app, content: 'writers can write', type: 'observation'})).success).toBe(true)
      expect((await failure(() => writer.maintenance(app))).body).toMatchObject({required: 'admin'})
      expect((await failure(() => writer.maintenanceRun('run-x'))).status).toBe(403)
      expect('stages' in (await administrator.maintenance(app))).toBe(true)
    } finally {
      for (const c of clients) c.close()
      await srv.close()
      await rt.close()
    }
  })
})
