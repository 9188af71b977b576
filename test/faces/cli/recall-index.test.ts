import {closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {RepoStore} from '../../../src/storage/repo-store.js'
import {parseHeader} from '../../../src/storage/journal.js'
import {RECALL_INDEX_FILE, RecallIndexFile} from '../../../src/storage/recall-index.js'
import {BACKGROUND_INDEX_BYTES} from '../../../src/operations/recall.js'
import {heuristicOneLiner} from '../../../src/engines/enrichment/heuristic.js'
import {normalizeRepoId} from '../../../src/config/paths.js'
import {MEMORY_TYPES, OWN_ORIGIN} from '../../../src/model/memory.js'
import type {Memory} from '../../../src/model/memory.js'
import type {Op} from '../../../src/storage/memories.js'
import {memRepo} from '../../helpers/mem.js'
import {runCli} from '../../helpers/cli.js'

const WORDS = 'deploy docker postgres cache queue worker billing invoice webhook retry timeout migration schema index token session login export import report metrics alert backup restore release branch review build lint test flaky fixture mock staging production cluster pod node memory cpu disk network proxy certificate'.split(' ')

/** Writes `count` memories straight through the storage layer (the records a store writes), then checkpoints. */
async function seedLarge(root: string, count: number): Promise<void> {
  const repoId = normalizeRepoId(root)
  const store = await RepoStore.open(root, {checkpointBytes: Number.MAX_SAFE_INTEGER})
  const start = Date.parse('2026-01-01T00:00:00Z')
  for (let i = 0; i < count; i += 1000) {
    const ops: Op[] = []
    for (let j = i; j < Math.min(count, i + 1000); j++) {
      const words = Array.from({length: 24}, (_, k) => WORDS[(j * 7 + k * k * 13 + k) % WORDS.length])
      const content = `Note ${j}: the ${words.join(' ')} (case ${j % 97})`
      const createdAt = new Date(start + j * 60_000).toISOString()
      const memory: Memory = {
        id: `memories/${repoId}/observation/${j.toString(16).padStart(12, '0')}`, repoId, type: MEMORY_TYPES[j % 4], content,
        oneLiner: heuristicOneLiner(content), summary: null, tags: [words[0], words[1]], importance: 0.5, source: 'test', sessionId: null,
        supersedes: null, supersededBy: null, createdAt, updatedAt: createdAt, forgottenAt: null, forgetReason: null, expiresAt: null,
        accessCount: 0, lastAccessedAt: null, usedCount: 0, unusedCount: 0, lastUsedAt: null, derivedFrom: [], links: [], origin: OWN_ORIGIN,
      }
      ops.push({op: 'insert' as const, memory})
    }
    await store.write(() => ({ops, result: null}))
  }
  await store.checkpoint()
  await store.close()
}

function journalGeneration(root: string): string {
  const fd = openSync(join(root, '.mem', 'journal'), 'r')
  try {
    return parseHeader(fd, 'journal')!.generation
  } finally {
    closeSync(fd)
  }
}

describe('mem recall and the recall index', () => {
  it('in a large store, answers from the store, rebuilds the index in a detached process, then answers from it the same', async () => {
    const {root, home} = memRepo()
    await seedLarge(root, 4000)
    expect(statSync(join(root, '.mem', 'mem.db')).size).toBeGreaterThanOrEqual(BACKGROUND_INDEX_BYTES)
    const q = 'flaky staging webhook retry'
    const first = runCli(['recall', q, '--json'], {cwd: root, home})
    expect(first.code).toBe(0)
    expect(first.json().results.length).toBe(10)
    // the rebuild runs after the command exited; wait for it (never for a fixed time)
    const index = join(root, '.mem', RECALL_INDEX_FILE)
    for (let i = 0; i < 600 && (!existsSync(index) || existsSync(`${index}.lock`)); i++) await new Promise((r) => setTimeout(r, 100))
    const file = RecallIndexFile.open(join(root, '.mem'))!
    expect(file.header.generation).toBe(journalGeneration(root))
    file.close()
    const written = readFileSync(index)
    const second = runCli(['recall', q, '--json'], {cwd: root, home})
    expect(second.json()).toEqual(first.json())
    // answered from the index, which stays as it is (the recall counters do not make it stale)
    expect(readFileSync(index).equals(written)).toBe(true)
    expect(existsSync(`${index}.lock`)).toBe(false)

    // damaged where only a full read sees it (postings and records): the store answers, and the
    // detached rebuild, which checks the whole file, rewrites it
    const base = written.readUInt32LE(12)
    const [dictAt] = file.header.sections.dict
    const damaged = Buffer.concat([written.subarray(0, base), Buffer.alloc(dictAt, 0x41), written.subarray(base + dictAt)])
    writeFileSync(index, damaged)
    const third = runCli(['recall', q, '--json'], {cwd: root, home})
    expect(third.json()).toEqual(first.json())
    for (let i = 0; i < 600 && (readFileSync(index).equals(damaged) || existsSync(`${index}.lock`)); i++) await new Promise((r) => setTimeout(r, 100))
    const repaired = RecallIndexFile.open(join(root, '.mem'))!
    expect(repaired.intact()).toBe(true)
    repaired.close()
    expect(runCli(['recall', q, '--json'], {cwd: root, home}).json()).toEqual(first.json())
  }, 180_000)
})
