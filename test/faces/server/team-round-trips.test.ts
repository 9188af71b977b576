// The round trips a team replica makes before an operation (docs/team.md "Measured"): a request
// naming its repo in the query reads that repo's head with its key, in one statement; a store reads
// no head before its write transaction (the transaction catches up under the head row's lock).
// What must hold all the same: a write acknowledged by one replica is in the next read on the
// other, and a revoked key is refused at once by every replica.
import pg from 'pg'
import {describe, expect, it, onTestFinished} from 'vitest'
import {revokeTeamKey} from '../../../src/operations/team.js'
import {api, inProcessReplica, teamKey, teamStore} from '../../helpers/team-server.js'
import {httpMcpClient, type ToolResult} from '../../helpers/mcp.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

/** Every statement any pg client of this process sends while `fn` runs (texts, in order). */
async function statementsOf<T>(fn: () => Promise<T>): Promise<{result: T; texts: string[]}> {
  const proto = pg.Client.prototype as unknown as {query: (...args: unknown[]) => unknown}
  const original = proto.query
  const texts: string[] = []
  proto.query = function (this: unknown, ...args: unknown[]) {
    const q = args[0] as string | {text?: string}
    texts.push((typeof q === 'string' ? q : (q?.text ?? '')).replace(/\s+/g, ' ').trim())
    return original.apply(this, args)
  }
  onTestFinished(() => {
    proto.query = original
  })
  try {
    return {result: await fn(), texts}
  } finally {
    proto.query = original
  }
}

/** A team store, a write key of team acme, and two replicas of it in this process. */
async function twoReplicas() {
  const {db, url} = await teamStore()
  const key = await teamKey(db, 'acme', 'agent', 'write')
  return {db, url, key, a: await inProcessReplica(url, {name: 'a'}), b: await inProcessReplica(url, {name: 'b'})}
}

async function opsCount(url: string): Promise<number> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    return Number((await client.query('SELECT count(*) AS n FROM ops')).rows[0].n)
  } finally {
    await client.end()
  }
}

