import {describe, expect, it} from 'vitest'
import {MemError} from '../../../src/model/errors.js'
import {browse} from '../../../src/operations/browse.js'
import {edit} from '../../../src/operations/edit.js'
import {forget} from '../../../src/operations/forget.js'
import {packExport} from '../../../src/operations/pack-export.js'
import {packImport} from '../../../src/operations/pack-import.js'
import {store} from '../../../src/operations/store.js'
import {entriesChecksum, MAX_PACK_TEXT_BYTES, type PackEntry, writePackFile} from '../../../src/storage/pack-file.js'
import {loadSqlJs} from '../../../src/storage/sqljs.js'
import {memRepo, storedId, refused} from '../../helpers/mem.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {basename, join} from 'node:path'
import {mkdirSync} from 'node:fs'
import {onTestFinished} from 'vitest'
import {BENCH_ONLY_PACKS, HOSTILE_PACKS, plainPack} from '../../helpers/hostile-packs.mjs'
import {stats} from '../../../src/operations/stats.js'

/** A second repo in the same MEM_HOME, with the same clock. */
function otherRepo(base: ReturnType<typeof memRepo>) {
  const root = join(base.base, 'other')
  mkdirSync(join(root, '.git'), {recursive: true})
  return root
}

const SAMPLE = [
  {content: 'integration suite: npm run test:int, needs docker running', type: 'procedure', tags: ['testing', 'docker'], importance: 0.8},
  {content: 'The flaky test in auth.spec.ts times out when the CI runner is slow', type: 'observation', tags: ['ci']},
  {content: 'Prefer zod schemas at every boundary of the service', type: 'heuristic', importance: 0.7},
  {content: 'Release builds fail when the changelog has no entry for the version', type: 'insight', tags: ['release']},
] as const

async function seed(ctx: ReturnType<typeof memRepo>['ctx'], repo: string): Promise<string[]> {
  const ids: string[] = []
  for (const m of SAMPLE) ids.push(storedId(await store(ctx, {repo, ...m, tags: [...(('tags' in m && m.tags) || [])]})))
  return ids
}

async function allLive(ctx: ReturnType<typeof memRepo>['ctx'], repo: string) {
  return (await browse(ctx, {repo, take: 500})).entries
}

