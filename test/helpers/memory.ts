// The test factory for a whole memory: newMemory (src/model/memory.ts) with a test's defaults, so a
// test names only the fields it is about. Ids, times and texts are fixed unless given.
import {newMemory, type Memory, type NewMemoryFields} from '../../src/model/memory.js'

/** A complete memory of repo `app`: an observation made 2026-03-01 12:00 UTC by source `test`, with the given fields over it. */
export function testMemory(fields: Partial<Memory> = {}): Memory {
  const type = fields.type ?? 'observation'
  const base: NewMemoryFields = {
    id: `memories/${fields.repoId ?? 'app'}/${type}/000000000001`,
    repoId: 'app',
    type,
    content: 'a memory of a test',
    createdAt: '2026-03-01T12:00:00.000Z',
    source: 'test',
  }
  return newMemory({...base, ...fields})
}