describe('a team replica reads the head with the key, and a store reads none before its transaction', () => {
  it('a store acknowledged by one replica is in the very next recall (?repo=) on the other, both ways; a recall sends one statement, a store none before BEGIN', async () => {
    const {key, a, b} = await twoReplicas()
    // both replicas have the repo hot (a store and a recall each)
    expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The billing service retries webhooks three times'})).status).toBe(201)
    expect((await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=billing`)).status).toBe(200)

    for (let i = 0; i < 12; i++) {
      const [writer, reader] = i % 2 ? [b, a] : [a, b]
      const word = `zanzibar${i}`
      const stored = await statementsOf(() => api(writer.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: `Queue ${word} drains before the nightly deploy of service ${i}`}))
      expect(stored.result.status).toBe(201)
      // the key, then BEGIN with the locked head: no head check of its own
      expect(stored.texts.filter((t) => /^SELECT head FROM repos/.test(t))).toEqual([])
      expect(stored.texts.findIndex((t) => t.startsWith('SELECT team, name'))).toBe(0)
      expect(stored.texts[1]).toBe('BEGIN')

      const recalled = await statementsOf(() => api(reader.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${word}`))
      expect(recalled.result.status).toBe(200)
      expect(recalled.result.body.results.map((r: {id: string}) => r.id)).toEqual([stored.result.body.id])
      // the key and the head in one statement, then the records the reader had not seen
      const before = recalled.texts.filter((t) => !t.startsWith('SELECT seq, record FROM ops'))
      expect(before.filter((t) => /api_keys|FROM repos/.test(t))).toHaveLength(1)
      expect(before[0]).toMatch(/^SELECT k\.team, .*\(SELECT r\.head FROM repos r WHERE r\.team = k\.team AND r\.repo = \$2\) AS head FROM api_keys k/)
    }

    // a forget on one replica: the next recall on the other no longer returns it
    const doomed = await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The quokka cache is flushed every hour'})
    expect((await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=quokka`)).body.results).toHaveLength(1)
    expect((await api(b.url, key, 'DELETE', `/api/mem/${enc(doomed.body.id)}?reason=wrong`)).status).toBe(200)
    expect((await api(a.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=quokka`)).body.results).toEqual([])
  })

  it('GET /api/mem/:id names its repo in the id: the key and the head in one statement, the memory read on the other replica right after its store; another team or repo: 404 and 403', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const scoped = await teamKey(db, 'acme', 'scoped', 'read', ['github.com/acme/other'])
    const foreign = await teamKey(db, 'globex', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a'})
    const b = await inProcessReplica(url, {name: 'b'})
    // b has the repo hot
    expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The settlement job runs at four in the morning'})).status).toBe(201)
    expect((await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=settlement`)).status).toBe(200)
    for (let i = 0; i < 3; i++) {
      const stored = await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: `Partition ${i} of the ledger is archived after ${i + 2} years`})
      expect(stored.status).toBe(201)
      const got = await statementsOf(() => api(b.url, key, 'GET', `/api/mem/${enc(stored.body.id)}`))
      expect(got.result.status).toBe(200)
      expect(got.result.body.content).toBe(`Partition ${i} of the ledger is archived after ${i + 2} years`)
      const before = got.texts.filter((t) => !t.startsWith('SELECT seq, record FROM ops'))
      expect(before.filter((t) => /api_keys|FROM repos/.test(t))).toHaveLength(1)
      expect(before[0]).toMatch(/^SELECT k\.team, .*\(SELECT r\.head FROM repos r WHERE r\.team = k\.team AND r\.repo = \$2\) AS head FROM api_keys k/)
    }
    const id = (await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Refunds over a thousand euros need a second approver'})).body.id
    expect([(await api(b.url, foreign, 'GET', `/api/mem/${enc(id)}`)).status, (await api(b.url, scoped, 'GET', `/api/mem/${enc(id)}`)).status]).toEqual([404, 403])
  })

  it('an MCP call names its repo in its body; with X-Mem-Repo (a host may send it) the head comes with the key, without it one statement more; a hint naming another repo is only a hint', async () => {
    const {key, a, b} = await twoReplicas()
    expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The invoice PDFs are rendered by the pdf-worker queue'})).status).toBe(201)
    const hinted = await httpMcpClient(b.url, {apiKey: key, headers: {'x-mem-repo': REPO}})
    const bare = await httpMcpClient(b.url, {apiKey: key})
    const misled = await httpMcpClient(b.url, {apiKey: key, headers: {'x-mem-repo': 'github.com/acme/other'}})
    const recall = async (client: typeof hinted, word: string) => {
      const stored = await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: `The ${word} report is mailed every Monday`})
      const sent = await statementsOf(() => client.callTool({name: 'memory_recall', arguments: {repo: REPO, query: `${word} report`}}))
      // the memory another replica just stored is found (read-your-writes) whichever way the head came
      expect((sent.result as ToolResult).structuredContent.results.map((r: {id: string}) => r.id)).toContain(stored.body.id)
      return sent.texts.filter((t) => /api_keys|FROM repos/.test(t))
    }
    const withHint = await recall(hinted, 'quarterly')
    expect(withHint).toHaveLength(1)
    expect(withHint[0]).toMatch(/^SELECT k\.team, .*\(SELECT r\.head FROM repos r WHERE r\.team = k\.team AND r\.repo = \$2\) AS head FROM api_keys k/)
    const without = await recall(bare, 'weekly')
    expect(without).toHaveLength(2)
    expect(without[1]).toMatch(/^SELECT head FROM repos/)
    // a header naming another repo reads that repo's head along, and the call still reads its own
    const other = await recall(misled, 'monthly')
    expect(other).toHaveLength(2)
  })

  it('a repo the key may not reach, or one that is no repo id, named in the query: the same 403, 400 and 404 as without the head read along', async () => {
    const {db, url} = await teamStore()
    const scoped = await teamKey(db, 'acme', 'scoped', 'write', [REPO])
    const other = await teamKey(db, 'globex', 'agent', 'write')
    const a = await inProcessReplica(url, {name: 'a'})
    expect((await api(a.url, scoped, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The ledger closes at midnight UTC'})).status).toBe(201)
    expect((await api(a.url, scoped, 'GET', `/api/mem/recall?repo=${enc('github.com/acme/other')}&q=ledger`)).status).toBe(403)
    const path = await api(a.url, scoped, 'GET', `/api/mem/recall?repo=${enc('/etc/passwd')}&q=ledger`)
    expect([path.status, path.body.code]).toEqual([400, 'invalid_input'])
    // another team's key naming this repo: its team has none of that id (404), nothing of acme's comes back
    const foreign = await api(a.url, other, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=ledger`)
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found'])
  })

  it('a revoked key is refused at once by both replicas: on a recall that reads the head with the key, on a store, and nothing is written', async () => {
    const {db, url, key, a, b} = await twoReplicas()
    for (const r of [a, b]) {
      expect((await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: r === a ? 'Replica a serves the eu-west region behind nginx' : 'Deploys to staging need the vault token rotated weekly'})).status).toBe(201)
      expect((await api(r.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=staging`)).status).toBe(200)
    }
    const stored = await opsCount(url)
    await revokeTeamKey(db, {team: 'acme', name: 'agent'}, {now: new Date(), actor: 'test'})
    for (const r of [a, b]) {
      const recall = await api(r.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=staging`)
      expect([recall.status, recall.body.code]).toEqual([401, 'unauthorized'])
      const store = await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Written with a revoked key'})
      expect([store.status, store.body.code]).toEqual([401, 'unauthorized'])
    }
    expect(await opsCount(url)).toBe(stored)
  })
})
