import {appendFileSync, existsSync, readFileSync, statSync, truncateSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MemError} from '../../src/model/errors.js'
import type {Memory} from '../../src/model/memory.js'
import {Db} from '../../src/storage/db.js'
import {releaseBuffer} from '../../src/storage/files.js'
import {ftsTermStats, MAX_INDEX_SEGMENTS} from '../../src/storage/fts.js'
import {encodeRecord} from '../../src/storage/journal.js'
import {dupBandGroups, getMemory, liveCounts, type Op} from '../../src/storage/memories.js'
import {RepoStore} from '../../src/storage/repo-store.js'
import {SCHEMA_VERSION, setMeta} from '../../src/storage/schema.js'
import {contentBands, LOOKUP_KEYS, storedKeys} from '../../src/text/minhash.js'
import {loadSqlJs} from '../../src/storage/sqljs.js'
import {tempDir} from '../helpers/mem.js'
import {testMemory} from '../helpers/memory.js'
import {makeReadOnly} from '../helpers/readonly.js'

let n = 0
function memory(content: string, over: Partial<Memory> = {}): Memory {
  n++
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString()
  return testMemory({id: `memories/r/observation/${n.toString(16).padStart(12, '0')}`, repoId: 'r', content, createdAt: at, updatedAt: at, ...over})
}

const insert = (m: Memory) => (): {ops: Op[]; result: string} => ({ops: [{op: 'insert', memory: m}], result: m.id})

async function open(root: string, options = {}): Promise<RepoStore> {
  const s = await RepoStore.open(root, options)
  return s
}

async function codeAsync(p: Promise<unknown>): Promise<{code?: string; message?: string}> {
  try {
    await p
  } catch (err) {
    return err instanceof MemError ? {code: err.code, message: err.message} : {code: String(err)}
  }
  return {}
}

