// Meaning vectors travel in packs (issue 30 item 2): format version 2's vectors table, read with the
// same distrust as the rest of a pack, and kept by an importer only when they are its model's.
import {join} from 'node:path'
import {mkdirSync} from 'node:fs'
import {describe, expect, it} from 'vitest'
import {packExport} from '../../../src/operations/pack-export.js'
import {packImport} from '../../../src/operations/pack-import.js'
import {store} from '../../../src/operations/store.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {loadStaticTable} from '../../../src/engines/meaning/static-table.js'
import {countWithoutVectorFrom} from '../../../src/storage/vectors.js'
import {entriesChecksum, packChecksum, type PackEntry, type PackVector, writePackFile} from '../../../src/storage/pack-file.js'
import {memRepo, refused, storedId} from '../../helpers/mem.js'

const NOTES = ['Use pnpm, never npm, in this repo', 'The API returns money as integer cents, never floats', 'We deploy to Fly.io from the main branch via GitHub Actions']

function otherRepo(base: string, name = 'other'): string {
  const root = join(base, name)
  mkdirSync(join(root, '.git'), {recursive: true})
  return root
}

const vectorCount = async (ctx: ReturnType<typeof openMem>, repo: string) => (await ctx.repo(repo, 'read')).store.read((db) => db.get<{n: number}>('SELECT count(*) AS n FROM memory_vectors')!.n)

const entry = (content: string): PackEntry => ({type: 'insight', content, oneLiner: null, tags: [], importance: 0.5, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: content.slice(0, 10)})
const manifest = (entries: PackEntry[], vectors: Map<number, PackVector>, formatVersion = 2, sha = packChecksum(entries, vectors)) => ({
  format: 'mem-pack',
  formatVersion,
  packId: 'pack-v',
  name: 'v',
  version: '1',
  sourceRepo: 'r',
  createdAt: '2026-01-01T00:00:00.000Z',
  entryCount: entries.length,
  entriesSha256: sha,
})
const unitVector = (dims: number, seed = 1) => {
  const v = Float32Array.from({length: dims}, (_, i) => Math.sin(seed + i))
  const n = Math.hypot(...v)
  return v.map((x) => x / n)
}

describe('meaning vectors in packs', () => {
  it('an export carries each memory’s vector (format 2); an importer on the same model keeps them, stored at once', async () => {
    const r = memRepo({}, {meaning: {model: 'static'}})
    for (const content of NOTES) storedId(await store(r.ctx, {repo: r.repo, content, type: 'procedure'}))
    const pack = await packExport(r.ctx, {repo: r.repo})
    expect(pack.manifest.formatVersion).toBe(2)
    const other = otherRepo(r.base)
    expect((await packImport(r.ctx, {repo: other, data: pack.data})).imported).toBe(3)
    // no recall, no embedding: the pack's vectors were stored with the memories
    const handle = await r.ctx.repo(other, 'read')
    expect(handle.store.read((db) => countWithoutVectorFrom(db, loadStaticTable().id))).toBe(0)
    // an importer with meaning off keeps none (the memories wait for a model like any other)
    const off = openMem({home: r.home, cwd: r.root, now: r.clock, meaning: {model: 'off'}})
    const third = otherRepo(r.base, 'third')
    expect((await packImport(off, {repo: third, data: pack.data})).imported).toBe(3)
    expect(await vectorCount(off, third)).toBe(0)
    await off.close()
  })

  it('a store without vectors exports format 1, as before (older mem reads it)', async () => {
    const r = memRepo()
    storedId(await store(r.ctx, {repo: r.repo, content: NOTES[0], type: 'procedure'}))
    expect((await packExport(r.ctx, {repo: r.repo})).manifest.formatVersion).toBe(1)
  })

  it('a vector of another model, or not of unit length, is not kept; the memory is', async () => {
    const r = memRepo({}, {meaning: {model: 'static'}})
    const dims = loadStaticTable().dims
    const entries = [entry('first note about the billing queue'), entry('second note about the deploy pipeline')]
    const vectors = new Map<number, PackVector>([
      [0, {model: 'someone/else', dims, vector: unitVector(dims)}],
      [1, {model: loadStaticTable().id, dims, vector: unitVector(dims).map((x) => x * 3)}],
    ])
    const data = await writePackFile(manifest(entries, vectors), entries, vectors)
    expect((await packImport(r.ctx, {repo: r.repo, data})).imported).toBe(2)
    expect(await vectorCount(r.ctx, r.repo)).toBe(0)
  })

  it('refuses, writing nothing, a pack whose vectors are damaged or out of place', async () => {
    const r = memRepo({}, {meaning: {model: 'static'}})
    const entries = [entry('a note that must not be imported')]
    const good = new Map<number, PackVector>([[0, {model: 'm', dims: 4, vector: unitVector(4)}]])
    const cases: Array<[string, Uint8Array, RegExp]> = [
      ['version 1 with vectors', await writePackFile(manifest(entries, good, 1), entries, good), /holds a vectors table, which packs of format version 1 do not have/],
      ['checksum of the entries only', await writePackFile(manifest(entries, good, 2, entriesChecksum(entries)), entries, good), /do not match the manifest checksum/],
      ['a blob shorter than its size', await writePackFile(manifest(entries, good), entries, new Map([[0, {model: 'm', dims: 5, vector: unitVector(4)}]])), /does not belong to an entry, or its size/],
      ['a vector of no entry', await writePackFile(manifest(entries, good), entries, new Map([[3, {model: 'm', dims: 4, vector: unitVector(4)}]])), /does not belong to an entry/],
      ['a number that is not finite', await writePackFile(manifest(entries, good), entries, new Map([[0, {model: 'm', dims: 4, vector: Float32Array.from([Number.NaN, 0, 0, 1])}]])), /not finite/],
    ]
    for (const [what, data, message] of cases) await refused(packImport(r.ctx, {repo: r.repo, data}), 'invalid_input', message).catch((err) => {
      throw new Error(`${what}: ${err}`)
    })
    expect(await vectorCount(r.ctx, r.repo)).toBe(0)
    expect((await r.ctx.repo(r.repo, 'read')).store.read((db) => db.get<{n: number}>('SELECT count(*) AS n FROM memories')!.n)).toBe(0)
  })
})
