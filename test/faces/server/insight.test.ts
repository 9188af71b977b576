// Usage, quality, portal and enrichment over HTTP, through the client library against a real
// listening server; every body is parsed with the strict schema the OpenAPI document publishes.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MemApiError, MemClient} from '../../../src/client/index.js'
import {createKey} from '../../../src/config/api-keys.js'
import * as I from '../../../src/model/shapes/insight.js'
import * as S from '../../../src/model/shapes/index.js'
import {fakeRuntime} from '../../helpers/fake-llm.js'
import {httpMcpClient} from '../../helpers/mcp.js'
import {eventually, memServer, rawRequest} from '../../helpers/server.js'

async function apiError(fn: () => Promise<unknown>): Promise<MemApiError> {
  const err = await fn().then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(MemApiError)
  return err as MemApiError
}

function configure(home: string, yaml: string): void {
  mkdirSync(home, {recursive: true})
  writeFileSync(join(home, 'config.yaml'), yaml)
}

describe('usage, quality and portal over HTTP', () => {
  it('counts the requests it answers and reports them in every shape', async () => {
    // the scheduler looks for repos every 20 ms (its first run is 10 minutes away on the fixed clock)
    const {client, repo, server} = await memServer({server: {maintenance: {tickMs: 20}}})
    const mem = client()
    const stored = await mem.store({repo, content: 'Staging deploys need the VPN up first.', type: 'procedure', tags: ['deploy']})
    await mem.store({repo, content: 'The nightly job rotates the logs at 02:00 UTC.', type: 'observation'})
    await mem.recall(repo, 'deploy staging')
    await mem.recall(repo, 'logs')
    await mem.get(stored.id!)

    const usage = I.UsageResult.parse(await mem.usage(repo))
    expect(usage).toMatchObject({repo, days: 30, from: '2026-01-31T00:00:00.000Z', to: '2026-03-01T12:00:00.000Z', total: 5})
    expect(usage.operations.map((o) => [o.operation, o.count])).toEqual([['recall', 2], ['store', 2], ['get', 1]])
    expect((await mem.usage(repo, 7)).from).toBe('2026-02-23T00:00:00.000Z')

    const series = I.UsageTimeseries.parse(await mem.usageTimeseries(repo, 3))
    expect(series.buckets.map((b) => b.date)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01'])
    expect(series.buckets[2].byOperation).toMatchObject({recall: 2, store: 2, get: 1, usage: 2})

    const hourly = I.UsageHourly.parse(await mem.usageHourly(repo))
    expect(hourly.days).toBe(7)
    expect(hourly.buckets).toHaveLength(168)
    expect(hourly.buckets.at(-1)).toEqual({hour: '2026-03-01T12:00:00.000Z', count: 8})

    // recalls are recorded on the memories in the background (within 250 ms)
    await eventually(async () => (await mem.quality(repo)).recalled === 2)
    const quality = I.QualityReport.parse(await mem.quality(repo))
    expect(quality).toMatchObject({repo, totalMemories: 2, recalled: 2, score: 90})
    expect(quality.issues[0].kind).toBe('no-feedback')

    await eventually(async () => (await mem.portal(repo)).tasks.length === 2)
    const portal = I.PortalResult.parse(await mem.portal(repo))
    expect(portal).toMatchObject({repo, counts: {procedure: 1, observation: 1, insight: 0, heuristic: 0}, total: 2, quality: {score: 90}})
    expect(portal.recent.map((m) => m.content)).toEqual(['The nightly job rotates the logs at 02:00 UTC.', 'Staging deploys need the VPN up first.'])
    expect(portal.usage.days).toBe(30)
    expect(portal.usage.timeseries).toHaveLength(30)
    expect(portal.tasks.map((t) => t.type)).toEqual(['update-check', 'maintenance'])
    expect(portal.tasks[1].repo).toBe(portal.repoId)

    // bad input is a 400 naming the parameter
    for (const [path, match] of [
      [`/api/mem/usage?repo=${encodeURIComponent(repo)}&days=0`, /days must be 1 to 365/],
      [`/api/mem/usage/hourly?repo=${encodeURIComponent(repo)}&days=40`, /days must be 1 to 31/],
      [`/api/mem/usage/timeseries?repo=${encodeURIComponent(repo)}&days=abc`, /days must be a whole number/],
      ['/api/mem/quality', /repo is required/],
      ['/api/mem/portal', /repo is required/],
    ] as const) {
      const r = await rawRequest(`${server.url}${path}`)
      expect(r.status, path).toBe(400)
      expect(S.ErrorResponse.parse(r.json()).error).toMatch(match)
    }
  })

  it('are in the OpenAPI document with read scope; enrich needs write', async () => {
    const {client, url, home, repo} = await memServer()
    const doc = (await rawRequest(`${url}/api/openapi.json`)).json()
    for (const path of ['/api/mem/usage', '/api/mem/usage/timeseries', '/api/mem/usage/hourly', '/api/mem/quality', '/api/mem/portal']) {
      expect(doc.paths[path].get['x-mem-scope'], path).toBe('read')
    }
    expect(doc.paths['/api/mem/enrich'].post['x-mem-scope']).toBe('write')
    expect(Object.keys(doc.paths['/api/status'].get.responses['200'].content['application/json'].schema.properties.enrichment.properties).sort()).toEqual(['enabled', 'model', 'provider', 'reachable'])

    const read = (await createKey(home, {name: 'reader', scope: 'read', now: new Date()})).key
    const reader = client(read)
    expect((await reader.quality(repo)).totalMemories).toBe(0)
    const stored = await client((await createKey(home, {name: 'writer', scope: 'write', now: new Date()})).key).store({repo, content: 'A memory to enrich later on.', type: 'insight'})
    expect((await apiError(() => reader.enrich(stored.id!))).status).toBe(403)
    expect((await apiError(() => new MemClient(url).portal(repo))).status).toBe(401)
  })
})

describe('enrichment over HTTP', () => {
  it('answers with the heuristic when no runtime is configured, and says so in status', async () => {
    const {client, repo} = await memServer()
    const mem = client()
    const {id} = await mem.store({repo, content: 'Run `npm run lint` before pushing to main.', type: 'procedure'})
    const r = I.EnrichResult.parse(await mem.enrich(id!))
    expect(r).toMatchObject({id, enriched: true, provider: 'heuristic', oneLiner: 'Run `npm run lint` before pushing to main', entities: ['npm run lint']})
    const status = S.StatusResult.parse(await mem.status())
    expect(status.enrichment).toEqual({enabled: false, provider: 'heuristic', model: null, reachable: false})
    expect((await apiError(() => mem.enrich('memories/x/insight/000000000000'))).status).toBe(404)
    expect((await apiError(() => mem.enrich('not-an-id'))).status).toBe(400)
  })

  it('goes through a configured runtime; a failing one answers 503 and changes nothing', async () => {
    const fake = await fakeRuntime()
    const {client, repo, home} = await memServer()
    configure(home, `enrichment:\n  provider: openai\n  url: ${fake.url}\n  model: tiny\n  timeoutMs: 500\n`)
    const mem = client()
    const {id} = await mem.store({repo, content: 'The search index is rebuilt by npm run reindex.', type: 'procedure'})
    const status = S.StatusResult.parse(await mem.status())
    expect(status.enrichment).toEqual({enabled: true, provider: 'openai', model: 'tiny', reachable: true})
    const r = I.EnrichResult.parse(await mem.enrich(id!))
    expect(r).toMatchObject({id, enriched: true, provider: 'openai', oneLiner: 'Model: The search index is rebuilt'})
    expect((await mem.get(id!)).oneLiner).toBe(r.oneLiner)

    const {id: other} = await mem.store({repo, content: 'Another procedure: restart the worker after config changes.', type: 'procedure'})
    const before = await mem.get(other!)
    fake.setMode('slow')
    const err = await apiError(() => mem.enrich(other!))
    expect(err.status).toBe(503)
    expect(err.body).toMatchObject({code: 'unavailable', error: expect.stringMatching(/did not answer within 500 ms.*left unchanged/), hint: expect.any(String)})
    expect(await mem.get(other!)).toEqual(before)
  })
})

describe('the MCP tools', () => {
  it('memory_usage, memory_quality and memory_enrich answer what the HTTP API answers', async () => {
    const {url, repo, client} = await memServer()
    const mem = client()
    const {id} = await mem.store({repo, content: 'Migrations run with npm run migrate before the app starts.', type: 'procedure'})
    const mcp = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    const call = async (name: string, args: Record<string, unknown>) => (await mcp.callTool({name, arguments: args})) as any

    const usage = await call('memory_usage', {days: 7})
    expect(I.UsageResult.parse(usage.structuredContent)).toMatchObject({repo, days: 7, total: 1, operations: [expect.objectContaining({operation: 'store', count: 1})]})
    expect(usage.content[0].text).toMatch(/1 calls in .* over the last 7 days:\n- store: 1 calls/)

    const quality = await call('memory_quality', {})
    expect(quality.structuredContent).toEqual(await mem.quality(repo))
    // one memory, never recalled: nothing to score yet
    expect(quality.content[0].text).toMatch(/^Quality score none yet for /)

    const enriched = await call('memory_enrich', {id})
    expect(I.EnrichResult.parse(enriched.structuredContent)).toMatchObject({id, provider: 'heuristic', entities: ['npm run migrate']})
    expect(enriched.content[0].text).toMatch(/via heuristic/)
    const missing = await call('memory_enrich', {id: 'memories/x/insight/000000000000'})
    expect(missing.isError).toBe(true)
  })
})