describe('RepoStore', () => {
  it('creates nothing on reads, and .mem with a .gitignore on the first write', async () => {
    const root = tempDir()
    const s = await open(root)
    expect(s.read((db) => liveCounts(db)).observation).toBe(0)
    expect(existsSync(join(root, '.mem'))).toBe(false)
    await s.write(insert(memory('first')))
    expect(existsSync(join(root, '.mem', 'mem.db'))).toBe(true)
    expect(readFileSync(join(root, '.mem', '.gitignore'), 'utf8')).toMatch(/^mem\.db$/m)
    expect(readFileSync(join(root, '.mem', 'journal'), 'utf8')).toMatch(/^mem-journal 1 /)
    await s.close()
  })

  it('writes append to the journal and never rewrite the snapshot', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('first')))
    const before = statSync(join(root, '.mem', 'mem.db'))
    for (let i = 0; i < 20; i++) await s.write(insert(memory(`note ${i}`)))
    const after = statSync(join(root, '.mem', 'mem.db'))
    expect(after.mtimeMs).toBe(before.mtimeMs)
    expect(after.ino).toBe(before.ino)
    expect(s.pendingJournalBytes).toBeGreaterThan(0)
    await s.close()
  })

  it('recall counters queued in the background land as if applied one by one, one update per memory', async () => {
    const root = tempDir()
    const s = await open(root)
    const [a, b, c] = [memory('alpha'), memory('beta'), memory('gamma')]
    for (const m of [a, b, c]) await s.write(insert(m))
    const t = (sec: number) => new Date(Date.UTC(2026, 1, 1, 0, 0, sec)).toISOString()
    const touches: Op[] = [
      {op: 'touch', ids: [a.id, b.id], at: t(1)},
      {op: 'touch', ids: [b.id, c.id], at: t(3)},
      {op: 'touch', ids: [a.id], at: t(2)},
      {op: 'touch', ids: [b.id], at: t(5)},
    ]
    for (const op of touches) s.writeInBackground([op])
    await s.flush()
    const seen = (id: string) => s.read((db) => getMemory(db, id))
    expect([a, b, c].map((m) => [seen(m.id)?.accessCount, seen(m.id)?.lastAccessedAt])).toEqual([
      [2, t(2)],
      [3, t(5)],
      [1, t(3)],
    ])
    // the same ops written one by one (not coalesced) give the same state, also to another process
    const other = tempDir()
    const r = await open(other)
    for (const m of [a, b, c]) await r.write(insert(m))
    for (const op of touches) await r.write(() => ({ops: [op], result: null}))
    expect([a, b, c].map((m) => r.read((db) => getMemory(db, m.id))?.accessCount)).toEqual([2, 3, 1])
    const again = await open(root)
    expect([a, b, c].map((m) => again.read((db) => getMemory(db, m.id))?.accessCount)).toEqual([2, 3, 1])
    // a replay coalesces runs of touches only: a touch written before its memory existed stays a no-op
    const d = memory('delta')
    await r.write(() => ({ops: [{op: 'touch', ids: [d.id, a.id], at: t(7)}], result: null}))
    await r.write(insert(d))
    await r.write(() => ({ops: [{op: 'touch', ids: [d.id], at: t(8)}], result: null}))
    const replayed = await open(other)
    const state = (x: RepoStore) => [a, d].map((m) => x.read((db) => getMemory(db, m.id))).map((m) => [m?.accessCount, m?.lastAccessedAt])
    expect(state(r)).toEqual([
      [3, t(7)],
      [1, t(8)],
    ])
    expect(state(replayed)).toEqual(state(r))
    await Promise.all([s.close(), r.close(), again.close(), replayed.close()])
  })

  it('another store on the same folder sees writes through the journal (catch-up before reads)', async () => {
    const root = tempDir()
    const a = await open(root)
    const b = await open(root)
    const m = memory('seen by b')
    await a.write(insert(m))
    expect(b.read((db) => getMemory(db, m.id))?.content).toBe('seen by b')
    const m2 = memory('seen by a')
    await b.write(insert(m2))
    expect(a.read((db) => getMemory(db, m2.id))?.content).toBe('seen by a')
    await a.close()
    await b.close()
  })

  it('survives a checkpoint by another process (generation change) and keeps everything', async () => {
    const root = tempDir()
    const a = await open(root)
    const b = await open(root)
    for (let i = 0; i < 5; i++) await a.write(insert(memory(`a ${i}`)))
    await a.checkpoint()
    expect(a.pendingJournalBytes).toBe(0)
    await a.write(insert(memory('after checkpoint')))
    expect(b.read((db) => liveCounts(db)).observation).toBe(6)
    await a.close()
    await b.close()
    const c = await open(root)
    expect(c.read((db) => liveCounts(db)).observation).toBe(6)
    await c.close()
  })

  it('a checkpoint leaves the full-text index in one segment, and search answers the same', async () => {
    const root = tempDir()
    const s = await open(root)
    // one write, one transaction, one new index segment each
    for (let i = 0; i < 24; i++) await s.write(insert(memory(`deploy step ${i}: run the migration script before the release ${i % 3 === 0 ? 'with docker' : ''}`)))
    const search = () =>
      s.read((db) => ftsTermStats(db, ['docker', 'migrat', 'releas'], [true, true, false], [8, 24, 24]))
    const segments = () => s.read((db) => db.get<{n: number}>(`SELECT count(*) AS n FROM memories_fts_segdir`)!.n)
    expect(segments()).toBeGreaterThan(MAX_INDEX_SEGMENTS)
    const before = search()
    await s.checkpoint()
    expect(segments()).toBe(1)
    expect(search()).toEqual(before)
    await s.close()
    // the snapshot on disk is the compacted one
    const t = await open(root)
    expect(t.read((db) => db.get<{n: number}>(`SELECT count(*) AS n FROM memories_fts_segdir`)!.n)).toBe(1)
    expect(t.read((db) => liveCounts(db)).observation).toBe(24)
    await t.close()
  })

  it('BM25 term statistics are the same whether lengths come with every row or in a second query', async () => {
    const root = tempDir()
    const s = await open(root)
    for (let i = 0; i < 12; i++) await s.write(insert(memory(`the build cache ${i % 4 === 0 ? 'breaks the flaky e2e suite' : 'is warm'} on ci runner ${i}`)))
    const terms = ['flaki', 'e2e', 'build', 'cach']
    const candidate = [true, true, false, false]
    // rare candidates next to common terms: lengths in a second query; common ones: with every row
    const separate = s.read((db) => ftsTermStats(db, terms, candidate, [3, 3, 12, 12]))
    const inline = s.read((db) => ftsTermStats(db, terms, candidate, [12, 12, 12, 12]))
    expect(separate.seqs).toHaveLength(3)
    expect(inline).toEqual(separate)
    expect(s.read((db) => ftsTermStats(db, terms, candidate))).toEqual(separate)
    await s.close()
  })

  it('checkpoints on its own when the journal passes the threshold', async () => {
    const root = tempDir()
    const s = await open(root, {checkpointBytes: 2_000})
    for (let i = 0; i < 30; i++) await s.write(insert(memory(`note number ${i} with some words`)))
    expect(s.pendingJournalBytes).toBeLessThan(2_000)
    await s.close()
    const t = await open(root)
    expect(t.read((db) => liveCounts(db)).observation).toBe(30)
    await t.close()
  })

  it('drops a torn last record and cuts it before the next append', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('kept')))
    await s.close()
    const journal = join(root, '.mem', 'journal')
    const torn = encodeRecord({ops: [{op: 'insert', memory: memory('torn')}]})
    appendFileSync(journal, torn.subarray(0, torn.length - 10))
    const t = await open(root)
    expect(t.read((db) => liveCounts(db)).observation).toBe(1)
    await t.write(insert(memory('after torn')))
    await t.close()
    const u = await open(root)
    expect(u.read((db) => liveCounts(db)).observation).toBe(2)
    await u.close()
  })

  it('drops a complete last line whose checksum fails (torn, zero-filled)', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('kept')))
    await s.close()
    appendFileSync(join(root, '.mem', 'journal'), Buffer.concat([Buffer.alloc(40), Buffer.from('\n')]))
    const t = await open(root)
    expect(t.read((db) => liveCounts(db)).observation).toBe(1)
    await t.close()
  })

  it('reports a corrupt record in the middle and leaves the journal untouched', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('one')))
    await s.write(insert(memory('two')))
    await s.close()
    const journal = join(root, '.mem', 'journal')
    const text = readFileSync(journal, 'utf8')
    const lines = text.split('\n')
    lines[1] = lines[1].replace('one', 'uno') // same length, wrong checksum
    writeFileSync(journal, lines.join('\n'))
    const before = readFileSync(journal)
    const err = await codeAsync(open(root))
    expect(err.code).toBe('unavailable')
    expect(err.message).toMatch(/corrupt/)
    expect(readFileSync(journal).equals(before)).toBe(true)
  })

  it('reports a corrupt snapshot and leaves it untouched', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('one')))
    await s.close()
    const db = join(root, '.mem', 'mem.db')
    writeFileSync(db, 'this is not a database at all, but it is long enough to pass a size check. '.repeat(3))
    const before = readFileSync(db)
    const err = await codeAsync(open(root))
    expect(err).toMatchObject({code: 'unavailable'})
    expect(err.message).toMatch(/not a SQLite database/)
    expect(readFileSync(db).equals(before)).toBe(true)
  })

  it('an older database gets the band keys this build computes (value keys only for memories a newer version updates) and marks the memories that update another', async () => {
    const root = tempDir()
    const s = await open(root)
    const older = memory('Production errors go to Honeybadger')
    const newer = memory('Production errors go to Sentry', {links: [{targetId: older.id, relation: 'updates'}]})
    await s.write(insert({...older, links: [{targetId: newer.id, relation: 'updated-by'}]}))
    await s.write(insert(newer))
    await s.close()
    // a snapshot of schema 9 whose band table lacks today's keys
    const SQL = await loadSqlJs()
    const path = join(root, '.mem', 'mem.db')
    const db = new Db(new SQL.Database(readFileSync(path)))
    db.run(`DELETE FROM dup_bands`)
    db.exec(`DROP INDEX memories_changed_ctx_rank; ALTER TABLE memories DROP COLUMN changed; ALTER TABLE memories DROP COLUMN origin; ALTER TABLE memories DROP COLUMN origin_mac`)
    setMeta(db, 'schema_version', '9')
    writeFileSync(path, db.export())
    db.close()
    const again = await open(root)
    const keysOf = (id: string) =>
      again.read((d) => d.all<{band: number}>(`SELECT band FROM dup_bands WHERE seq = (SELECT seq FROM memories WHERE id = ?) ORDER BY band`, [id]).map((r) => r.band))
    const sorted = (keys: readonly number[]) => [...keys].sort((a, b) => a - b)
    expect(keysOf(older.id)).toEqual(sorted(storedKeys(older.content, true)))
    expect(keysOf(newer.id)).toEqual(sorted(storedKeys(newer.content, false)))
    expect(storedKeys(older.content, true).length).toBeGreaterThan(storedKeys(older.content, false).length)
    // schema 13: the role keys of the tools a text names are among them (Sentry: error tracking)
    expect(contentBands(newer.content).lookups).toHaveLength(1)
    expect(keysOf(newer.id)).toEqual(expect.arrayContaining([...contentBands(newer.content).lookups]))
    // and schema 11 marks the memory that updates another (the context leads with such)
    const changed = again.read((d) => d.all<{id: string}>(`SELECT id FROM memories WHERE changed = 1`).map((r) => r.id))
    expect(changed).toEqual([newer.id])
    // and schema 12 gives every row the user's origin without a MAC: the runtime settles whose they are (runtime/open-mem.ts)
    expect(again.read((d) => d.all(`SELECT origin, origin_mac FROM memories`))).toEqual([
      {origin: 'user', origin_mac: null},
      {origin: 'user', origin_mac: null},
    ])
    await again.close()
  })

  /**
   * A store holding one memory `text` in its snapshot (no journal record brings keys back on open),
   * its database changed by `change` and marked as of `schema`, then opened again by this build:
   * the store, the memory and its duplicate keys (ascending).
   */
  async function reopenedAtSchema(text: string, schema: number, change: (db: Db, id: string) => void) {
    const root = tempDir()
    const s = await open(root)
    const m = memory(text)
    await s.write(insert(m))
    await s.checkpoint()
    await s.close()
    const SQL = await loadSqlJs()
    const path = join(root, '.mem', 'mem.db')
    const db = new Db(new SQL.Database(readFileSync(path)))
    change(db, m.id)
    setMeta(db, 'schema_version', String(schema))
    writeFileSync(path, db.export())
    db.close()
    const again = await open(root)
    const keys = again.read((d) => d.all<{band: number}>(`SELECT band FROM dup_bands WHERE seq = (SELECT seq FROM memories WHERE id = ?) ORDER BY band`, [m.id]).map((r) => r.band))
    return {m, again, keys}
  }

  // a role added after a schema: its store gets the role's keys when it migrates
  for (const [schema, text, added] of [
    [17, 'Styles are written in Sass modules', 'schema 18: Sass names the css-styling role'],
    [19, 'Component tests are written with Enzyme', 'schema 20: Enzyme names the react-component-tests role'],
  ] as const) {
    it(`a store of schema ${schema} gets the role keys of the roles added after it (${added})`, async () => {
      // what a build of that schema stored: no role key for the tool (its role did not exist)
      const {m, again, keys} = await reopenedAtSchema(text, schema, (db) => db.run(`DELETE FROM dup_bands`))
      expect(contentBands(m.content).lookups).toHaveLength(1)
      expect(keys).toEqual(expect.arrayContaining([...contentBands(m.content).lookups]))
      await again.close()
    })
  }

  it('a store of schema 18 loses the practice keys it held (schema 19: no rule compares a stance on a practice)', async () => {
    // what a build of schema 18 stored beside the text's keys: a key of the practice it named (a key no build computes now stands in for it)
    const practiceKey = 0x5eed
    const {m: enums, again, keys} = await reopenedAtSchema('Do not use TypeScript enums', 18, (db, id) =>
      db.run(`INSERT INTO dup_bands(band, seq) SELECT ?, seq FROM memories WHERE id = ?`, [practiceKey, id]),
    )
    expect(keys).not.toContain(practiceKey)
    expect(keys).toEqual([...storedKeys(enums.content, false)].sort((a, b) => a - b))
    await again.close()
  })

  it('groups live memories by their band keys for maintenance, but not by the keys a store looks up apart (a role, a quantity, a version, a command\'s task, a convention)', async () => {
    const root = tempDir()
    const s = await open(root)
    // each pair shares a role (error tracking), a quantity's dimension (time), a version's runtime (Node), a command's task (seed) or a convention (how pull requests merge), and nothing else
    const pairs = [
      ['Production errors go to Sentry', 'Crash reports from the iOS app land in Crashlytics'],
      ['Logs are kept for 30 days', 'Uploads expire after 7 days'],
      ['The API needs Node 20', 'The docs site builds on Node 18'],
      ['Seed the database with `make seed`', 'Fixtures load through `npm run fixtures`'],
      ['Squash when merging', 'Branches land with a merge commit'],
    ]
    for (const text of pairs.flat()) await s.write(insert(memory(text)))
    const seqOf = new Map(s.read((d) => d.all<{seq: number; content: string}>(`SELECT seq, content FROM memories`)).map((r) => [r.content, r.seq]))
    const all = s.read((d) => dupBandGroups(d))
    expect(all).toEqual(expect.arrayContaining(pairs.map(([a, b]) => [seqOf.get(a), seqOf.get(b)])))
    expect(s.read((d) => dupBandGroups(d, LOOKUP_KEYS))).toEqual([])
    await s.close()
  })

  it('refuses a database from a newer mem, without rewriting it', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('one')))
    await s.close()
    // Make a snapshot that claims a future schema version.
    const SQL = await loadSqlJs()
    const path = join(root, '.mem', 'mem.db')
    const raw = new SQL.Database(readFileSync(path))
    const db = new Db(raw)
    setMeta(db, 'schema_version', String(SCHEMA_VERSION + 1))
    writeFileSync(path, db.export())
    db.close()
    const before = readFileSync(path)
    const err = await codeAsync(open(root))
    expect(err.code).toBe('unavailable')
    expect(err.message).toMatch(/newer than this mem/)
    expect(readFileSync(path).equals(before)).toBe(true)
  })

  it('a write to a read-only .mem fails clearly, loses nothing, and reads still work', async () => {
    const root = tempDir()
    const s = await open(root)
    const m = memory('kept')
    await s.write(insert(m))
    await s.close()
    const dir = join(root, '.mem')
    const undo = makeReadOnly([dir, join(dir, 'journal')])
    try {
      const t = await open(root)
      expect(t.read((db) => getMemory(db, m.id))?.content).toBe('kept')
      const result = await codeAsync(t.write(insert(memory('not written'))))
      expect(result.code).toBe('unavailable')
      expect(result.message).toMatch(/read-only/)
      expect(t.read((db) => liveCounts(db)).observation).toBe(1)
      await t.close()
    } finally {
      undo()
    }
    const u = await open(root)
    expect(u.read((db) => liveCounts(db)).observation).toBe(1)
    await u.close()
  })

  it('a failing job rolls back alone; the others in the batch commit', async () => {
    const root = tempDir()
    const s = await open(root)
    const good = memory('good')
    const results = await Promise.allSettled([
      s.write(insert(good)),
      s.write(() => {
        throw new MemError('conflict', 'no')
      }),
      s.write(insert(memory('also good'))),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect(s.read((db) => liveCounts(db)).observation).toBe(2)
    await s.close()
  })

  it('keeps a counts sidecar that answers only while it matches the journal', async () => {
    const root = tempDir()
    expect(RepoStore.peekCounts(root)).toBeNull()
    // the sidecar is written when the lock is released; without lingering that is after each write
    const s = await open(root, {lockLingerMs: 0})
    await s.write(insert(memory('one')))
    await s.write(insert(memory('two')))
    expect(RepoStore.peekCounts(root)).toMatchObject({observation: 2, insight: 0})
    await s.checkpoint()
    expect(RepoStore.peekCounts(root)).toMatchObject({observation: 2})
    await s.close()
    // a record appended by a writer that died before updating the sidecar: the sidecar is stale
    appendFileSync(join(root, '.mem', 'journal'), encodeRecord({ops: [{op: 'insert', memory: memory('three')}]}))
    expect(RepoStore.peekCounts(root)).toBeNull()
    const t = await open(root)
    expect(t.read((db) => liveCounts(db)).observation).toBe(3)
    await t.close()
  })

  it('a checkpoint of a store over a megabyte writes exactly the database, frees its copy, and the store goes on', async () => {
    const root = tempDir()
    const s = await open(root)
    const words = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor '.repeat(40)
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const batch = Array.from({length: 10}, (_, j) => memory(`${i * 10 + j} ${words}`))
      ids.push(...batch.map((m) => m.id))
      await s.write(() => ({ops: batch.map((m) => ({op: 'insert' as const, memory: m})), result: null}))
    }
    // catch the serialized copy the checkpoint makes
    const copies: Uint8Array[] = []
    const exportedBytes: Buffer[] = []
    s.read((db) => {
      const exportDb = db.export.bind(db)
      db.export = () => {
        const bytes = exportDb()
        copies.push(bytes)
        exportedBytes.push(Buffer.from(bytes))
        return bytes
      }
    })
    await s.checkpoint()
    const onDisk = readFileSync(join(root, '.mem', 'mem.db'))
    expect(onDisk.length).toBeGreaterThan(1 << 20)
    // written, then freed at once rather than left to the garbage collector
    expect(copies).toHaveLength(1)
    expect(copies[0].byteLength).toBe(0)
    // the snapshot is the serialized database, byte for byte (serializing it again may differ in
    // the contents of free pages, which sqlite leaves as they are)
    expect(Buffer.compare(onDisk, exportedBytes[0])).toBe(0)
    expect(s.read((db) => Buffer.from(db.export())).length).toBe(onDisk.length)
    // statements prepared before the checkpoint still serve reads and writes after it
    expect(s.read((db) => getMemory(db, ids[123])?.content)).toMatch(/^123 lorem/)
    await s.write(insert(memory('after the checkpoint')))
    await s.checkpoint()
    expect(s.read((db) => liveCounts(db)).observation).toBe(401)
    await s.close()
    const t = await open(root)
    expect(t.read((db) => liveCounts(db)).observation).toBe(401)
    expect(t.read((db) => getMemory(db, ids[399])?.content)).toMatch(/^399 lorem/)
    await t.close()
  })

  it('truncating the journal to nothing but the header loses only unacknowledged data', async () => {
    const root = tempDir()
    const s = await open(root)
    await s.write(insert(memory('one')))
    await s.checkpoint()
    await s.close()
    const journal = join(root, '.mem', 'journal')
    truncateSync(journal, readFileSync(journal, 'utf8').indexOf('\n') + 1)
    const t = await open(root)
    expect(t.read((db) => liveCounts(db)).observation).toBe(1)
    await t.close()
  })
})

