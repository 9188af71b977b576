// Synthetic developer memories for benchmarks: sentences built from the vocabulary of the recall
// evaluation set, with words swapped and a serial number, so no two are near-duplicates.
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

const DATA = join(import.meta.dirname, '..', 'recall', 'data')
const TYPES = ['observation', 'insight', 'procedure', 'heuristic']

export function loadEvalSet() {
  return {
    memories: JSON.parse(readFileSync(join(DATA, 'memories.json'), 'utf8')),
    questions: JSON.parse(readFileSync(join(DATA, 'questions.json'), 'utf8')),
  }
}

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed = 42) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function syntheticMemories(count, seed = 7) {
  const {memories} = loadEvalSet()
  const vocab = [...new Set(memories.flatMap((m) => m.content.split(/\s+/)))].filter((w) => /^[a-z][a-z-]{2,}$/i.test(w))
  const rand = rng(seed)
  const pick = (arr) => arr[Math.floor(rand() * arr.length)]
  const out = []
  for (let i = 0; i < count; i++) {
    const base = pick(memories)
    const words = base.content.split(/\s+/).map((w) => (rand() < 0.4 ? pick(vocab) : w))
    out.push({
      content: `${words.join(' ')} (note ${i})`,
      type: TYPES[i % 4],
      tags: base.tags.slice(0, 2),
      importance: Math.round(rand() * 100) / 100,
    })
  }
  return out
}