describe('pack export and import', () => {
  it('round-trips every live memory into another repo with new ids', async () => {
    const r = memRepo()
    const ids = await seed(r.ctx, r.repo)
    // a superseded and a forgotten memory stay out of the pack
    const edited = await edit(r.ctx, {id: ids[2], content: 'Prefer zod schemas at every boundary, and infer the types from them'})
    expect(edited.success).toBe(true)
    await forget(r.ctx, {id: ids[1]})
    const out = await packExport(r.ctx, {repo: r.repo, name: 'team', version: '1.2.0'})
    expect(out.fileName).toBe('team.mem')
    expect(Buffer.from(out.data.subarray(0, 15)).toString()).toBe('SQLite format 3')
    expect(out.manifest).toMatchObject({format: 'mem-pack', formatVersion: 1, name: 'team', version: '1.2.0', entryCount: 3})
    expect(out.manifest.entriesSha256).toMatch(/^[0-9a-f]{64}$/)

    const target = otherRepo(r)
    const result = await packImport(r.ctx, {repo: target, data: Buffer.from(out.data).toString('base64')})
    expect(result).toEqual({imported: 3, skipped: 0, packId: out.manifest.packId, name: 'team', version: '1.2.0'})
    const before = await allLive(r.ctx, r.repo)
    const after = await allLive(r.ctx, target)
    const shape = (m: (typeof before)[number]) => ({type: m.type, content: m.content, tags: m.tags, importance: m.importance, oneLiner: m.oneLiner, createdAt: m.createdAt, source: m.source})
    expect(after.map(shape).sort((a, b) => a.content.localeCompare(b.content))).toEqual(before.map(shape).sort((a, b) => a.content.localeCompare(b.content)))
    const targetId = after[0].repoId
    expect(targetId).not.toBe(before[0].repoId)
    for (const m of after) expect(m.id.startsWith(`memories/${targetId}/`)).toBe(true)

    // importing the same pack again adds nothing: every entry is a duplicate
    const again = await packImport(r.ctx, {repo: target, data: out.data})
    expect(again).toMatchObject({imported: 0, skipped: 3})
  })

  it('the pack is a SQLite file any SQLite reader opens, with a manifest and entries', async () => {
    const r = memRepo()
    await seed(r.ctx, r.repo)
    const {data, manifest} = await packExport(r.ctx, {repo: r.repo})
    const SQL = await loadSqlJs()
    const db = new SQL.Database(data)
    const m = db.exec('SELECT format, format_version, pack_id, entry_count, source_repo FROM manifest')[0].values[0]
    expect(m).toEqual(['mem-pack', 1, manifest.packId, 4, manifest.sourceRepo])
    expect(db.exec('SELECT count(*) FROM entries')[0].values[0][0]).toBe(4)
    db.close()
  })

  it('refuses a pack with a changed byte in an entry, and nothing is written', async () => {
    const r = memRepo()
    await seed(r.ctx, r.repo)
    const {data} = await packExport(r.ctx, {repo: r.repo})
    const bytes = Buffer.from(data)
    const at = bytes.indexOf('needs docker')
    expect(at).toBeGreaterThan(0)
    bytes[at] = bytes[at] ^ 0x01
    const target = otherRepo(r)
    await refused(packImport(r.ctx, {repo: target, data: bytes}), 'invalid_input', /checksum/)
    expect(await allLive(r.ctx, target)).toEqual([])
  })

  // Which bytes are flipped. The pack's 12 KB are three pages, mostly unused space (zeros) around
  // the ~1,800 bytes SQLite and mem read: the file header, each page's header and cell pointers, the
  // schema's, the manifest's and the entries' records. A flip in what is read is refused in 94 cases
  // of 100; one in unused space is imported unchanged, a whole import (~45 ms). So every 8th
  // non-zero byte is flipped (every record holds longer runs: each is hit) and every 256th zero
  // byte (a dozen a page). Until this was measured the sample was every 61st byte of the file:
  // ~30 read bytes, ~170 unused ones (6.75 s of CPU alone; this sample ~230 and ~42).
  const flipped = (data: Uint8Array) => {
    const used = [...data.keys()].filter((i) => data[i] !== 0).filter((_, k) => k % 8 === 0)
    const unused = [...data.keys()].filter((i) => data[i] === 0).filter((_, k) => k % 256 === 0)
    return [...used, ...unused]
  }

  it('never imports changed data: any single flipped byte is refused or changes nothing', async () => {
    const r = memRepo()
    await seed(r.ctx, r.repo)
    const {data} = await packExport(r.ctx, {repo: r.repo})
    const reference = (await allLive(r.ctx, r.repo)).map((m) => m.content).sort()
    let refusedCount = 0
    for (const at of flipped(data)) {
      const bytes = Buffer.from(data)
      bytes[at] = bytes[at] ^ 0x20
      const target = join(r.base, `flip-${at}`)
      mkdirSync(join(target, '.git'), {recursive: true})
      const outcome = await packImport(r.ctx, {repo: target, data: bytes}).catch((e: unknown) => e)
      if (outcome instanceof MemError) {
        expect(outcome.code).toBe('invalid_input')
        expect(await allLive(r.ctx, target)).toEqual([])
        refusedCount++
      } else {
        expect((await allLive(r.ctx, target)).map((m) => m.content).sort()).toEqual(reference)
      }
    }
    expect(refusedCount).toBeGreaterThan(5)
  }, 90_000)

  it('refuses a truncated pack, a non-SQLite file, a foreign SQLite file and bad base64', async () => {
    const r = memRepo()
    await seed(r.ctx, r.repo)
    const {data} = await packExport(r.ctx, {repo: r.repo})
    const target = otherRepo(r)
    await refused(packImport(r.ctx, {repo: target, data: data.subarray(0, data.length - 1024)}), 'invalid_input', /truncated/)
    await refused(packImport(r.ctx, {repo: target, data: data.subarray(0, 300)}), 'invalid_input', /not a SQLite database/)
    await refused(packImport(r.ctx, {repo: target, data: Buffer.from('# just markdown\n'.repeat(100))}), 'invalid_input', /not a SQLite database/)
    const SQL = await loadSqlJs()
    const foreign = new SQL.Database()
    foreign.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes(body) VALUES (\'hello\')')
    await refused(packImport(r.ctx, {repo: target, data: foreign.export()}), 'invalid_input', /not a mem pack/)
    foreign.close()
    await refused(packImport(r.ctx, {repo: target, data: 'this is not base64!'}), 'invalid_input', /not base64/)
    await refused(packImport(r.ctx, {repo: target, data: ''}), 'invalid_input', /empty/)
    expect(await allLive(r.ctx, target)).toEqual([])
  })

  it('refuses a pack of a newer format version with a hint to upgrade', async () => {
    const r = memRepo()
    const entries: PackEntry[] = [
      {type: 'insight', content: 'a memory from the future', oneLiner: null, tags: [], importance: 0.5, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'a'},
    ]
    const data = await writePackFile(
      {format: 'mem-pack', formatVersion: 3, packId: 'pack-1', name: 'n', version: '1', sourceRepo: 'r', createdAt: '2026-01-01T00:00:00.000Z', entryCount: 1, entriesSha256: entriesChecksum(entries)},
      entries,
    )
    const err = await refused(packImport(r.ctx, {repo: r.repo, data}), 'invalid_input', /format version 3, newer than this mem reads \(2\)/)
    expect(err.hint).toMatch(/Upgrade mem/)
    expect(await allLive(r.ctx, r.repo)).toEqual([])
  })

  it('refuses a pack whose manifest count disagrees or whose entries are invalid', async () => {
    const r = memRepo()
    const good: PackEntry = {type: 'insight', content: 'ok', oneLiner: null, tags: [], importance: 0.5, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'a'}
    const manifest = {format: 'mem-pack', formatVersion: 1, packId: 'pack-1', name: 'n', version: '1', sourceRepo: 'r', createdAt: '2026-01-01T00:00:00.000Z'}
    const miscounted = await writePackFile({...manifest, entryCount: 2, entriesSha256: entriesChecksum([good])}, [good])
    await refused(packImport(r.ctx, {repo: r.repo, data: miscounted}), 'invalid_input', /lists 2 entries, the file holds 1/)
    const bad = {...good, type: 'secret' as never, importance: 7}
    const invalid = await writePackFile({...manifest, entryCount: 1, entriesSha256: entriesChecksum([bad])}, [bad])
    await refused(packImport(r.ctx, {repo: r.repo, data: invalid}), 'invalid_input', /entry 1 has an invalid type/)
    expect(await allLive(r.ctx, r.repo)).toEqual([])
  })

  it('skips entries the secret scanner flags, and never stores them', async () => {
    const r = memRepo()
    const secret = 'deploy with AWS key AKIAIOSFODNN7EXAMPLF and secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
    const entries: PackEntry[] = [
      {type: 'procedure', content: 'deploy with `make deploy` from the main branch', oneLiner: null, tags: ['deploy'], importance: 0.6, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'a'},
      {type: 'procedure', content: secret, oneLiner: null, tags: [], importance: 0.6, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'b'},
      {type: 'insight', content: 'the one-liner hides a token', oneLiner: 'token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB', tags: [], importance: 0.6, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'c'},
    ]
    const data = await writePackFile(
      {format: 'mem-pack', formatVersion: 1, packId: 'pack-1', name: 'n', version: '1', sourceRepo: 'r', createdAt: '2026-01-01T00:00:00.000Z', entryCount: 3, entriesSha256: entriesChecksum(entries)},
      entries,
    )
    const result = await packImport(r.ctx, {repo: r.repo, data})
    expect(result).toMatchObject({imported: 1, skipped: 2})
    const live = await allLive(r.ctx, r.repo)
    expect(live.map((m) => m.content)).toEqual(['deploy with `make deploy` from the main branch'])
  })

  it('writes the import durably: a new process sees it', async () => {
    const r = memRepo()
    await seed(r.ctx, r.repo)
    const {data} = await packExport(r.ctx, {repo: r.repo})
    const target = otherRepo(r)
    await packImport(r.ctx, {repo: target, data})
    await r.ctx.close()
    const fresh = openMem({home: r.home, cwd: r.root, now: r.clock})
    onTestFinished(() => fresh.close())
    expect((await allLive(fresh, target)).length).toBe(4)
  })
})

