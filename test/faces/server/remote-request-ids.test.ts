// Request ids (Idempotency-Key) of writes on a team server (issue 31 item 4): the same HTTP write
// or MCP tool call sent twice is written once and answered as the first time, against the real
// Postgres and a replica of `mem serve --store` in this process. The outbox of remote mode relies
// on it (test/faces/cli/remote-mode.test.ts).
import {describe, expect, it} from 'vitest'
import {rows} from '../../helpers/pg.js'
import {call_ as api, inProcessReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

async function setup() {
  const {db, url} = await teamStore()
  const key = await teamKey(db, 'acme', 'laptop', 'write')
  const replica = await inProcessReplica(url, {name: 'a'})
  return {url, key, replica}
}

describe('request ids on the team server (Idempotency-Key)', () => {
  it('HTTP: the same store, feedback and edit sent twice are written once and answered the same; a malformed id is a 400', async () => {
    const {url, key, replica} = await setup()
    const send = (method: string, path: string, body: unknown, rid?: string) =>
      fetch(`${replica.url}${path}`, {method, headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(rid ? {'idempotency-key': rid} : {})}, body: JSON.stringify(body)})
    const a = await send('POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The cache is warmed by the deploy job'}, 'rid-store-1')
    const b = await send('POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The cache is warmed by the deploy job'}, 'rid-store-1')
    expect([a.status, b.status]).toEqual([201, 201])
    const [ja, jb] = [await a.json(), await b.json()]
    expect(jb).toEqual(ja)
    const id = (ja as {id: string}).id
    for (let i = 0; i < 3; i++) expect((await send('POST', '/api/mem/feedback', {memoryId: id, wasUsed: false}, 'rid-fb-1')).status).toBe(200)
    expect((await api(replica.url, key, 'GET', `/api/mem/${enc(id)}`)).body.unusedCount).toBe(1)
    const e1 = await (await send('PUT', `/api/mem/${enc(id)}`, {content: 'The cache is warmed by the deploy job, then by cron'}, 'rid-edit-1')).json()
    const e2 = await (await send('PUT', `/api/mem/${enc(id)}`, {content: 'The cache is warmed by the deploy job, then by cron'}, 'rid-edit-1')).json()
    expect(e2).toEqual(e1)
    expect(e1).toMatchObject({success: true, superseded: id})
    const ops = await rows(url, 'SELECT request_id FROM ops WHERE team = $1 AND repo = $2 AND request_id IS NOT NULL ORDER BY seq', ['acme', REPO])
    expect(ops.map((r) => r.request_id)).toEqual(['rid-store-1', 'rid-fb-1', 'rid-edit-1'])

    const bad = await send('POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Another note entirely'}, 'has a space')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as {error: string}).error).toMatch(/Invalid request id/)
    expect((await api(replica.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc('another note')}`)).body.results).toEqual([])
  })

  it('the same write sent at once to two replicas, and in one batch of one replica, is written once', async () => {
    const {url, key, replica: a} = await setup()
    const b = await inProcessReplica(url, {name: 'b'})
    const send = (base: string, rid: string, content: string) =>
      fetch(`${base}/api/mem`, {method: 'POST', headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': rid}, body: JSON.stringify({repo: REPO, type: 'observation', content})}).then(async (r) => ({status: r.status, body: (await r.json()) as any}))
    // six copies of one write over two replicas, and another write beside them
    const answers = await Promise.all([...[a.url, b.url, a.url, b.url, a.url, b.url].map((base) => send(base, 'race-1', 'The nightly job rotates the logs')), send(a.url, 'race-2', 'The weekly job vacuums the database')])
    const copies = answers.slice(0, 6)
    expect(new Set(copies.map((r) => r.status))).toEqual(new Set([201]))
    expect(new Set(copies.map((r) => r.body.id)).size).toBe(1)
    const ops = await rows(url, 'SELECT request_id FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', REPO])
    expect(ops.map((r) => r.request_id).sort()).toEqual(['race-1', 'race-2'])
    expect((await api(b.url, key, 'GET', `/api/mem/browse?repo=${enc(REPO)}`)).body.count).toBe(2)
    expect([...a.internalErrors, ...b.internalErrors]).toEqual([])
  })

  it('MCP over HTTP: a tools/call sent twice with one Idempotency-Key stores once', async () => {
    const {url, key, replica} = await setup()
    const rpc = (rid: string) =>
      fetch(`${replica.url}/mcp?repo=${enc(REPO)}`, {
        method: 'POST',
        headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'idempotency-key': rid},
        body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/call', params: {name: 'memory_store', arguments: {content: 'Logs ship to Loki through promtail', type: 'observation'}}}),
      }).then(async (r) => ({status: r.status, body: (await r.json()) as any}))
    const first = await rpc('mcp-rid-1')
    const second = await rpc('mcp-rid-1')
    expect([first.status, second.status]).toEqual([200, 200])
    expect(first.body.result.isError).toBe(false)
    expect(second.body.result.structuredContent).toEqual(first.body.result.structuredContent)
    const ops = await rows(url, 'SELECT request_id FROM ops WHERE team = $1 AND repo = $2', ['acme', REPO])
    expect(ops.map((r) => r.request_id)).toEqual(['mcp-rid-1'])
  })
})
