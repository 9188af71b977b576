// Packs, layers and links over HTTP: through the client library and raw requests, against a
// real listening server; every JSON body is parsed with the strict schema OpenAPI publishes.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {MemApiError} from '../../../src/client/index.js'
import * as Share from '../../../src/model/shapes/sharing.js'
import * as S from '../../../src/model/shapes/index.js'
import {memServer, rawRequest} from '../../helpers/server.js'
import {entriesChecksum} from '../../../src/storage/pack-file.js'
import {loadSqlJs} from '../../../src/storage/sqljs.js'
import {HOSTILE_PACKS} from '../../helpers/hostile-packs.mjs'

async function apiError(fn: () => Promise<unknown>): Promise<MemApiError> {
  try {
    await fn()
  } catch (err) {
    expect(err).toBeInstanceOf(MemApiError)
    return err as MemApiError
  }
  throw new Error('expected the call to fail')
}

const json = (url: string, method: string, body: unknown) =>
  rawRequest(url, {method, headers: {'content-type': 'application/json'}, body: JSON.stringify(body)})

describe('packs over HTTP', () => {
  it('exports the .mem file as an attachment and imports it into another repo', async () => {
    const {client, repo, url, base} = await memServer()
    const mem = client()
    for (const content of ['the API gateway retries idempotent calls twice', 'schema migrations run at deploy time, never at boot']) {
      expect((await mem.store({repo, content, type: 'insight', tags: ['ops']})).success).toBe(true)
    }
    const raw = await rawRequest(`${url}/api/mem/packs/export?repo=${encodeURIComponent(repo)}`, {method: 'POST'})
    expect(raw.status).toBe(200)
    expect(raw.headers['content-type']).toBe('application/octet-stream')
    expect(raw.headers['content-disposition']).toMatch(/^attachment; filename=".+\.mem"$/)
    expect(raw.headers['x-mem-pack-entries']).toBe('2')

    const data = await mem.packExport(repo, {name: 'ops', version: '2.0.0'})
    expect(Buffer.from(data.subarray(0, 15)).toString()).toBe('SQLite format 3')
    const other = join(base, 'other')
    mkdirSync(join(other, '.git'), {recursive: true})
    const result = Share.PackImportResult.parse(await mem.packImport(other, data))
    expect(result).toMatchObject({imported: 2, skipped: 0, name: 'ops', version: '2.0.0'})
    const page = S.BrowseResult.parse(await mem.browse(other))
    expect(page.entries.map((m) => m.content).sort()).toEqual(['schema migrations run at deploy time, never at boot', 'the API gateway retries idempotent calls twice'])
    expect(page.entries.every((m) => m.tags.includes('ops'))).toBe(true)

    // a flipped byte, a non-SQLite body, bad base64: 400 with the error body, nothing written
    const flipped = Buffer.from(data)
    const at = flipped.indexOf('idempotent')
    flipped[at] ^= 0x02
    const third = join(base, 'third')
    mkdirSync(join(third, '.git'), {recursive: true})
    for (const body of [{repo: third, data: flipped.toString('base64')}, {repo: third, data: Buffer.from('hello').toString('base64')}, {repo: third, data: '%%%'}, {repo: third}]) {
      const r = await json(`${url}/api/mem/packs/import`, 'POST', body)
      expect(r.status).toBe(400)
      expect(S.ErrorResponse.parse(r.json()).code).toBe('invalid_input')
    }
    expect((await mem.browse(third)).count).toBe(0)
    const err = await apiError(() => mem.packImport(third, flipped))
    expect(err.status).toBe(400)
    expect(err.message).toMatch(/checksum/)
  })

  it('answers hostile packs with a 400 naming the problem, writes nothing and keeps serving', async () => {
    const {client, repo, url, internalErrors} = await memServer()
    const mem = client()
    const SQL = await loadSqlJs()
    // the 344 KB and 12 KB generated-column packs, and packs that would have been answered 200
    for (const name of ['generated-virtual-5000', 'generated-virtual-1row', 'trigger', 'view', 'virtual-table-fts4', 'extra-column', 'blob-content', 'manifest-blob-values'] as const) {
      const {expect: message, build} = HOSTILE_PACKS[name]
      const r = await json(`${url}/api/mem/packs/import`, 'POST', {repo, data: Buffer.from(build(SQL, entriesChecksum)).toString('base64')})
      expect(r.status, name).toBe(400)
      const body = S.ErrorResponse.parse(r.json())
      expect(body.code, name).toBe('invalid_input')
      expect(body.error, name).toMatch(message)
      expect(body.hint, name).toMatch(/^Nothing was imported\./)
    }
    expect((await mem.browse(repo)).count).toBe(0)
    expect((await mem.stats(repo)).total).toBe(0)
    expect((await rawRequest(`${url}/api/health`)).status).toBe(200)
    expect(internalErrors).toEqual([])
  })

  it('takes a pack larger than the general 1 MB body limit', async () => {
    const {client, repo, base} = await memServer()
    const mem = client()
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(' ')
    for (let i = 0; i < 80; i++) {
      const text = Array.from({length: 1600}, (_, j) => `${words[(i * 7 + j * 3) % words.length]}${(i * 31 + j * 17) % 997}`).join(' ').slice(0, 14_000)
      expect((await mem.store({repo, content: `note ${i}: ${text}`, type: 'observation'})).success).toBe(true)
    }
    const data = await mem.packExport(repo)
    expect(Math.ceil(data.length / 3) * 4).toBeGreaterThan(1024 * 1024)
    const other = join(base, 'other')
    mkdirSync(join(other, '.git'), {recursive: true})
    expect(await mem.packImport(other, data)).toMatchObject({imported: 80, skipped: 0})
  }, 60_000) // 80 stores of 14 kB each, scanned for secrets on the way in and again on import: 3-7 s, 16 s at load 8-12
})

