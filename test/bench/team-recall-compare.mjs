// Recall through both stores (issue 31: "recall through both gives identical ids and scores on the
// recall bench sets"): one set's memories stored in the same order at the same times into a local
// store (sql.js under .mem/) and into a team repo (Postgres, through a replica), then every question
// asked of the local store, of the replica that wrote, and of a cold replica opened afterwards (from
// the team store: its snapshot, if any, plus the ops after it). Compared: each store's outcome
// (stored, duplicate of which, rejected) and, per question, the ordered ids (the part after the
// repo segment, which is the repo's path locally and its team id in team mode) with their scores.
//
// The operations are handed in (`io`), so the test runs it on src/ and test/bench/team-recall.mjs
// on dist/: this file imports nothing of mem. Meaning is off on both sides (the team store has no
// meaning model yet): the local store is run with meaning: {model: 'off'}.
import {loadEvalSet} from './lib/corpus.mjs'
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

const HOUR = 3_600_000

/**
 * The recall bench's own sets: the evaluation set (test/bench/recall/data) and the paraphrase set
 * (test/bench/recall/paraphrase), stored one memory an hour from 2026-01-01 as the recall benches do.
 */
export function benchSets() {
  const evalSet = loadEvalSet()
  const dir = join(import.meta.dirname, 'recall', 'paraphrase')
  const paraphrase = {
    memories: JSON.parse(readFileSync(join(dir, 'memories.json'), 'utf8')),
    questions: JSON.parse(readFileSync(join(dir, 'questions.json'), 'utf8')),
  }
  return [
    {name: 'eval', stepMs: HOUR, memories: evalSet.memories, questions: evalSet.questions.map((q) => q.q)},
    {name: 'paraphrase', stepMs: HOUR, memories: paraphrase.memories, questions: paraphrase.questions.map((q) => q.q)},
  ]
}

/** A LoCoMo conversation (test/bench/recall/locomo.mjs loadLocomo) as a set: one observation a turn, a minute apart. */
export function locomoSet(conv) {
  return {
    name: `locomo-${conv.name}`,
    stepMs: 60_000,
    memories: conv.turns.map((t) => ({key: t.dia, type: 'observation', content: t.content, tags: [t.dia]})),
    questions: conv.questions.map((q) => q.q),
  }
}

/** An id without its repo segment: `memories/<repo>/<type>/<key>` → `<type>/<key>`. */
export const idTail = (id) => id.split('/').slice(2).join('/')

/**
 * Stores `set` into both stores and asks every question of the three.
 * io: {
 *   store(ctx, input), recall(ctx, input): the operations;
 *   openLocal(now): {ctx, repo, close()}: a long-lived local context on a new repo;
 *   openReplica(name, now): {run(fn(ctx)), repo, close()}: a team replica's runtime, `run` as the team's key;
 *   afterStores(local, writer) (optional): run once every memory is stored, before the cold replica opens;
 * }
 * Answers {set, memories, outcomesAgree, outcomeDifferences (the first 5), questions, agree, answered
 * (questions the local store ranked something for), differences: [{q, local, writer, cold}] (the first 5)}.
 */
export async function compareRecall(set, io, {limit = 10, questions = set.questions} = {}) {
  let t = Date.parse('2026-01-01T00:00:00Z')
  const now = () => new Date(t)
  const opened = []
  try {
    const local = io.openLocal(now)
    opened.push(local)
    const writer = await io.openReplica('writer', now)
    opened.push(writer)
    let outcomesAgree = 0
    const outcomeDifferences = []
    const outcome = (r) => (r.success ? `stored ${idTail(r.id)}` : r.duplicateId ? `duplicate of ${idTail(r.duplicateId)}` : `rejected: ${r.reason}`)
    for (const m of set.memories) {
      t += set.stepMs
      const input = {type: m.type, content: m.content, ...(m.tags ? {tags: m.tags} : {}), ...(m.importance !== undefined ? {importance: m.importance} : {})}
      // the two stores are independent: each memory goes to both at once, at the same time t
      const [l, w] = (await Promise.all([io.store(local.ctx, {repo: local.repo, ...input}), writer.run((ctx) => io.store(ctx, {repo: writer.repo, ...input}))])).map(outcome)
      if (l === w) outcomesAgree++
      else if (outcomeDifferences.length < 5) outcomeDifferences.push({memory: m.key, local: l, writer: w})
    }
    // with a meaning model: every memory's vector made (and the update links it brings) on both sides
    // before any question, as a long-lived process's drain leaves them (io.afterStores)
    if (io.afterStores) await io.afterStores(local, writer)
    t += HOUR
    const cold = await io.openReplica('cold', now)
    opened.push(cold)
    const ranked = (r) => r.results.map((h) => [idTail(h.id), h.score])
    let agree = 0
    let answered = 0
    const differences = []
    for (const q of questions) {
      const [l, w, c] = (
        await Promise.all([
          io.recall(local.ctx, {repo: local.repo, q, limit}),
          writer.run((ctx) => io.recall(ctx, {repo: writer.repo, q, limit})),
          cold.run((ctx) => io.recall(ctx, {repo: cold.repo, q, limit})),
        ])
      ).map(ranked)
      const same = JSON.stringify(l) === JSON.stringify(w) && JSON.stringify(l) === JSON.stringify(c)
      if (l.length > 0) answered++
      if (same) agree++
      else if (differences.length < 5) differences.push({q, local: l, writer: w, cold: c})
    }
    return {set: set.name, memories: set.memories.length, outcomesAgree, outcomeDifferences, questions: questions.length, agree, answered, differences}
  } finally {
    for (const o of opened.reverse()) await o.close()
  }
}
