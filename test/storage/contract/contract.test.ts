// The storage contract: one suite of behaviour, written once and run against both stores
// (test/helpers/team-fixture.ts): (a) the local file store, sql.js under the repo's .mem/, and (b)
// team mode, a team repo in Postgres kept by replicas. Each test gets two handles on the one store
// (two local `mem serve`s with their own RepoStore on the same folder; two `mem serve --store`
// replicas on one database) and writes through one, reads through the other. A store that answers
// differently fails here: nothing is skipped for either (under CI=true the team half needs the
// Postgres .ci/run starts, and fails without it).
import {describe, expect, it} from 'vitest'
import {MemApiError, type MemClient, type StoreOutcome} from '../../../src/client/index.js'
import type {JournalRecord} from '../../../src/storage/memories.js'
import {fixedClock} from '../../helpers/mem.js'
import {eventually} from '../../helpers/server.js'
import {contractStore, STORE_KINDS, type ContractStore} from '../../helpers/team-fixture.js'

/** The id of a store that must have succeeded. */
function id(outcome: StoreOutcome): string {
  if (!outcome.success || !outcome.id) throw new Error(`expected stored, got ${JSON.stringify(outcome)}`)
  return outcome.id
}

/** The MemApiError `p` must fail with (status and code checked). */
async function refused(p: Promise<unknown>, status: number, code: string): Promise<MemApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err, `expected ${status} ${code}`).toBeInstanceOf(MemApiError)
  expect([(err as MemApiError).status, (err as MemApiError).code]).toEqual([status, code])
  return err as MemApiError
}

/**
 * The log's writes: every record but the recall counters (touch), which a recall queues and the
 * store writes on its own within a second, whenever that falls.
 */
function writes(log: JournalRecord[]): JournalRecord[] {
  return log.filter((r) => r.ops.some((op) => op.op !== 'touch'))
}

/** The ids the log's records insert, in log order (a memory inserted twice appears twice). */
function inserted(log: JournalRecord[]): string[] {
  return log.flatMap((r) => r.ops.flatMap((op) => (op.op === 'insert' ? [op.memory.id] : [])))
}

const MINUTE = 60_000