describe('hostile packs (issue 19)', () => {
  it('the hostile packs are built on a pack that imports: only their trick can make them fail', async () => {
    const r = memRepo()
    const data = plainPack(await loadSqlJs(), entriesChecksum)
    expect(await packImport(r.ctx, {repo: r.repo, data})).toMatchObject({imported: 1, skipped: 0})
  })

  it.each(Object.keys(HOSTILE_PACKS))('refuses %s with a 400 naming the problem, and writes nothing', async (name) => {
    const r = memRepo()
    const {expect: message, build} = HOSTILE_PACKS[name as keyof typeof HOSTILE_PACKS]
    const data = build(await loadSqlJs(), entriesChecksum)
    const err = await refused(packImport(r.ctx, {repo: r.repo, data}), 'invalid_input', message)
    expect(err.hint).toMatch(/^Nothing was imported\./)
    expect(await allLive(r.ctx, r.repo)).toEqual([])
    expect((await stats(r.ctx, {repo: r.repo})).total).toBe(0)
  })

  it('refuses the 344 KB pack whose 5,000 contents are computed 2 MB strings from its layout alone', async () => {
    const r = memRepo()
    const data = HOSTILE_PACKS['generated-virtual-5000'].build(await loadSqlJs(), entriesChecksum)
    expect(data.length).toBeLessThan(350_000)
    // reading the rows would build 10 GB of strings; the refusal names the column instead
    await refused(packImport(r.ctx, {repo: r.repo, data}), 'invalid_input', /column "content" of table entries is generated \(GENERATED ALWAYS AS …\)/)
    // and the same context goes on importing good packs
    expect(await packImport(r.ctx, {repo: r.repo, data: plainPack(await loadSqlJs(), entriesChecksum)})).toMatchObject({imported: 1})
  })

  it('refuses a pack holding more text than the budget with a 413, before any entry is read', async () => {
    const r = memRepo()
    const data = BENCH_ONLY_PACKS['text-over-budget'].build(await loadSqlJs(), entriesChecksum)
    const err = await refused(packImport(r.ctx, {repo: r.repo, data}), 'payload_too_large', /The pack holds 50,712,493 bytes of text; mem reads at most 50,331,648 from one pack/)
    expect(MAX_PACK_TEXT_BYTES).toBe(50_331_648)
    expect(err.hint).toMatch(/Split the memories/)
    expect((await stats(r.ctx, {repo: r.repo})).total).toBe(0)
  })

  it('reports a changed pack as changed even where the change also broke an entry', async () => {
    const r = memRepo()
    const good: PackEntry = {type: 'insight', content: 'the build cache lives in .turbo', oneLiner: null, tags: [], importance: 0.5, source: 'x', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'a'}
    const broken = {...good, type: 'secret' as never}
    const manifest = {format: 'mem-pack', formatVersion: 1, packId: 'pack-1', name: 'n', version: '1', sourceRepo: 'r', createdAt: '2026-01-01T00:00:00.000Z', entryCount: 1}
    // the checksum of the good entry over a broken one: changed after export
    const data = await writePackFile({...manifest, entriesSha256: entriesChecksum([good])}, [broken])
    await refused(packImport(r.ctx, {repo: r.repo, data}), 'invalid_input', /do not match the manifest checksum/)
  })
})

