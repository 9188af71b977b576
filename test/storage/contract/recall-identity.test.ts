// Recall identity (issue 31): the recall bench's sets stored into a local store and into a team
// repo give, for every question, the same ids (but for the repo segment) in the same order with the
// same scores — through the replica that wrote them and through a cold one opened from Postgres.
// test/bench/team-recall.mjs runs every set whole (the LoCoMo dev split too); this runs the first 80
// memories of the paraphrase and evaluation sets with every other question of each, to stay a few
// seconds (a store costs ~20-40 ms of CPU here under load, a recall ~3-8 ms). Meaning is off on both sides: the team store has no meaning model yet (docs/team.md).
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {benchSets, compareRecall, type RecallSet} from '../../bench/team-recall-compare.mjs'
import {tempDir} from '../../helpers/mem.js'
import {admin} from '../../helpers/pg.js'
import {teamOperations} from '../../helpers/team-fixture.js'

/**
 * Compares `set` through both stores. `snapshot`: the writer keeps a snapshot of the repo before the
 * cold replica opens (which then opens from it plus the recall counters after it); else the cold
 * replica replays every record. Answers the comparison and the snapshots the team store held when
 * the cold replica opened.
 */
async function compare(set: RecallSet, snapshot: boolean) {
  const team = await teamOperations()
  const repo = `github.com/acme/${set.name}`
  const replicas: Array<ReturnType<typeof team.open>> = []
  let snapshots = -1
  const result = await compareRecall(set, {
    store,
    recall,
    openLocal(now) {
      const root = join(tempDir('mem-recall-identity-'), 'repo')
      mkdirSync(join(root, '.git'), {recursive: true})
      const ctx = openMem({home: join(root, '..', 'home'), now, longLived: true, meaning: {model: 'off'}})
      return {ctx, repo: root, close: () => ctx.close()}
    },
    async openReplica(name, now) {
      if (name === 'cold') {
        if (snapshot) for (const s of await replicas[0].runtime.openStores()) await s.checkpoint()
        snapshots = ((await admin(team.url, 'SELECT count(*)::int AS n FROM snapshots')).rows[0] as {n: number}).n
      }
      const replica = team.open(name, now)
      replicas.push(replica)
      return {repo, run: replica.run, close: () => replica.runtime.close()}
    },
  })
  return {...result, snapshots}
}

const MEMORIES = 80
const everyOther = (questions: string[]) => questions.filter((_, i) => i % 2 === 0)

describe('recall through the local store and through team mode', () => {
  for (const [i, set] of benchSets().entries()) {
    const snapshot = i === 0
    const subset: RecallSet = {...set, memories: set.memories.slice(0, MEMORIES), questions: everyOther(set.questions)}
    it(`the ${set.name} set's first ${MEMORIES} memories, ${subset.questions.length} of its ${set.questions.length} questions: the same outcome for every store, the same ids and scores for every question through the writer and a cold replica (opened ${snapshot ? 'from a snapshot' : 'from the records alone'})`, async () => {
      const r = await compare(subset, snapshot)
      expect(r.snapshots).toBe(snapshot ? 1 : 0)
      expect(r.outcomeDifferences).toEqual([])
      expect(r.outcomesAgree).toBe(MEMORIES)
      expect(r.differences).toEqual([])
      expect(r.agree).toBe(subset.questions.length)
      // the questions ranked something: an empty answer everywhere would agree and prove nothing
      expect(r.answered).toBeGreaterThan(subset.questions.length / 2)
    })
  }
})