describe.each(STORE_KINDS)('the storage contract: %s store', (kind) => {
  /** Stores `content` through `via`, the clock a minute on first (every memory its own time). */
  const put = async (s: ContractStore, via: MemClient, content: string, extra: {type?: string; tags?: string[]; importance?: number; supersedes?: string} = {}) => {
    s.clock.advance(MINUTE)
    return via.store({repo: s.repo, type: (extra.type ?? 'insight') as 'insight', content, ...(extra.tags ? {tags: extra.tags} : {}), ...(extra.importance !== undefined ? {importance: extra.importance} : {}), ...(extra.supersedes ? {supersedes: extra.supersedes} : {})})
  }

  it('store, then get through the other handle: every field as stored; an id of the documented shape', async () => {
    const s = await contractStore(kind)
    const stored = await put(s, s.a, 'Run npm run db:migrate before starting the API server locally', {type: 'procedure', tags: ['db', 'setup'], importance: 0.8})
    const memId = id(stored)
    expect(memId).toMatch(/^memories\/[^/]+\/procedure\/[0-9a-f]{12}$/)
    const got = await s.b.get(memId)
    expect(got).toMatchObject({
      id: memId,
      type: 'procedure',
      content: 'Run npm run db:migrate before starting the API server locally',
      tags: ['db', 'setup'],
      importance: 0.8,
      createdAt: s.clock().toISOString(),
      forgottenAt: null,
      supersedes: null,
      supersededBy: null,
      usedCount: 0,
      unusedCount: 0,
    })
    // both handles answer the same memory, field for field
    expect(await s.a.get(memId)).toEqual(got)
    expect(inserted(await s.log())).toEqual([memId])
    expect(s.internalErrors).toEqual([])
  })

  it('a duplicate, a secret and bad input are refused, each with its answer, and the log gains nothing', async () => {
    const s = await contractStore(kind)
    const first = id(await put(s, s.a, 'The billing service retries webhooks three times with backoff'))
    const before = writes(await s.log())

    const again = await put(s, s.b, 'The billing service retries webhooks three times with backoff')
    expect(again).toMatchObject({success: false, duplicateId: first, reason: 'duplicate'})
    const secret = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
    const rejected = await put(s, s.a, `Deploy with the token ${secret} from the vault`)
    expect(rejected.success).toBe(false)
    expect(rejected.error).toMatch(/secret|token|credential/i)
    expect(rejected.error).not.toContain(secret)
    // bad input: a 400 naming what is wrong
    const badType = await refused(s.a.store({repo: s.repo, type: 'nope' as 'insight', content: 'A memory of a type that does not exist'}), 400, 'invalid_input')
    expect(badType.message).toMatch(/type/)
    await refused(s.b.store({repo: s.repo, type: 'insight', content: ''}), 400, 'invalid_input')
    await refused(s.a.store({repo: s.repo, type: 'insight', content: 'Importance past one is refused', importance: 7}), 400, 'invalid_input')

    const after = writes(await s.log())
    expect(after).toEqual(before)
    expect(JSON.stringify(after)).not.toContain(secret)
    expect((await s.b.stats(s.repo)).total).toBe(1)
  })

  it('text either store could not keep is refused or stored the same: a NUL in a tag, the source or a forget reason is a 422 and the log gains nothing; a lone surrogate is stored as U+FFFD; other Unicode as given', async () => {
    const s = await contractStore(kind)
    const m = id(await put(s, s.a, 'The build cache lives in the shared volume of the runner'))
    const before = writes(await s.log())
    const tagged = await put(s, s.b, 'Tagged with a NUL character in one of its tags', {tags: ['ok', 'bad\u0000tag']})
    expect(tagged).toMatchObject({success: false})
    expect(tagged.error).toMatch(/^Rejected: a tag holds a NUL character .*rule nul-character/)
    const sourced = await s.a.store({repo: s.repo, type: 'insight', content: 'Stored with a NUL character in its source', source: 'ci\u0000runner'})
    expect(sourced.error).toMatch(/^Rejected: source holds a NUL character/)
    const content = await put(s, s.a, 'A NUL character \u0000 inside the content itself')
    expect(content.error).toMatch(/control characters/)
    const reason = await refused(s.b.forget(m, 'moved \u0000 elsewhere'), 422, 'unprocessable')
    expect(reason.message).toMatch(/^The reason was not stored\. Rejected: the reason holds a NUL character/)
    const edit = await s.a.edit(m, {tags: ['nul\u0000here']})
    expect(edit.error).toMatch(/a tag holds a NUL character/)
    expect(writes(await s.log())).toEqual(before)
    expect((await s.b.get(m)).forgottenAt).toBeNull()

    // half of a character (text cut inside a surrogate pair): one U+FFFD in both stores
    const cut = id(await put(s, s.b, 'Cut text \ud83d in the note about the release runner'))
    expect((await s.a.get(cut)).content).toBe('Cut text \ufffd in the note about the release runner')
    const forgotten = await s.a.forget(cut, 'cut \udc00 reason')
    expect(forgotten).toBe(true)
    expect((await s.b.get(cut)).forgetReason).toBe('cut \ufffd reason')
    for (const text of ['Emoji 🚀 and Hebrew שלום in the note about the deploy', 'Tabs\tand CRLF\r\nin the note about the deploy', 'A literal backslash-u \\u0000 in the note about the deploy']) {
      const stored = id(await put(s, s.a, text))
      expect((await s.b.get(stored)).content).toBe(text)
    }
    expect(s.internalErrors).toEqual([])
  })

  it('edits: tags and importance in place; new content makes a new version whose chain history gives from either version', async () => {
    const s = await contractStore(kind)
    const v1 = id(await put(s, s.a, 'The API listens on port 3000 in development', {tags: ['api']}))
    s.clock.advance(MINUTE)
    const inPlace = await s.b.edit(v1, {tags: ['api', 'ports'], importance: 0.9})
    expect(inPlace).toMatchObject({success: true, id: v1, superseded: null})
    expect(await s.a.get(v1)).toMatchObject({tags: ['api', 'ports'], importance: 0.9, content: 'The API listens on port 3000 in development'})

    s.clock.advance(MINUTE)
    const edited = await s.a.edit(v1, {content: 'The API listens on port 4000 in development'})
    expect(edited.success).toBe(true)
    const v2 = edited.id!
    expect(v2).not.toBe(v1)
    expect(edited.superseded).toBe(v1)
    expect(await s.b.get(v1)).toMatchObject({supersededBy: v2})
    expect(await s.b.get(v2)).toMatchObject({supersedes: v1, content: 'The API listens on port 4000 in development'})

    // a store naming what it supersedes extends the chain
    const v3 = id(await put(s, s.b, 'The API listens on port 5000 in development', {supersedes: v2}))
    const chain = await s.a.history(v1)
    expect(chain.map((c) => c.id)).toEqual([v3, v2, v1])
    expect(await s.b.history(v3)).toEqual(chain)
    // recall gives the newest version only
    const hits = await s.a.recall(s.repo, 'API port development')
    expect(hits.map((h) => h.id)).toEqual([v3])
    expect((await s.b.stats(s.repo)).total).toBe(1)

    // an edit of an unknown id is a 404; of a superseded version, refused; nothing is written by either
    const before = writes(await s.log())
    const unknown = v1.replace(/[0-9a-f]{12}$/, '0'.repeat(12))
    await refused(s.a.edit(unknown, {tags: ['x']}), 404, 'not_found')
    const onOld = await refused(s.b.edit(v1, {content: 'The API listens on port 6000 in development'}), 409, 'conflict')
    expect(onOld.message).toContain(`superseded by ${v2}`)
    // the hint names the newest version, the end of the chain, not the next one
    expect((onOld.body as {hint?: string}).hint).toBe(`Edit the newest version, ${v3}.`)
    expect(writes(await s.log())).toEqual(before)
  })

  it('forget: the memory stays readable with its reason, leaves recall, stats and context; forgetting it again answers false; an unknown id 404', async () => {
    const s = await contractStore(kind)
    const keep = id(await put(s, s.a, 'Feature flags live in config/flags.yaml and are read at boot'))
    const gone = id(await put(s, s.a, 'Feature flags used to be read from the environment at boot'))
    s.clock.advance(MINUTE)
    expect(await s.b.forget(gone, 'moved to the flags file')).toBe(true)
    expect(await s.a.get(gone)).toMatchObject({forgottenAt: s.clock().toISOString(), forgetReason: 'moved to the flags file'})
    expect((await s.a.recall(s.repo, 'feature flags boot')).map((h) => h.id)).toEqual([keep])
    expect((await s.b.stats(s.repo)).total).toBe(1)
    expect(await s.a.context(s.repo)).not.toContain('environment at boot')
    const before = writes(await s.log())
    expect(await s.a.forget(gone)).toBe(false)
    await refused(s.b.forget(gone.replace(/[0-9a-f]{12}$/, 'f'.repeat(12))), 404, 'not_found')
    expect(writes(await s.log())).toEqual(before)
  })

  it('feedback counters are exact with reports racing through both handles; feedback on a forgotten memory applies nothing', async () => {
    const s = await contractStore(kind)
    const m = id(await put(s, s.a, 'Integration tests need the docker compose stack running first'))
    const reports = Array.from({length: 24}, (_, i) => ({via: i % 2 ? s.a : s.b, used: i % 3 !== 0}))
    const applied = await Promise.all(reports.map((r) => r.via.feedback(m, r.used)))
    expect(applied.every(Boolean)).toBe(true)
    const used = reports.filter((r) => r.used).length
    for (const via of [s.a, s.b]) expect(await via.get(m)).toMatchObject({usedCount: used, unusedCount: 24 - used})
    expect(used).toBe(16)

    await s.a.forget(m)
    expect(await s.b.feedback(m, true)).toBe(false)
    expect(await s.a.get(m)).toMatchObject({usedCount: 16, unusedCount: 8})
    await refused(s.a.feedback(m.replace(/[0-9a-f]{12}$/, '1'.repeat(12)), true), 404, 'not_found')
  })

  it('links between memories: made through one handle, seen through the other (get and graph), removed once', async () => {
    const s = await contractStore(kind)
    const cause = id(await put(s, s.a, 'The staging deploy failed because the migration locked the users table'))
    const fix = id(await put(s, s.b, 'Run long migrations with lock_timeout set to five seconds', {type: 'procedure'}))
    expect(await s.a.linkMemory(fix, cause, 'fixes')).toBe(true)
    expect((await s.b.get(fix)).links).toEqual([{targetId: cause, relation: 'fixes'}])
    const graph = await s.b.graph(s.repo)
    expect(graph.nodes.map((n) => n.id).sort()).toEqual([cause, fix].sort())
    expect(graph.edges).toContainEqual({from: fix, to: cause, relation: 'fixes'})
    expect(await s.b.unlinkMemory(fix, cause)).toBe(true)
    expect((await s.a.get(fix)).links).toEqual([])
    expect(await s.a.unlinkMemory(fix, cause)).toBe(false)
    await refused(s.a.linkMemory(fix, fix.replace(/[0-9a-f]{12}$/, '2'.repeat(12))), 404, 'not_found')
  })

  it('stats count live memories by type; recall ranks the same through both handles; context lists what is stored', async () => {
    const s = await contractStore(kind)
    const contents: Array<[string, string]> = [
      ['procedure', 'Release: tag the commit, then run make publish from a clean checkout'],
      ['procedure', 'Rotate the staging database password every quarter with the vault script'],
      ['insight', 'The release job fails when the changelog has no entry for the version'],
      ['heuristic', 'Prefer small pull requests: reviews of large ones miss the release notes'],
      ['observation', 'Flaky test: the websocket reconnect spec times out on slow runners'],
      ['observation', 'The nightly release build takes forty minutes on the shared runners'],
    ]
    for (const [i, [type, content]] of contents.entries()) id(await put(s, i % 2 ? s.a : s.b, content, {type}))
    for (const via of [s.a, s.b]) {
      const stats = await via.stats(s.repo)
      expect(stats.counts).toEqual({observation: 2, insight: 1, procedure: 2, heuristic: 1})
      expect(stats.total).toBe(6)
    }
    const fromA = await s.a.recall(s.repo, 'release', 10)
    const fromB = await s.b.recall(s.repo, 'release', 10)
    expect(fromA.map((h) => h.content)).toEqual(
      expect.arrayContaining(contents.filter(([, c]) => /release/i.test(c)).map(([, c]) => c)),
    )
    expect(fromA.length).toBe(4)
    expect(fromB.map((h) => [h.id, h.score])).toEqual(fromA.map((h) => [h.id, h.score]))
    expect(fromA.map((h) => h.score)).toEqual([...fromA.map((h) => h.score)].sort((x, y) => y - x))
    // a type filter and a question no memory answers
    expect((await s.b.recall(s.repo, 'release', 10, 'procedure')).map((h) => h.content)).toEqual([contents[0][1]])
    expect(await s.a.recall(s.repo, 'kubernetes helm chart')).toEqual([])
    const context = await s.b.context(s.repo)
    expect(context).toContain('make publish')
  })

  it('export: the markdown export holds every live memory; a pack exported from one repo and imported into another through the other handle gives the same memories', async () => {
    const s = await contractStore(kind)
    const live = ['Use pnpm, never npm, in this monorepo', 'Cache keys include the lockfile hash', 'The CI matrix runs Node 20 and 22 only']
    for (const content of live) id(await put(s, s.a, content, {tags: ['ci']}))
    const forgotten = id(await put(s, s.a, 'The CI matrix used to run Node 18 as well'))
    await s.b.forget(forgotten)
    const markdown = await s.b.exportMarkdown(s.repo)
    for (const content of live) expect(markdown).toContain(content)
    expect(markdown).not.toContain('Node 18 as well')

    const pack = await s.a.packExport(s.repo, {name: 'contract', version: '1.0.0'})
    expect(pack.byteLength).toBeGreaterThan(0)
    const imported = await s.b.packImport(s.otherRepo, pack)
    expect(imported).toMatchObject({imported: 3})
    const page = await s.a.browse(s.otherRepo, 0, 50)
    expect(page.entries.map((e) => e.content).sort()).toEqual([...live].sort())
    for (const e of page.entries) expect(e.tags).toEqual(['ci'])
    // importing it again adds nothing (duplicates)
    const twice = await s.a.packImport(s.otherRepo, pack)
    expect(twice).toMatchObject({imported: 0})
    expect((await s.b.stats(s.otherRepo)).total).toBe(3)
    // a pack whose header is damaged is refused, and the repo is as it was
    const damaged = new Uint8Array(pack)
    damaged[0] ^= 0xff
    await refused(s.b.packImport(s.otherRepo, damaged), 400, 'invalid_input')
    expect((await s.a.stats(s.otherRepo)).total).toBe(3)
  })

  it('concurrent writers through both handles: every acknowledged store is readable through both, once in the log, none lost', async () => {
    const s = await contractStore(kind)
    const n = 40
    const outcomes = await Promise.all(
      Array.from({length: n}, (_, i) => (i % 2 ? s.a : s.b).store({repo: s.repo, type: 'observation', content: `Concurrent note ${i}: the worker pool ${i} drains queue q${i * 7} before shutdown`})),
    )
    const ids = outcomes.map(id)
    expect(new Set(ids).size).toBe(n)
    for (const via of [s.a, s.b]) expect((await via.stats(s.repo)).total).toBe(n)
    const got = await Promise.all(ids.map((m, i) => (i % 2 ? s.b : s.a).get(m)))
    got.forEach((g, i) => expect(g.content).toBe(`Concurrent note ${i}: the worker pool ${i} drains queue q${i * 7} before shutdown`))
    // each acknowledged store is one insert in the log (team: seqs 1..n checked by log())
    const log = inserted(await s.log())
    expect([...log].sort()).toEqual([...ids].sort())
    expect(s.internalErrors).toEqual([])
  })

  it('racing writers of one subject: the same text stored through both handles at once is stored once; two content edits of one version make one new version and one 409', async () => {
    const s = await contractStore(kind)
    const text = 'The payments service reads its secrets from the sealed config map'
    const twins = await Promise.all([s.a, s.b, s.a, s.b].map((via) => via.store({repo: s.repo, type: 'insight', content: text})))
    const stored = twins.filter((t) => t.success)
    expect(stored.length).toBe(1)
    for (const t of twins.filter((t) => !t.success)) expect(t).toMatchObject({duplicateId: stored[0].id, reason: 'duplicate'})
    expect(inserted(await s.log())).toEqual([stored[0].id])

    const base = stored[0].id!
    const edits = await Promise.all(
      [s.a, s.b].map((via, i) =>
        via.edit(base, {content: `The payments service reads its secrets from vault path ${i === 0 ? 'alpha' : 'beta'}`}).then(
          (r) => r,
          (e: unknown) => e,
        ),
      ),
    )
    const won = edits.filter((e): e is {success: boolean; id?: string} => !(e instanceof Error) && (e as {success: boolean}).success)
    const lost = edits.filter((e) => e instanceof MemApiError)
    expect([won.length, lost.length]).toEqual([1, 1])
    expect([(lost[0] as MemApiError).status, (lost[0] as MemApiError).code]).toEqual([409, 'conflict'])
    expect((await s.b.history(base)).map((c) => c.id)).toEqual([won[0].id, base])
    expect((await s.a.stats(s.repo)).total).toBe(1)
  })

  it('recall counters: each recall through either handle is counted once on the memories it returned, and both handles read the same counts', async () => {
    const s = await contractStore(kind)
    const hit = id(await put(s, s.a, 'Docker builds cache the node_modules layer keyed on the lockfile'))
    const miss = id(await put(s, s.b, 'The marketing site deploys from the website repository'))
    s.clock.advance(MINUTE)
    for (const via of [s.a, s.b, s.b]) expect((await via.recall(s.repo, 'docker lockfile layer')).map((h) => h.id)).toEqual([hit])
    // the counters are written in the background (within a second, coalesced): wait for all three
    await eventually(async () => (await s.a.get(hit)).accessCount === 3 && (await s.b.get(hit)).accessCount === 3)
    for (const via of [s.a, s.b]) {
      expect(await via.get(hit)).toMatchObject({accessCount: 3, lastAccessedAt: s.clock().toISOString()})
      expect(await via.get(miss)).toMatchObject({accessCount: 0, lastAccessedAt: null})
    }
  })

  it('read-your-writes across handles: each write is seen by the next read through the other handle', async () => {
    const s = await contractStore(kind)
    let previous: string | undefined
    for (let i = 0; i < 8; i++) {
      const [w, r] = i % 2 ? [s.a, s.b] : [s.b, s.a]
      const m = id(await put(s, w, `Round ${i}: the cache warmer for region r${i} runs every ${i + 2} minutes`))
      expect((await r.get(m)).content).toContain(`region r${i}`)
      expect((await r.recall(s.repo, `cache warmer region r${i}`, 1)).map((h) => h.id)).toEqual([m])
      expect((await r.stats(s.repo)).total).toBe(i + 1)
      if (previous) {
        await r.feedback(previous, true)
        expect((await w.get(previous)).usedCount).toBe(1)
        await w.edit(previous, {tags: [`round-${i}`]})
        expect((await r.get(previous)).tags).toEqual([`round-${i}`])
      }
      previous = m
    }
  })
})