describe('layers and links over HTTP', () => {
  it('mounts a git remote, syncs, lists, previews and unmounts; bad inputs are 4xx', async () => {
    const {client, repo, url, base} = await memServer()
    const mem = client()
    const team = join(base, 'team')
    mkdirSync(join(team, '.git'), {recursive: true})
    await mem.store({repo: team, content: 'on-call rotates every Monday at 10:00', type: 'procedure'})
    const remote = join(base, 'remote')
    mkdirSync(join(remote, 'packs'), {recursive: true})
    writeFileSync(join(remote, 'packs', 'team.mem'), await mem.packExport(team, {name: 'team'}))
    const git = (...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', ...args], {cwd: remote})
    await git('init', '--quiet')
    await git('add', '-A')
    await git('commit', '--quiet', '-m', 'pack')

    const mounted = await json(`${url}/api/mem/layers/mount`, 'POST', {repo, layerId: 'team', type: 'shared', source: remote})
    expect(mounted.status).toBe(201)
    expect(Share.Layer.parse(mounted.json())).toMatchObject({id: 'team', type: 'shared', source: remote, lastSyncAt: null, memoryCount: 0})
    expect(Share.SyncResult.parse(await mem.syncLayer(repo, 'team'))).toEqual({layerId: 'team', added: 1, updated: 0, removed: 0})
    const layers = await mem.layers(repo)
    expect(layers.map((l) => [l.id, l.memoryCount])).toEqual([
      ['local', 0],
      ['team', 1],
    ])
    Share.LayersResult.parse(await (await rawRequest(`${url}/api/mem/layers?repo=${encodeURIComponent(repo)}`)).json())
    const hit = (await mem.recall(repo, 'on-call rotation'))[0]
    expect(hit).toMatchObject({repoId: 'layer-team', content: 'on-call rotates every Monday at 10:00'})
    const preview = S.ContextPreview.parse(await mem.contextPreview(repo))
    expect(preview.layers).toEqual([{id: 'team', name: 'team', type: 'shared'}])
    expect(preview.crossRepoScope).toEqual(['team'])

    for (const [body, status] of [
      [{repo, layerId: 'x', type: 'shared', source: join(base, 'missing')}, 400],
      [{repo, layerId: 'x', type: 'shared', source: team}, 400],
      [{repo, layerId: 'x', type: 'weird', source: remote}, 400],
      [{repo, layerId: 'team', type: 'shared', source: remote}, 409],
    ] as const) {
      const r = await json(`${url}/api/mem/layers/mount`, 'POST', body)
      expect(r.status, JSON.stringify(body)).toBe(status)
      S.ErrorResponse.parse(r.json())
    }
    expect((await json(`${url}/api/mem/layers/sync`, 'POST', {repo, layerId: 'ghost'})).status).toBe(404)
    // exactly the spec's mount body, {repo, layerId, type}
    const bare = await json(`${url}/api/mem/layers/mount`, 'POST', {repo, layerId: 'bare', type: 'shared'})
    expect(bare.status).toBe(201)
    expect(Share.Layer.parse(bare.json())).toMatchObject({id: 'bare', source: null})
    expect(await mem.syncLayer(repo, 'bare')).toEqual({layerId: 'bare', added: 0, updated: 0, removed: 0})
    expect(await mem.unmountLayer(repo, 'team')).toBe(true)
    expect((await apiError(() => mem.unmountLayer(repo, 'team'))).status).toBe(404)
  })

  it('a hostile pack fails the sync of its layer over HTTP and MCP, naming the file; another layer syncs', async () => {
    const {client, repo, url, base, internalErrors} = await memServer()
    const mem = client()
    const team = join(base, 'team')
    mkdirSync(join(team, '.git'), {recursive: true})
    await mem.store({repo: team, content: 'feature branches are deleted after merge', type: 'procedure'})
    const good = await mem.packExport(team, {name: 'team'})
    const bad = join(base, 'bad-layer')
    mkdirSync(bad)
    writeFileSync(join(bad, 'a-team.mem'), good)
    writeFileSync(join(bad, 'b-crafted.mem'), HOSTILE_PACKS['generated-virtual-5000'].build(await loadSqlJs(), entriesChecksum))
    const fine = join(base, 'fine-layer')
    mkdirSync(fine)
    writeFileSync(join(fine, 'team.mem'), good)
    for (const [layerId, source] of [['bad', bad], ['fine', fine]]) {
      expect((await json(`${url}/api/mem/layers/mount`, 'POST', {repo, layerId, type: 'shared', source})).status).toBe(201)
    }

    const synced = await json(`${url}/api/mem/layers/sync`, 'POST', {repo, layerId: 'bad'})
    expect(synced.status).toBe(400)
    expect(S.ErrorResponse.parse(synced.json()).error).toMatch(/^b-crafted\.mem in layer bad: The file is not a mem pack as mem writes it: column "content" of table entries is generated/)
    const {httpMcpClient} = await import('../../helpers/mcp.js')
    const mcp = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    const tool = (await mcp.callTool({name: 'memory_layer_sync', arguments: {layerId: 'bad'}})) as {isError?: boolean; content: Array<{text: string}>}
    expect(tool.isError).toBe(true)
    expect(tool.content[0].text).toMatch(/b-crafted\.mem in layer bad: .*generated/)

    expect(await mem.syncLayer(repo, 'fine')).toEqual({layerId: 'fine', added: 1, updated: 0, removed: 0})
    expect((await mem.layers(repo)).map((l) => [l.id, l.memoryCount])).toEqual([
      ['local', 0],
      ['bad', 0],
      ['fine', 1],
    ])
    expect((await mem.recall(repo, 'feature branches deleted after merge'))[0]).toMatchObject({repoId: 'layer-fine'})
    expect((await rawRequest(`${url}/api/health`)).status).toBe(200)
    expect(internalErrors).toEqual([])
  })

  it('cross-repo links and memory links', async () => {
    const {client, repo, url, base} = await memServer()
    const mem = client()
    const api = join(base, 'api')
    mkdirSync(join(api, '.git'), {recursive: true})
    await mem.store({repo: api, content: 'The API answers on port 8080 behind the gateway.', type: 'observation'}) // a write registers it
    const apiId = (await mem.listRepos()).find((id) => id.endsWith('-api'))!
    const r = await json(`${url}/api/mem/links`, 'POST', {repo, targetRepo: apiId, note: 'the app calls it'})
    expect(r.status).toBe(201)
    const link = Share.LinkCreated.parse(r.json())
    expect(link).toMatchObject({to: apiId, note: 'the app calls it'})
    const links = Share.LinksResult.parse((await rawRequest(`${url}/api/mem/links?repo=${encodeURIComponent(repo)}`)).json())
    expect(links.links).toEqual([{...link, createdAt: expect.any(String)}])
    expect(await mem.links(repo)).toEqual(links.links)
    const unknown = await json(`${url}/api/mem/links`, 'POST', {repo, targetRepo: 'nobody-knows-this-repo', note: ''})
    expect(unknown.status).toBe(404)
    expect(unknown.json().error).toMatch(/Unknown repository/)

    const a = (await mem.store({repo, content: 'the app caches invoices for 5 minutes', type: 'insight'})).id!
    const b = (await mem.store({repo, content: 'invoice cache is flushed on deploy', type: 'observation'})).id!
    const linked = await json(`${url}/api/mem/${encodeURIComponent(a)}/links`, 'POST', {targetId: b, relation: 'explained-by'})
    expect(linked.status).toBe(200)
    expect(Share.LinkedResult.parse(linked.json())).toEqual({linked: true})
    expect(S.MemoryEntry.parse(await mem.get(a)).links).toEqual([{targetId: b, relation: 'explained-by'}])
    const removed = await json(`${url}/api/mem/${encodeURIComponent(a)}/links`, 'DELETE', {targetId: b})
    expect(Share.RemovedResult.parse(removed.json())).toEqual({removed: true})
    expect(await mem.unlinkMemory(a, b)).toBe(false)
    expect(await mem.linkMemory(a, b)).toBe(true)
    expect((await mem.get(a)).links).toEqual([{targetId: b, relation: 'related'}])
    expect((await json(`${url}/api/mem/${encodeURIComponent(a)}/links`, 'POST', {targetId: 'nope'})).status).toBe(400)
  })

  it('publishes every sharing route in the OpenAPI document with its scope', async () => {
    const {url} = await memServer()
    const doc = (await rawRequest(`${url}/api/openapi.json`)).json()
    expect(doc.paths['/api/mem/packs/export'].post['x-mem-scope']).toBe('write')
    expect(doc.paths['/api/mem/packs/import'].post['x-mem-scope']).toBe('write')
    expect(doc.paths['/api/mem/layers'].get['x-mem-scope']).toBe('read')
    expect(Object.keys(doc.paths['/api/mem/layers/{layerId}'])).toEqual(['delete'])
    expect(Object.keys(doc.paths['/api/mem/links']).sort()).toEqual(['get', 'post'])
    expect(Object.keys(doc.paths['/api/mem/{id}/links']).sort()).toEqual(['delete', 'post'])
    expect(doc.paths['/api/mem/layers/mount'].post.responses['201']).toMatchObject({description: 'The mounted layer', content: {'application/json': {schema: {$ref: '#/components/schemas/Layer'}}}})
  })
})

describe('sharing tools over MCP', () => {
  it('links repos and memories and lists layers through the tools; errors are tool errors', async () => {
    const {httpMcpClient} = await import('../../helpers/mcp.js')
    const {client, repo, url, base} = await memServer()
    const mem = client()
    const api = join(base, 'api')
    mkdirSync(join(api, '.git'), {recursive: true})
    await mem.store({repo: api, content: 'The API answers on port 8080 behind the gateway.', type: 'observation'})
    const apiId = (await mem.listRepos()).find((id) => id.endsWith('-api'))!
    const mcp = await httpMcpClient(url, {query: `?repo=${encodeURIComponent(repo)}`})
    const call = (name: string, args: Record<string, unknown> = {}) => mcp.callTool({name, arguments: args}) as Promise<{isError?: boolean; structuredContent?: any; content: Array<{text: string}>}>

    const unknown = await call('memory_link_repo', {targetRepo: 'nobody-knows', note: 'x'})
    expect(unknown.isError).toBe(true)
    expect(unknown.content[0].text).toMatch(/Unknown repository nobody-knows/)
    const linked = await call('memory_link_repo', {targetRepo: apiId, note: 'the app calls it'})
    expect(linked.isError).toBeFalsy()
    expect(linked.structuredContent).toMatchObject({to: apiId, note: 'the app calls it'})
    expect((await call('memory_links')).structuredContent.links).toHaveLength(1)

    const a = (await mem.store({repo, content: 'orders are archived after 90 days', type: 'insight'})).id!
    const b = (await mem.store({repo, content: 'the archive job runs at 03:00 UTC', type: 'observation'})).id!
    expect((await call('memory_link', {id: a, targetId: b, relation: 'explained-by'})).structuredContent).toEqual({linked: true})
    expect((await mem.get(a)).links).toEqual([{targetId: b, relation: 'explained-by'}])
    expect((await call('memory_unlink', {id: a, targetId: b})).structuredContent).toEqual({removed: true})
    expect((await call('memory_layers')).structuredContent.layers.map((l: {id: string}) => l.id)).toEqual(['local'])
    const ghost = await call('memory_layer_sync', {layerId: 'ghost'})
    expect(ghost.isError).toBe(true)
    expect(ghost.content[0].text).toMatch(/No layer ghost/)
  })
})
