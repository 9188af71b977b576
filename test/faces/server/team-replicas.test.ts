// Two replicas of `mem serve --store` as real processes on one database (the test Postgres): four
// clients alternating between them, and a replica killed with SIGKILL in the middle of a burst.
// Bounded counts; nothing here asserts a time.
import pg from 'pg'
import {describe, expect, it} from 'vitest'
import {api, processReplica, teamKey, teamStore} from '../../helpers/team-server.js'

const REPO = 'github.com/acme/app'
const enc = encodeURIComponent

async function seqs(url: string): Promise<number[]> {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    return (await client.query('SELECT seq FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', REPO])).rows.map((r) => Number(r.seq))
  } finally {
    await client.end()
  }
}

describe('two mem serve --store processes on one database', () => {
  it('four clients alternating between them: every acknowledged store readable through both, feedback counters exact, seq gapless', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const replicas = [await processReplica(url), await processReplica(url)]
    const PER_CLIENT = 12
    const ids: string[] = []
    await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        for (let i = 0; i < PER_CLIENT; i++) {
          const r = replicas[(c + i) % 2]
          const res = await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'insight', content: `Client ${c} learned fact number ${i}: service ${c * 100 + i} needs its own queue`})
          expect(res.status).toBe(201)
          ids.push(res.body.id)
        }
      }),
    )
    expect(new Set(ids).size).toBe(4 * PER_CLIENT)
    // feedback on one memory from all four clients, alternating replicas: 4 × 5 used, 4 × 3 unused
    const target = ids[0]
    await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        for (let i = 0; i < 8; i++) {
          const res = await api(replicas[(c + i) % 2].url, key, 'POST', '/api/mem/feedback', {memoryId: target, wasUsed: i < 5})
          expect(res.status).toBe(200)
        }
      }),
    )
    for (const r of replicas) {
      for (const id of ids) expect((await api(r.url, key, 'GET', `/api/mem/${enc(id)}`)).status, id).toBe(200)
      const recalled = await api(r.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=${enc('Client 3 learned fact number 11')}&limit=5`)
      expect(recalled.body.results.map((x: any) => x.content)).toContain('Client 3 learned fact number 11: service 311 needs its own queue')
      const m = (await api(r.url, key, 'GET', `/api/mem/${enc(target)}`)).body
      expect([m.usedCount, m.unusedCount]).toEqual([20, 12])
    }
    const s = await seqs(url)
    expect(s).toEqual(s.map((_, i) => i + 1))
    expect(s.length).toBeGreaterThanOrEqual(1) // batches: fewer records than writes, never a gap
  })

  it('kill -9 of a replica mid-burst: every store it acknowledged is readable through the other; seq stays gapless', async () => {
    const {db, url} = await teamStore()
    const key = await teamKey(db, 'acme', 'agent', 'write')
    const victim = await processReplica(url)
    const survivor = await processReplica(url)
    const acked: string[] = []
    let killed = false
    const burst = [0, 1, 2, 3].map(async (c) => {
      for (let i = 0; i < 40; i++) {
        if (killed && i % 2 === 0) continue
        const r = i % 2 === 0 ? victim : survivor
        try {
          const res = await api(r.url, key, 'POST', '/api/mem', {repo: REPO, type: 'observation', content: `Burst ${c}-${i}: the deploy of build ${c * 1000 + i} passed`})
          if (res.status === 201) acked.push(res.body.id)
        } catch {
          // the victim's connection cut: not acknowledged
        }
        // kill once a few stores were acknowledged, with requests in flight
        if (!killed && acked.length >= 10) {
          killed = true
          await victim.kill()
        }
      }
    })
    await Promise.all(burst)
    expect(killed).toBe(true)
    expect(acked.length).toBeGreaterThan(10)
    for (const id of acked) {
      const res = await api(survivor.url, key, 'GET', `/api/mem/${enc(id)}`)
      expect(res.status, id).toBe(200)
    }
    const s = await seqs(url)
    expect(s).toEqual(s.map((_, i) => i + 1))
    expect(survivor.stderr()).not.toContain('internal error')
  })
})
