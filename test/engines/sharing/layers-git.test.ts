import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {MemError} from '../../../src/model/errors.js'
import {contextPreview, context} from '../../../src/operations/session-context.js'
import {edit} from '../../../src/operations/edit.js'
import {forget} from '../../../src/operations/forget.js'
import {get} from '../../../src/operations/get.js'
import {linkMemory} from '../../../src/operations/links.js'
import {listLayers, mountLayer, syncLayer, unmountLayer} from '../../../src/operations/layers.js'
import {packExport} from '../../../src/operations/pack-export.js'
import {recall} from '../../../src/operations/recall.js'
import {store} from '../../../src/operations/store.js'
import {entriesChecksum, type PackEntry, writePackFile} from '../../../src/storage/pack-file.js'
import {memRepo, storedId, refused} from '../../helpers/mem.js'
import {loadSqlJs} from '../../../src/storage/sqljs.js'
import {HOSTILE_PACKS} from '../../helpers/hostile-packs.mjs'

const GIT_ID = ['-c', 'user.name=mem test', '-c', 'user.email=mem@example.invalid', '-c', 'commit.gpgsign=false']

async function git(cwd: string, ...args: string[]) {
  return execa('git', [...GIT_ID, ...args], {cwd})
}

/**
 * Three places: `team` (the repo whose memories are shared), `remote` (a git repository holding
 * the team's pack, acting as the shared remote) and the test's own repo that mounts it.
 */
async function setup() {
  const r = memRepo()
  const team = join(r.base, 'team')
  const remote = join(r.base, 'remote')
  mkdirSync(join(team, '.git'), {recursive: true})
  mkdirSync(remote, {recursive: true})
  await git(remote, 'init', '--quiet', '--initial-branch=main')
  const publish = async (message: string) => {
    const {data} = await packExport(r.ctx, {repo: team, name: 'team'})
    mkdirSync(join(remote, 'packs'), {recursive: true})
    writeFileSync(join(remote, 'packs', 'team.mem'), data)
    await git(remote, 'add', '-A')
    await git(remote, 'commit', '--quiet', '-m', message)
  }
  return {...r, team, remote, publish}
}

