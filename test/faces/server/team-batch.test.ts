// Group commit through a team replica's HTTP API (docs/team.md "How a replica works"): the stores
// that arrive while a replica's write transaction waits for the repo's head row go in that
// transaction. What must hold: each store is planned on the ones before it in the batch (a
// duplicate of an earlier one is answered as its duplicate), a store the rules refuse fails alone,
// every store acknowledged is read by the other replica, seq stays gapless; a batch Postgres
// refuses at COMMIT acknowledges none of its stores, and answers each the same 5xx.
import {describe, expect, it} from 'vitest'
import {holdHead, pgClient, until} from '../../helpers/pg.js'
import {api, inProcessReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

async function twoReplicas() {
  const {db, url} = await teamStore()
  const key = await teamKey(db, 'acme', 'agent', 'write')
  const a = await inProcessReplica(url, {name: 'a'})
  const b = await inProcessReplica(url, {name: 'b'})
  // the repo made, and hot on both
  expect((await api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'The billing service retries webhooks three times'})).status).toBe(201)
  expect((await api(b.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=zzyzx`)).status).toBe(200)
  const [store] = await a.runtime.openStores()
  return {url, key, a, b, queued: () => store.queuedWrites}
}

describe('group commit through a team replica', () => {
  it('stores queued behind a locked head row: one transaction; a duplicate of an earlier one in the batch is its duplicate; a refused store fails alone; all read back through the other replica, seq gapless', async () => {
    const {url, key, a, b, queued} = await twoReplicas()
    const head = await holdHead(url, REPO)
    const post = (body: Record<string, unknown>) => api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', ...body})
    const sent = [post({content: 'The deploy job waits for the database migration to finish'})]
    await until(async () => (await head.waiting()) === 1, 'the first store waits for the head row')
    // queued one at a time, so that their order in the batch is known
    const bodies = [
      {content: 'Integration suite: npm run test:int, needs docker', type: 'procedure'},
      {content: 'Staging runs on the eu-west-1 cluster since March'},
      {content: 'integration suite: npm run test:int,  needs docker!'}, // the second one again
      {content: 'A new version of a memory nobody has', supersedes: 'memories/github.com~acme~app/insight/0123456789ab'},
      {content: 'Feature flags live in LaunchDarkly, not in env files'},
    ]
    for (const [i, body] of bodies.entries()) {
      sent.push(post(body))
      await until(() => queued() === i + 1, `${i + 1} stores queued`)
    }
    await head.release()
    const answers = await Promise.all(sent)
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 200, 404, 201])
    expect(answers[3].body).toEqual({success: false, duplicateId: answers[1].body.id, reason: 'duplicate'})
    expect(answers[4].body).toMatchObject({code: 'not_found', error: expect.stringContaining('to supersede')})
    const s = await pgClient(url)
    // the rows of the four stored: one transaction, one row each (recall counters may add rows of their own)
    const stored = answers.filter((x) => x.status === 201).map((r) => r.body.id as string)
    const rows = (await s.query("SELECT seq, xmin::text AS tx, record->'ops'->0->'memory'->>'id' AS id FROM ops WHERE record->'ops'->0->>'op' = 'insert' AND seq > 1 ORDER BY seq")).rows
    expect(rows.map((r) => r.id)).toEqual(stored)
    expect(new Set(rows.map((r) => r.tx)).size).toBe(1)
    for (const id of stored) expect((await api(b.url, key, 'GET', `/api/mem/${enc(id)}`)).status).toBe(200)
    // and the next store on the other replica comes after them; seq gapless
    const next = await api(b.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: 'Backups run nightly at two'})
    expect(next.status).toBe(201)
    const seqs = (await s.query('SELECT seq::int AS seq FROM ops ORDER BY seq')).rows.map((r) => r.seq as number)
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    expect((await api(a.url, key, 'GET', `/api/mem/${enc(next.body.id)}`)).status).toBe(200)
  })

  it('a batch Postgres refuses at COMMIT: every store of it gets the same 500, none is acknowledged or readable on either replica; the next store lands at the next seq', async () => {
    const {url, key, a, b, queued} = await twoReplicas()
    const s = await pgClient(url)
    await s.query(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.record::text LIKE '%poison%' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$`)
    await s.query('CREATE TRIGGER refuse_poison BEFORE INSERT ON ops FOR EACH ROW EXECUTE FUNCTION refuse_poison()')
    const head = await holdHead(url, REPO)
    const post = (content: string) => api(a.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content})
    const sent = [post('The deploy job waits for the database migration to finish')]
    await until(async () => (await head.waiting()) === 1, 'the first store waits for the head row')
    sent.push(post('The poison queue is drained by hand on Mondays'))
    await until(() => queued() === 1, 'one store queued')
    sent.push(post('Staging runs on the eu-west-1 cluster since March'))
    await until(() => queued() === 2, 'two stores queued')
    await head.release()
    const answers = await Promise.all(sent)
    expect(answers.map((r) => r.status)).toEqual([500, 500, 500])
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1)
    expect(JSON.stringify(answers[0].body)).not.toContain('poison')
    const before = (await s.query('SELECT count(*)::int AS n FROM ops')).rows[0].n as number
    expect((await s.query("SELECT count(*)::int AS n FROM ops WHERE record::text ~ '(deploy job|poison|eu-west-1)'")).rows[0].n).toBe(0)
    expect((await s.query('SELECT head::int AS h FROM repos')).rows[0].h).toBe(before)
    for (const replica of [a, b]) {
      const found = await api(replica.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc('deploy migration staging cluster')}`)
      expect(found.status).toBe(200)
      expect(JSON.stringify(found.body)).not.toMatch(/deploy job|eu-west-1/)
    }
    await s.query('DROP TRIGGER refuse_poison ON ops')
    const next = await post('Staging runs on the eu-west-1 cluster since March')
    expect(next.status).toBe(201)
    const seqs = (await s.query('SELECT seq::int AS seq FROM ops ORDER BY seq')).rows.map((r) => r.seq as number)
    expect(seqs).toEqual(seqs.map((_, i) => i + 1))
    expect((await api(b.url, key, 'GET', `/api/mem/${enc(next.body.id)}`)).status).toBe(200)
  })
})
