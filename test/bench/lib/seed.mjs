// Seeds a repo store quickly for benchmarks: memories go in as large journal batches through the
// storage layer (the same records a store writes), then a checkpoint folds them into mem.db.
import {createHash} from 'node:crypto'
import {RepoStore} from '../../../dist/src/storage/repo-store.js'
import {heuristicOneLiner} from '../../../dist/src/engines/enrichment/heuristic.js'
import {normalizeRepoId} from '../../../dist/src/config/paths.js'
import {syntheticMemories} from './corpus.mjs'

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