describe('Db.each', () => {
  it('hands over rows one at a time in query order, and the statement serves again after a throw', async () => {
    const SQL = await loadSqlJs()
    const db = new Db(new SQL.Database())
    db.exec('CREATE TABLE t (n INTEGER, s TEXT)')
    for (let i = 0; i < 5; i++) db.run('INSERT INTO t VALUES (?, ?)', [i, `row ${i}`])
    const sql = 'SELECT n, s FROM t WHERE n >= ? ORDER BY n DESC'
    const seen: Array<{n: number; s: string}> = []
    db.each<{n: number; s: string}>(sql, [2], (row) => seen.push(row))
    expect(seen).toEqual([{n: 4, s: 'row 4'}, {n: 3, s: 'row 3'}, {n: 2, s: 'row 2'}])
    // a callback that throws stops the scan; the statement is reset, not left mid-step
    expect(() => db.each(sql, [0], () => {
      throw new Error('stop')
    })).toThrow('stop')
    let count = 0
    db.each(sql, [0], () => count++)
    expect(count).toBe(5)
    db.each(sql, [9], () => count++)
    expect(count).toBe(5)
    db.close()
  })
})

describe('releaseBuffer', () => {
  it('frees a large buffer it is handed (the view is empty afterwards)', () => {
    const big = new Uint8Array(2 << 20).fill(7)
    releaseBuffer(big)
    expect(big.byteLength).toBe(0)
    expect(big.buffer.byteLength).toBe(0)
  })

  it('leaves small buffers, views into a buffer, and slices of Node\'s shared pool alone', () => {
    const small = new Uint8Array(4096).fill(1)
    releaseBuffer(small)
    expect(small.byteLength).toBe(4096)
    const whole = new Uint8Array(2 << 20)
    const view = whole.subarray(16)
    releaseBuffer(view)
    expect(view.byteLength).toBe((2 << 20) - 16)
    const a = Buffer.from('pooled a')
    const b = Buffer.from('pooled b')
    releaseBuffer(a)
    expect(a.toString()).toBe('pooled a')
    expect(b.toString()).toBe('pooled b')
  })
})
