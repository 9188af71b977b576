// Seeds a repo store quickly for benchmarks: memories go in as large journal batches through the
// storage layer (the same records a store writes), then a checkpoint folds them into mem.db.
import {createHash} from 'node:crypto'
import {RepoStore} from '../../../dist/src/storage/repo-store.js'
import {heuristicOneLiner} from '../../../dist/src/engines/enrichment/heuristic.js'
import {normalizeRepoId} from '../../../dist/src/config/paths.js'
import {rng, syntheticMemories} from './corpus.mjs'

export async function seedRepo(root, count, {start = Date.parse('2025-06-01T00:00:00Z'), batch = 2000} = {}) {
  const repoId = normalizeRepoId(root)
  const store = await RepoStore.open(root, {checkpointBytes: Number.MAX_SAFE_INTEGER})
  const all = syntheticMemories(count)
  for (let i = 0; i < all.length; i += batch) {
    const ops = all.slice(i, i + batch).map((m, j) => {
      const createdAt = new Date(start + (i + j) * 60_000).toISOString()
      const key = createHash('sha256').update(m.content + createdAt).digest('hex').slice(0, 12)
      return {
        op: 'insert',
        memory: {
          id: `memories/${repoId}/${m.type}/${key}`, repoId, type: m.type, content: m.content,
          oneLiner: heuristicOneLiner(m.content), summary: null, tags: m.tags, importance: m.importance,
          source: 'bench', sessionId: null, supersedes: null, supersededBy: null, createdAt, updatedAt: createdAt,
          forgottenAt: null, forgetReason: null, expiresAt: null, accessCount: 0, lastAccessedAt: null,
          usedCount: 0, unusedCount: 0, lastUsedAt: null, derivedFrom: [], links: [],
        },
      }
    })
    await store.write(() => ({ops, result: null}))
  }
  await store.checkpoint()
  await store.close()
  return repoId
}

/** Seeds given memories (memory-shaped objects from corpus.mjs) the same way as seedRepo. */
export async function seedMemories(root, memories, {batch = 2000} = {}) {
  const repoId = normalizeRepoId(root)
  const store = await RepoStore.open(root, {checkpointBytes: Number.MAX_SAFE_INTEGER})
  for (let i = 0; i < memories.length; i += batch) {
    const ops = memories.slice(i, i + batch).map((m, j) => {
      const createdAt = m.createdAt
      const key = createHash('sha256').update(`${m.content}${createdAt}${i + j}`).digest('hex').slice(0, 12)
      return {
        op: 'insert',
        memory: {
          id: `memories/${repoId}/${m.type}/${key}`, repoId, type: m.type, content: m.content,
          oneLiner: m.oneLiner === undefined ? heuristicOneLiner(m.content) : m.oneLiner, summary: null, tags: m.tags,
          importance: m.importance, source: 'bench', sessionId: null, supersedes: null, supersededBy: null, createdAt,
          updatedAt: createdAt, forgottenAt: m.forgottenAt ?? null, forgetReason: m.forgetReason ?? null,
          expiresAt: m.expiresAt ?? null, accessCount: m.lastAccessedAt ? 1 : 0, lastAccessedAt: m.lastAccessedAt ?? null,
          usedCount: m.usedCount ?? 0, unusedCount: 0, lastUsedAt: m.lastUsedAt ?? null, derivedFrom: [], links: [],
        },
      }
    })
    await store.write(() => ({ops, result: null}))
  }
  await store.checkpoint()
  await store.close()
  return repoId
}

/**
 * A random unit vector of 512 numbers under the built-in model's id for every live memory, through
 * the journal, as a store with meaning on (the default) holds them once its drain has run: what a
 * vector costs to keep and to rank does not depend on its numbers. `at`: the vectors' time.
 */
export async function seedVectors(root, home, {at = new Date().toISOString(), seed = 7} = {}) {
  const {openMem} = await import('../../../dist/src/runtime/open-mem.js')
  const {BUILTIN_ID} = await import('../../../dist/src/engines/meaning/builtin.js')
  const {liveWithoutVectorFrom, vectorBytes} = await import('../../../dist/src/storage/vectors.js')
  const ctx = openMem({home, cwd: root, meaning: {model: 'off'}})
  const handle = await ctx.repo(root, 'write')
  const rand = rng(seed)
  let count = 0
  for (;;) {
    const batch = handle.store.read((db) => liveWithoutVectorFrom(db, BUILTIN_ID, 0, 2_000))
    if (batch.length === 0) break
    await handle.store.write(() => ({
      ops: batch.map((m) => {
        const v = new Float32Array(512).map(() => rand() - 0.5)
        const n = Math.hypot(...v)
        return {op: 'vector', id: m.id, model: BUILTIN_ID, dims: 512, vector: Buffer.from(vectorBytes(v.map((x) => x / n))).toString('base64'), at}
      }),
      result: null,
    }))
    count += batch.length
  }
  await ctx.close()
  return count
}