describe('shared layers synced through git', () => {
  it('mounts a git remote, syncs it, recall sees it weighted 0.8, and a second sync reports changes', async () => {
    const {ctx, repo, root, team, remote, publish} = await setup()
    const deploy = storedId(await store(ctx, {repo: team, content: 'deploys go through the release train every Tuesday', type: 'procedure', importance: 0.7}))
    const flaky = storedId(await store(ctx, {repo: team, content: 'the payments sandbox is flaky before 9am UTC', type: 'observation'}))
    storedId(await store(ctx, {repo: team, content: 'prefer feature flags over long-lived branches', type: 'heuristic', importance: 0.8}))
    await publish('first pack')
    // the local repo's own memory about deploys
    storedId(await store(ctx, {repo, content: 'deploys of this service need the VPN', type: 'insight'}))

    const layer = await mountLayer(ctx, {repo, layerId: 'team', type: 'shared', source: remote})
    expect(layer).toEqual({id: 'team', name: 'team', type: 'shared', source: remote, mountedAt: expect.any(String), lastSyncAt: null, memoryCount: 0})
    // mounted but not synced: nothing from it yet
    expect((await recall(ctx, {repo, q: 'release train'})).results.filter((h) => h.repoId === 'layer-team')).toEqual([])

    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 3, updated: 0, removed: 0})
    expect(existsSync(join(root, '.mem', 'layers', 'team', 'checkout', '.git'))).toBe(true)
    expect(readFileSync(join(root, '.mem', 'layers', '.gitignore'), 'utf8')).toMatch(/^\*$/m)
    const listed = await listLayers(ctx, {repo})
    expect(listed.layers.map((l) => [l.id, l.type, l.memoryCount])).toEqual([
      ['local', 'local', 1],
      ['team', 'shared', 3],
    ])
    expect(listed.layers[1].lastSyncAt).not.toBeNull()

    const fromTeam = (await recall(ctx, {repo: team, q: 'release train deploys'})).results[0]
    const mixed = (await recall(ctx, {repo, q: 'release train deploys'})).results
    const layered = mixed.find((h) => h.content === fromTeam.content)!
    expect(layered.repoId).toBe('layer-team')
    expect(layered.score).toBeCloseTo(fromTeam.score * 0.8, 3)
    expect(mixed.map((h) => h.content)).toContain('deploys of this service need the VPN')
    // a layer hit reads by id through the repo that mounts it, and stays read-only
    expect(await get(ctx, {id: layered.id, repo})).toMatchObject({id: layered.id, repoId: 'layer-team', content: fromTeam.content})
    const local = mixed.find((h) => h.repoId !== 'layer-team')!
    await refused(linkMemory(ctx, {id: layered.id, targetId: local.id, repo}), 'conflict', /read-only layer/)

    const preview = await contextPreview(ctx, {repo})
    expect(preview.layers).toEqual([{id: 'team', name: 'team', type: 'shared'}])
    expect(preview.crossRepoScope).toEqual(['team'])
    expect(preview.context).toMatch(/^\[Memory: 4 entries/)
    expect(preview.context).toContain('[H] prefer feature flags over long-lived branches')
    expect((await context(ctx, {repo})).context).toBe(preview.context)

    // the team edits one memory, forgets one and adds one; the remote gets a new commit
    await edit(ctx, {id: deploy, content: 'deploys go through the release train every Tuesday and Thursday'})
    await forget(ctx, {id: flaky})
    await store(ctx, {repo: team, content: 'staging is reset every night at 02:00 UTC', type: 'observation'})
    // an uncommitted change in the remote is not part of the layer
    writeFileSync(join(remote, 'packs', 'draft.mem'), 'not yet committed and not a pack')
    await publish('second pack')
    await execa('git', ['rm', '--quiet', '--cached', 'packs/draft.mem'], {cwd: remote})
    await git(remote, 'commit', '--quiet', '-m', 'drop the draft')
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 1, updated: 1, removed: 1})
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 0, updated: 0, removed: 0})
    const after = (await recall(ctx, {repo, q: 'release train Thursday'})).results
    expect(after.some((h) => h.content.endsWith('Tuesday and Thursday') && h.repoId === 'layer-team')).toBe(true)
    expect(after.some((h) => h.content.endsWith('every Tuesday'))).toBe(false)
    expect((await recall(ctx, {repo, q: 'payments sandbox flaky'})).results.filter((h) => h.content.includes('payments'))).toEqual([])

    // unmount: its memories and its cache go
    expect(await unmountLayer(ctx, {repo, layerId: 'team'})).toEqual({unmounted: true})
    expect(existsSync(join(root, '.mem', 'layers', 'team'))).toBe(false)
    expect((await recall(ctx, {repo, q: 'release train'})).results.every((h) => h.repoId !== 'layer-team')).toBe(true)
    expect((await listLayers(ctx, {repo})).layers.map((l) => l.id)).toEqual(['local'])
    await refused(unmountLayer(ctx, {repo, layerId: 'team'}), 'not_found', /No layer team/)
  })

  it('updates an entry whose tags and importance changed but not its text and time: same id, new metadata', async () => {
    const {ctx, repo, team, remote, publish} = await setup()
    const id = storedId(await store(ctx, {repo: team, content: 'the release notes live in CHANGELOG.md', type: 'procedure', tags: ['docs'], importance: 0.5}))
    await store(ctx, {repo: team, content: 'the api gateway retries twice on 502', type: 'observation'})
    await publish('first pack')
    await mountLayer(ctx, {repo, layerId: 'team', type: 'shared', source: remote})
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 2, updated: 0, removed: 0})
    const layerHit = async () => (await recall(ctx, {repo, q: 'release notes CHANGELOG'})).results.filter((h) => h.repoId === 'layer-team' && h.content.includes('CHANGELOG'))
    const [before] = await layerHit()
    // new tags and importance, the same text and time: the layer's new version has the id of the one it replaces
    await edit(ctx, {id, tags: ['docs', 'release'], importance: 0.9})
    await store(ctx, {repo: team, content: 'staging deploys need a green main', type: 'heuristic'})
    await publish('second pack')
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 1, updated: 1, removed: 0})
    expect((await listLayers(ctx, {repo})).layers[1].memoryCount).toBe(3)
    const after = await layerHit()
    expect(after.map((h) => ({id: h.id, tags: h.tags, importance: h.importance}))).toEqual([{id: before.id, tags: ['docs', 'release'], importance: 0.9}])
    // and it is settled: the next sync of the same packs changes nothing
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 0, updated: 0, removed: 0})
  })

  it('reports an entry whose write into the layer failed, instead of counting it as unchanged', async () => {
    const {ctx, repo, root, team, remote, publish} = await setup()
    await store(ctx, {repo: team, content: 'the release notes live in CHANGELOG.md', type: 'procedure', tags: ['docs']})
    await store(ctx, {repo: team, content: 'the api gateway retries twice on 502', type: 'observation'})
    await publish('first pack')
    await mountLayer(ctx, {repo, layerId: 'team', type: 'shared', source: remote})
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toEqual({layerId: 'team', added: 2, updated: 0, removed: 0})
    // something besides sync forgot one of the layer's memories in its store: the row stays, not
    // live, so sync sees the entry as missing, and its new version would take that row's id
    const layerStore = await ctx.storeAt(join(root, '.mem', 'layers', 'team', 'store'))
    const [gone] = (await recall(ctx, {repo, q: 'release notes CHANGELOG'})).results.filter((h) => h.repoId === 'layer-team' && h.content.includes('CHANGELOG'))
    await layerStore.write(() => ({ops: [{op: 'update', id: gone.id, set: {forgottenAt: '2026-01-02T00:00:00.000Z', forgetReason: 'by hand'}}], result: null}))
    await store(ctx, {repo: team, content: 'staging deploys need a green main', type: 'heuristic'})
    await publish('second pack')
    const result = await syncLayer(ctx, {repo, layerId: 'team'})
    expect(result).toEqual({layerId: 'team', added: 1, updated: 0, removed: 0, failed: 1, error: expect.stringMatching(/already exists/)})
    // the failed entry keeps what the layer had for it (nothing live); the rest synced
    expect((await listLayers(ctx, {repo})).layers[1].memoryCount).toBe(2)
    expect((await recall(ctx, {repo, q: 'staging deploys green main'})).results.some((h) => h.repoId === 'layer-team')).toBe(true)
  })

  it('refuses a sync when a committed pack is damaged, and keeps the layer as it was', async () => {
    const {ctx, repo, team, remote, publish} = await setup()
    await store(ctx, {repo: team, content: 'the docs site builds with astro', type: 'observation'})
    await publish('good pack')
    await mountLayer(ctx, {repo, layerId: 'team', type: 'base', source: remote})
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toMatchObject({added: 1})
    const bytes = readFileSync(join(remote, 'packs', 'team.mem'))
    writeFileSync(join(remote, 'packs', 'team.mem'), bytes.subarray(0, bytes.length - 512))
    await git(remote, 'commit', '--quiet', '-am', 'truncate it')
    await refused(syncLayer(ctx, {repo, layerId: 'team'}), 'invalid_input', /packs\/team\.mem in layer team: The pack is truncated/)
    expect((await listLayers(ctx, {repo})).layers[1].memoryCount).toBe(1)
    expect((await recall(ctx, {repo, q: 'astro docs'})).results).toHaveLength(1)
  })

  it('a hostile pack fails the sync of its layer, naming the file; other layers and the context keep working', async () => {
    const {ctx, repo, team, base, remote, publish} = await setup()
    await store(ctx, {repo: team, content: 'the monorepo uses pnpm workspaces', type: 'heuristic'})
    const good = (await packExport(ctx, {repo: team, name: 'team'})).data
    const SQL = await loadSqlJs()
    // a directory layer: a good pack, then the generated-column pack
    const dir = join(base, 'org-packs')
    mkdirSync(join(dir, 'packs'), {recursive: true})
    writeFileSync(join(dir, 'packs', 'a-team.mem'), good)
    writeFileSync(join(dir, 'packs', 'b-crafted.mem'), HOSTILE_PACKS['generated-virtual-5000'].build(SQL, entriesChecksum))
    await mountLayer(ctx, {repo, layerId: 'org', type: 'base', source: dir})
    // a git layer, synced once while its packs were good
    await publish('team pack')
    await mountLayer(ctx, {repo, layerId: 'team', type: 'shared', source: remote})
    expect(await syncLayer(ctx, {repo, layerId: 'team'})).toMatchObject({added: 1})

    const err = await refused(syncLayer(ctx, {repo, layerId: 'org'}), 'invalid_input', /^packs\/b-crafted\.mem in layer org: The file is not a mem pack as mem writes it: column "content" of table entries is generated/)
    expect(err.hint).toMatch(/The layer was left as it was\. Fix or remove that pack/)
    // a pack with a trigger committed to the git layer: that sync fails too, its memories stay
    writeFileSync(join(remote, 'packs', 'trigger.mem'), HOSTILE_PACKS.trigger.build(SQL, entriesChecksum))
    await git(remote, 'add', '-A')
    await git(remote, 'commit', '--quiet', '-m', 'a pack with a trigger')
    await refused(syncLayer(ctx, {repo, layerId: 'team'}), 'invalid_input', /^packs\/trigger\.mem in layer team: The file is not a mem pack as mem writes it: it holds a trigger "grow"/)
    expect((await listLayers(ctx, {repo})).layers.map((l) => [l.id, l.memoryCount, l.lastSyncAt !== null])).toEqual([
      ['local', 0, false],
      ['org', 0, false],
      ['team', 1, true],
    ])
    // another layer syncs, and recall and context go on reading the layers that are fine
    const fine = join(base, 'fine-packs')
    mkdirSync(fine)
    writeFileSync(join(fine, 'team.mem'), good)
    await mountLayer(ctx, {repo, layerId: 'fine', type: 'base', source: fine})
    expect(await syncLayer(ctx, {repo, layerId: 'fine'})).toEqual({layerId: 'fine', added: 1, updated: 0, removed: 0})
    // (both layers hold the same memory; recall answers it once)
    expect((await recall(ctx, {repo, q: 'pnpm workspaces'})).results[0]).toMatchObject({content: 'the monorepo uses pnpm workspaces', repoId: expect.stringMatching(/^layer-(fine|team)$/)})
    expect((await context(ctx, {repo})).context).toContain('the monorepo uses pnpm workspaces')
    // without the hostile pack the layer syncs
    rmSync(join(dir, 'packs', 'b-crafted.mem'))
    expect(await syncLayer(ctx, {repo, layerId: 'org'})).toEqual({layerId: 'org', added: 1, updated: 0, removed: 0})
  })

  it('reads a plain directory of packs in place (no git)', async () => {
    const {ctx, repo, team, base} = await setup()
    await store(ctx, {repo: team, content: 'the monorepo uses pnpm workspaces', type: 'heuristic'})
    const dir = join(base, 'packs-dir')
    mkdirSync(dir)
    writeFileSync(join(dir, 'team.mem'), (await packExport(ctx, {repo: team})).data)
    await mountLayer(ctx, {repo, layerId: 'org', type: 'base', source: dir})
    // two syncs at once: one runs, the other is told a sync is running
    const both = await Promise.allSettled([syncLayer(ctx, {repo, layerId: 'org'}), syncLayer(ctx, {repo, layerId: 'org'})])
    const ran = both.filter((r) => r.status === 'fulfilled')
    expect(ran).toHaveLength(1)
    expect((ran[0] as PromiseFulfilledResult<unknown>).value).toEqual({layerId: 'org', added: 1, updated: 0, removed: 0})
    const busy = both.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(busy.reason).toBeInstanceOf(MemError)
    expect(busy.reason.code).toBe('conflict')
    expect(await syncLayer(ctx, {repo, layerId: 'org'})).toEqual({layerId: 'org', added: 0, updated: 0, removed: 0})
    expect((await recall(ctx, {repo, q: 'pnpm workspaces'})).results[0].repoId).toBe('layer-org')
  })

  it('leaves out entries the secret scanner flags', async () => {
    const {ctx, repo, remote} = await setup()
    const entries: PackEntry[] = [
      {type: 'procedure', content: 'rotate the staging certificates every 60 days', oneLiner: null, tags: [], importance: 0.5, source: 's', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'a'},
      {type: 'procedure', content: 'ci token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB for the bot', oneLiner: null, tags: [], importance: 0.5, source: 's', createdAt: '2026-01-01T00:00:00.000Z', lineage: 'b'},
    ]
    const data = await writePackFile(
      {format: 'mem-pack', formatVersion: 1, packId: 'pack-x', name: 'crafted', version: '1', sourceRepo: 'elsewhere', createdAt: '2026-01-01T00:00:00.000Z', entryCount: 2, entriesSha256: entriesChecksum(entries)},
      entries,
    )
    writeFileSync(join(remote, 'crafted.mem'), data)
    await git(remote, 'add', '-A')
    await git(remote, 'commit', '--quiet', '-m', 'crafted')
    await mountLayer(ctx, {repo, layerId: 'crafted', type: 'shared', source: remote})
    expect(await syncLayer(ctx, {repo, layerId: 'crafted'})).toEqual({layerId: 'crafted', added: 1, updated: 0, removed: 0})
    expect((await recall(ctx, {repo, q: 'ci token bot'})).results.some((h) => h.content.includes('ghp_'))).toBe(false)
  })

  it('refuses bad sources, types and ids with clear errors', async () => {
    const {ctx, repo, base, remote, publish} = await setup()
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'shared', source: join(base, 'nowhere')}), 'invalid_input', /does not exist/)
    const plain = join(base, 'plain')
    mkdirSync(plain)
    writeFileSync(join(plain, 'README.md'), '# not packs')
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'shared', source: plain}), 'invalid_input', /neither a git repository nor a directory holding \.mem packs/)
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'shared', source: 'file:///definitely/not/a/repo.git'}), 'invalid_input', /not a git repository git can read/)
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'shared', source: 'https://user:hunter2@example.invalid/r.git'}), 'invalid_input', /password or token/)
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'team' as never, source: remote}), 'invalid_input', /type must be shared or base/)
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'local', source: remote}), 'invalid_input', /local layer/)
    await refused(mountLayer(ctx, {repo, layerId: '../escape', type: 'shared', source: remote}), 'invalid_input', /layerId/)
    await refused(mountLayer(ctx, {repo, layerId: 'x', type: 'shared', source: 'relative/path'}), 'invalid_input', /absolute path or a git URL/)
    // the spec's mount body has no source: such a layer mounts, and its sync has nothing to do
    expect(await mountLayer(ctx, {repo, layerId: 'bare', type: 'shared'})).toMatchObject({id: 'bare', source: null, memoryCount: 0})
    expect(await syncLayer(ctx, {repo, layerId: 'bare'})).toEqual({layerId: 'bare', added: 0, updated: 0, removed: 0})
    expect(await unmountLayer(ctx, {repo, layerId: 'bare'})).toEqual({unmounted: true})
    await refused(syncLayer(ctx, {repo, layerId: 'ghost'}), 'not_found', /No layer ghost/)
    // a local git repository must have packs committed; one whose packs went away refuses to sync
    await refused(mountLayer(ctx, {repo, layerId: 'empty', type: 'shared', source: remote}), 'invalid_input', /no \.mem packs committed \(it has no commits\)/)
    writeFileSync(join(remote, 'README.md'), 'no packs here')
    await git(remote, 'add', '-A')
    await git(remote, 'commit', '--quiet', '-m', 'readme')
    await refused(mountLayer(ctx, {repo, layerId: 'empty', type: 'shared', source: remote}), 'invalid_input', /no \.mem packs committed\./)
    await publish('a pack')
    await mountLayer(ctx, {repo, layerId: 'empty', type: 'shared', source: remote})
    await refused(mountLayer(ctx, {repo, layerId: 'empty', type: 'shared', source: remote}), 'conflict', /already mounted/)
    await git(remote, 'rm', '--quiet', '-r', 'packs')
    await git(remote, 'commit', '--quiet', '-m', 'no packs')
    await refused(syncLayer(ctx, {repo, layerId: 'empty'}), 'invalid_input', /no \.mem packs committed/)
    expect((await listLayers(ctx, {repo})).layers.map((l) => l.id)).toEqual(['local', 'empty'])
  })
})
