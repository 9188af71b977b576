// Usage statistics in team mode (docs/team.md): every replica counts the operations it answers and
// writes the counts to the repo's log as one `usage` op (every few seconds and at close), so the
// usage routes of any replica give the team's counts; a replica's own counts not yet written are in
// its own answers at once.
import {describe, expect, it, vi} from 'vitest'
import {api, inProcessReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

async function counts(url: string, key: string, repo = REPO): Promise<Record<string, number>> {
  const res = await api(url, key, 'GET', `/api/mem/usage?repo=${enc(repo)}`)
  expect(res.status).toBe(200)
  return Object.fromEntries(res.body.operations.map((o: {operation: string; count: number}) => [o.operation, o.count]))
}

describe('usage statistics on a team server', () => {
  it("one replica's operations are counted in every replica's usage answer: written to the log within its flush interval, and at close", async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a', usage: {flushMs: 100}})
    const b = await inProcessReplica(url, {name: 'b', usage: {flushMs: 100}})
    for (const content of ['The billing service retries webhooks three times', 'Invoices are numbered per tenant']) {
      expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content})).status).toBe(201)
    }
    for (const q of ['webhooks', 'invoices', 'tenant']) expect((await api(a.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${q}`)).status).toBe(200)
    // b answered none of them: it has the counts from the log once a has written them
    await vi.waitFor(async () => expect(await counts(b.url, key)).toMatchObject({store: 2, recall: 3}), {timeout: 10_000, interval: 100})

    // a replica that writes its counts only at close (a long interval): its own answer has them at
    // once, the other's only after it closes
    const c = await inProcessReplica(url, {name: 'c', usage: {flushMs: 3_600_000}})
    expect((await api(c.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Tenants are deleted after 30 days of grace'})).status).toBe(201)
    expect((await counts(c.url, key)).store).toBe(3)
    const before = await counts(b.url, key)
    expect(before.store).toBe(2)
    await c.runtime.close()
    await vi.waitFor(async () => expect((await counts(b.url, key)).store).toBe(3), {timeout: 10_000, interval: 100})
    expect(a.internalErrors).toEqual([])
    expect(b.internalErrors).toEqual([])
  })

  it('a replica with usage off counts nothing, and another team sees none of these counts', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const other = await teamKey(db, 'globex', 'agent', 'write')
    const off = await inProcessReplica(url, {name: 'off'})
    const on = await inProcessReplica(url, {name: 'on', usage: {flushMs: 100}})
    expect((await api(off.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Deploys freeze on Fridays'})).status).toBe(201)
    expect(await counts(off.url, key)).toEqual({})
    // the other team's repo of the same id: its own counts only
    expect((await api(on.url, other, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Globex deploys on Mondays'})).status).toBe(201)
    await vi.waitFor(async () => expect(await counts(off.url, other)).toEqual({store: 1}), {timeout: 10_000, interval: 100})
    expect(await counts(off.url, key)).toEqual({})
  })
})