describe('the default pack name', () => {
  it('is the folder name people know, never starting with - and only what a pack name may hold', async () => {
    const {packName} = await import('../../../src/operations/pack-export.js')
    expect(packName('/tmp/ux/proj', '-tmp-ux-proj')).toBe('proj')
    expect(packName('/home/me/src/my app (old)', '-home-me-src-my app (old)')).toBe('my-app-old')
    expect(packName('/home/me/.config/mem/repos/C--proj', 'C--proj')).toBe('C--proj')
    // a repository with no folder of its own (MEM_HOME/repos/<id>): its id, without the leading dashes
    expect(packName('/home/me/.config/mem/repos/-tmp-ux-proj', '-tmp-ux-proj')).toBe('tmp-ux-proj')
    expect(packName('/x/.hidden', '-x--hidden')).toBe('hidden')
    expect(packName('/', '---')).toBe('memories')
  })

  it('a default export from a folder whose id starts with - is named after the folder', async () => {
    const r = memRepo()
    await seed(r.ctx, r.repo)
    const out = await packExport(r.ctx, {repo: r.repo})
    expect(out.manifest.sourceRepo.startsWith('-')).toBe(true)
    expect(out.manifest.name).toBe(basename(r.root))
    expect(out.fileName).toBe(`${basename(r.root)}.mem`)
    expect(out.fileName.startsWith('-')).toBe(false)
  })
})
