// Who wrote, in team mode (faces/server/team.ts, runtime/team-store.ts, postgres/replica-log.ts):
// ops.actor names the key a write came with (its name, never its text), the replica for its own
// background writes; forgets go to the audit in the write's transaction, and a key's use once a window.
import {createHash} from 'node:crypto'
import {describe, expect, it, vi} from 'vitest'
import {fixedClock} from '../../helpers/mem.js'
import {api, inProcessReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

describe('ops.actor and the audit in team mode', () => {
  it('a write names its key, the replica names its own background writes, a forget is audited with its key, a key use once a window; no key text or hash anywhere', async () => {
    const {db, url} = await teamStore()
    const agent = await teamKey(db, 'acme', 'agent', 'write')
    const other = await teamKey(db, 'acme', 'other-agent', 'write')
    const clock = fixedClock()
    const a = await inProcessReplica(url, {name: 'replica-a', clock, maintenance: {schedule: false}})

    const stored = await api(a.url, agent, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The staging database is reset every Monday at 06:00'})
    expect(stored.status).toBe(201)
    const fed = await api(a.url, other, 'POST', '/api/mem/feedback', {memoryId: stored.body.id, wasUsed: true})
    expect(fed.status).toBe(200)
    const rows = async () => db.pg.query<{seq: string; actor: string; record: {ops: Array<{op: string}>}}>('SELECT seq, actor, record FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', REPO])
    const byOp = async (op: string) => (await rows()).filter((r) => r.record.ops.some((o) => o.op === op)).map((r) => r.actor)
    expect(await byOp('insert')).toEqual(['key:agent'])
    expect(await byOp('feedback')).toEqual(['key:other-agent'])
    // a recall's counters are the replica's own write, committed in the background
    expect((await api(a.url, other, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc('staging database reset')}`)).body.results).toHaveLength(1)
    await vi.waitFor(async () => expect(await byOp('touch')).toEqual(['replica-a']), {timeout: 10_000, interval: 100})

    // a forget: in the audit, with its key, in the same transaction as its record
    const forgot = await api(a.url, agent, 'DELETE', `/api/mem/${enc(stored.body.id)}?reason=${enc('moved to the wiki')}`)
    expect(forgot.status).toBe(200)
    expect(await byOp('update')).toEqual(['key:agent'])
    const forgetSeq = (await rows()).at(-1)!.seq
    const audit = await db.teams.audit('acme', 100)
    const forgets = audit.filter((e) => e.action === 'memory.forget')
    expect(forgets).toHaveLength(1)
    expect(forgets[0]).toMatchObject({actor: 'key:agent', repo: REPO, target: stored.body.id, details: {count: 1, ids: [stored.body.id], seq: Number(forgetSeq)}})
    // forgetting again changes nothing and audits nothing; an unknown id neither
    expect((await api(a.url, agent, 'DELETE', `/api/mem/${enc(stored.body.id)}`)).body.forgotten).toBe(false)
    expect((await api(a.url, agent, 'DELETE', `/api/mem/${enc(stored.body.id.replace(/[0-9a-f]{12}$/, '000000000000'))}`)).status).toBe(404)
    expect((await db.teams.audit('acme', 100)).filter((e) => e.action === 'memory.forget')).toHaveLength(1)

    // each key's use: one row in the window, whatever the number of requests; again after it
    const uses = async () => (await db.teams.audit('acme', 100)).filter((e) => e.action === 'key.use').map((e) => [e.actor, e.target, (e.details as {scope: string; replica: string}).scope, (e.details as {replica: string}).replica])
    await vi.waitFor(async () => expect((await uses()).sort()).toEqual([['key:agent', 'agent', 'write', 'replica-a'], ['key:other-agent', 'other-agent', 'write', 'replica-a']]))
    clock.advance(60 * 60 * 1000)
    expect((await api(a.url, agent, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=staging`)).status).toBe(200)
    await vi.waitFor(async () => expect((await uses()).filter((u) => u[0] === 'key:agent')).toHaveLength(2))
    // a request with an unknown or malformed key is a 401 and writes nothing
    const before = (await db.teams.audit('acme', 100)).length
    expect((await api(a.url, `${agent.slice(0, -4)}AAAA`, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=x`)).status).toBe(401)
    expect((await db.teams.audit('acme', 100)).length).toBe(before)

    // the keys' text and hashes appear in no row of ops or audit
    const everything = JSON.stringify([await rows(), await db.pg.query('SELECT * FROM audit')])
    for (const key of [agent, other]) {
      expect(everything).not.toContain(key)
      expect(everything).not.toContain(createHash('sha256').update(key).digest('hex'))
    }
    expect(a.internalErrors).toEqual([])
  })
})