describe('the storage contract: the same calls through both stores give the same answers', () => {
  /** The repo's names in an answer (its folder or team id, and its id segment) as `<repo>`, so the two stores' answers compare. */
  const normalized = (s: ContractStore, value: unknown, segment: string): unknown =>
    JSON.parse(JSON.stringify(value).replaceAll(JSON.stringify(s.repo).slice(1, -1), '<repo>').replaceAll(segment, '<repo>'))

  /** One script of writes (through both handles) and every read, answered by `s`. */
  async function script(s: ContractStore): Promise<unknown> {
    const via = (i: number) => (i % 2 ? s.b : s.a)
    const ids: string[] = []
    const notes: Array<[string, string, string[], number]> = [
      ['procedure', 'Run the database migrations with make migrate before the API starts', ['db', 'setup'], 0.8],
      ['insight', 'The API container needs 2 GB of memory or the migrations run out of it', ['db', 'memory'], 0.6],
      ['heuristic', 'Prefer feature flags over long-lived branches for risky changes', ['flags'], 0.5],
      ['observation', 'The flaky login test fails when the clock crosses midnight UTC', ['tests', 'flaky'], 0.4],
      ['procedure', 'Release: bump the version, tag it, and push the tag to trigger the publish job', ['release'], 0.9],
      ['insight', 'The publish job reads the npm token from the CI secret store, never from the repo', ['release', 'ci'], 0.7],
    ]
    for (const [i, [type, content, tags, importance]] of notes.entries()) {
      s.clock.advance(MINUTE)
      ids.push(id(await via(i).store({repo: s.repo, type: type as 'insight', content, tags, importance})))
    }
    s.clock.advance(MINUTE)
    const edited = await s.b.edit(ids[1], {content: 'The API container needs 4 GB of memory or the migrations run out of it'})
    s.clock.advance(MINUTE)
    await s.a.edit(ids[2], {tags: ['flags', 'branches'], importance: 0.65})
    s.clock.advance(MINUTE)
    await s.b.forget(ids[3], 'fixed by pinning the clock in the test')
    for (const [i, used] of [true, true, false, true].entries()) await via(i).feedback(ids[0], used)
    await s.a.feedback(ids[4], false)
    await s.b.linkMemory(ids[5], ids[4], 'part-of')
    s.clock.advance(60 * MINUTE)
    const reads: Record<string, unknown> = {edited}
    reads.gets = await Promise.all([...ids, edited.id!].map((m) => s.a.get(m)))
    for (const q of ['migrations memory', 'release publish', 'feature flags', 'flaky login test', 'npm token ci']) reads[`recall ${q}`] = await s.b.recall(s.repo, q, 10)
    reads.recallType = await s.a.recall(s.repo, 'release', 10, 'procedure')
    reads.stats = await s.a.stats(s.repo)
    reads.browse = [await s.b.browse(s.repo, 0, 3), await s.b.browse(s.repo, 3, 3), await s.a.browse(s.repo, 0, 10, 'insight')]
    reads.context = await s.a.context(s.repo)
    reads.preview = await s.b.contextPreview(s.repo, 300)
    reads.history = await s.a.history(edited.id!)
    reads.graph = await s.b.graph(s.repo)
    reads.quality = await s.a.quality(s.repo)
    reads.markdown = await s.b.exportMarkdown(s.repo)
    return normalized(s, reads, ids[0].split('/')[1])
  }

  it('a script of stores, edits, a forget, feedback and a link, then every read: get, recall, stats, browse, context, preview, history, graph, quality, export', async () => {
    const clock = () => fixedClock('2026-03-01T12:00:00.000Z')
    const file = await script(await contractStore('file', {clock: clock()}))
    const team = await script(await contractStore('team', {clock: clock()}))
    expect(team).toEqual(file)
  })
})
