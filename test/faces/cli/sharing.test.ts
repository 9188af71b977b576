// mem pack | layers | links through the built CLI (in process: test/helpers/cli.ts), on real git repos.
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {normalizeRepoId} from '../../../src/config/paths.js'
import {runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'
import {entriesChecksum} from '../../../src/storage/pack-file.js'
import {loadSqlJs} from '../../../src/storage/sqljs.js'
import {HOSTILE_PACKS} from '../../helpers/hostile-packs.mjs'

async function gitRepo(dir: string) {
  mkdirSync(dir, {recursive: true})
  await execa('git', ['init', '--quiet'], {cwd: dir})
}

const commit = (cwd: string, message: string) =>
  execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '--quiet', '-m', message], {cwd})

describe('mem pack', () => {
  it('exports to <folder name>.mem by default, imports into another repo, keeps every memory', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const app = join(base, 'app')
    const api = join(base, 'api')
    await gitRepo(app)
    await gitRepo(api)
    const memories = [
      ['integration tests: npm run test:int, needs docker', 'procedure', 'testing,docker'],
      ['prefer small pull requests, one concern each', 'heuristic', 'review'],
      ['the cache layer hides N+1 queries in the orders page', 'insight', 'perf'],
      ['build broke on node 18 because of a top-level await', 'observation', 'ci'],
    ]
    for (const [content, type, tags] of memories) expect((await runCliInProcess(['store', content, '--type', type, '--tags', tags], {cwd: app, home})).code).toBe(0)

    const out = await runCliInProcess(['pack', 'export', '--json'], {cwd: app, home})
    expect(out.code).toBe(0)
    const exported = out.json()
    // named after the folder, so the default file is one people can type (not `-tmp-…-app.mem`)
    const file = join(app, 'app.mem')
    expect(exported).toMatchObject({file, manifest: {format: 'mem-pack', formatVersion: 1, name: 'app', entryCount: 4, sourceRepo: normalizeRepoId(app)}})
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3')

    // imported by the name as printed, relative to where the user is
    const imported = await runCliInProcess(['pack', 'import', join('..', 'app', 'app.mem'), '--json'], {cwd: api, home})
    expect(imported.code).toBe(0)
    expect(imported.json()).toEqual({imported: 4, skipped: 0, packId: exported.manifest.packId, name: exported.manifest.name, version: exported.manifest.version})
    const browse = async (cwd: string) =>
      (await runCliInProcess(['browse', '--json'], {cwd, home}))
        .json()
        .entries.map((m: {type: string; content: string; tags: string[]; importance: number}) => [m.type, m.content, m.tags, m.importance])
        .sort()
    expect(await browse(api)).toEqual(await browse(app))
    expect((await runCliInProcess(['pack', 'import', file], {cwd: api, home})).stdout).toMatch(/Imported 0 memories .* skipped 4/)

    const named = await runCliInProcess(['pack', 'export', '--out', join(base, 'team.mem'), '--name', 'team', '--pack-version', '1.0.0'], {cwd: app, home})
    expect(named.code).toBe(0)
    expect(named.stdout).toMatch(/Exported 4 memories to .*team\.mem/)
    expect(named.stdout).toMatch(/pack team 1\.0\.0/)
  })

  it('refuses damaged and missing files with exit codes and writes nothing', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const app = join(base, 'app')
    await gitRepo(app)
    await runCliInProcess(['store', 'the staging database is reset nightly', '--type', 'observation'], {cwd: app, home})
    const file = join(base, 'app.mem')
    expect((await runCliInProcess(['pack', 'export', '--out', file], {cwd: app, home})).code).toBe(0)
    const target = join(base, 'target')
    await gitRepo(target)
    const good = readFileSync(file)
    const flipped = Buffer.from(good)
    flipped[flipped.indexOf('staging')] ^= 0x04
    writeFileSync(join(base, 'flipped.mem'), flipped)
    writeFileSync(join(base, 'short.mem'), good.subarray(0, good.length - 100))
    writeFileSync(join(base, 'text.mem'), 'definitely not sqlite\n'.repeat(50))
    const SQL = await loadSqlJs()
    for (const name of ['generated-virtual-5000', 'trigger', 'virtual-table-fts4'] as const) {
      writeFileSync(join(base, `${name}.mem`), HOSTILE_PACKS[name].build(SQL, entriesChecksum))
    }
    for (const [name, pattern] of [
      ['flipped.mem', /checksum/],
      ['short.mem', /truncated/],
      ['text.mem', /not a SQLite database/],
      ['generated-virtual-5000.mem', HOSTILE_PACKS['generated-virtual-5000'].expect],
      ['trigger.mem', HOSTILE_PACKS.trigger.expect],
      ['virtual-table-fts4.mem', HOSTILE_PACKS['virtual-table-fts4'].expect],
    ] as const) {
      const r = await runCliInProcess(['pack', 'import', join(base, name)], {cwd: target, home})
      expect(r.code, name).toBe(2)
      expect(r.stderr).toMatch(pattern)
      expect(r.stderr).toMatch(/Hint: Nothing was imported/)
    }
    const missing = await runCliInProcess(['pack', 'import', join(base, 'nope.mem'), '--json'], {cwd: target, home})
    expect(missing.code).toBe(3)
    expect(missing.json()).toMatchObject({code: 'not_found'})
    expect((await runCliInProcess(['stats', '--json'], {cwd: target, home})).json().total).toBe(0)
    expect(existsSync(join(target, '.mem', 'mem.db'))).toBe(false)
  })
})

describe('mem layers and mem links', () => {
  it('mounts a git remote holding a pack, syncs, recalls from it, syncs a change, unmounts', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const app = join(base, 'app')
    const team = join(base, 'team')
    const remote = join(base, 'team-memory')
    await gitRepo(app)
    await gitRepo(team)
    await gitRepo(remote)
    await runCliInProcess(['store', 'releases are cut from main every second Wednesday', '--type', 'procedure'], {cwd: team, home})
    mkdirSync(join(remote, 'packs'))
    expect((await runCliInProcess(['pack', 'export', '--out', join(remote, 'packs', 'team.mem'), '--name', 'team'], {cwd: team, home})).code).toBe(0)
    await execa('git', ['add', '-A'], {cwd: remote})
    await commit(remote, 'team pack')

    const mount = await runCliInProcess(['layers', 'mount', 'team', '../team-memory', '--json'], {cwd: app, home})
    expect(mount.code).toBe(0)
    expect(mount.json()).toMatchObject({id: 'team', type: 'shared', source: remote, memoryCount: 0})
    expect((await runCliInProcess(['layers', 'sync', 'team', '--json'], {cwd: app, home})).json()).toEqual({layerId: 'team', added: 1, updated: 0, removed: 0})
    const recall = (await runCliInProcess(['recall', 'when are releases cut', '--json'], {cwd: app, home})).json()
    expect(recall.results[0]).toMatchObject({repoId: 'layer-team', content: 'releases are cut from main every second Wednesday'})
    const list = await runCliInProcess(['layers', 'list'], {cwd: app, home})
    expect(list.stdout).toMatch(/^local\s+local\s+0 memories/m)
    expect(list.stdout).toMatch(/^team\s+shared\s+1 memories\s+synced/m)

    await runCliInProcess(['store', 'hotfixes go straight to main with two reviews', '--type', 'heuristic'], {cwd: team, home})
    expect((await runCliInProcess(['pack', 'export', '--out', join(remote, 'packs', 'team.mem'), '--name', 'team'], {cwd: team, home})).code).toBe(0)
    await execa('git', ['add', '-A'], {cwd: remote})
    await commit(remote, 'team pack, again')
    expect((await runCliInProcess(['layers', 'sync', 'team'], {cwd: app, home})).stdout).toMatch(/Layer team: 1 added, 0 updated, 0 removed/)

    const bad = await runCliInProcess(['layers', 'mount', 'x', join(base, 'missing')], {cwd: app, home})
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/does not exist/)
    const notGit = await runCliInProcess(['layers', 'mount', 'x', team, '--json'], {cwd: app, home})
    expect(notGit.code).toBe(2)
    expect(notGit.json().error).toMatch(/has no \.mem packs committed/)
    expect((await runCliInProcess(['layers', 'sync', 'ghost'], {cwd: app, home})).code).toBe(3)
    expect((await runCliInProcess(['layers', 'mount', 'x', remote, '--type', 'local'], {cwd: app, home})).code).toBe(2)

    expect((await runCliInProcess(['layers', 'unmount', 'team', '--json'], {cwd: app, home})).json()).toEqual({unmounted: true})
    expect(existsSync(join(app, '.mem', 'layers', 'team'))).toBe(false)
  })

  it('links repos and memories; an unknown repo exits 3', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const app = join(base, 'app')
    const api = join(base, 'api')
    await gitRepo(app)
    await gitRepo(api)
    await runCliInProcess(['store', 'the API paginates with cursors, never offsets', '--type', 'insight'], {cwd: api, home})
    const unknown = await runCliInProcess(['links', 'add', 'not-a-known-repo'], {cwd: app, home})
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toMatch(/Unknown repository not-a-known-repo/)
    const added = await runCliInProcess(['links', 'add', '../api', '--note', 'the app is a client of the API', '--json'], {cwd: app, home})
    expect(added.code).toBe(0)
    expect(added.json()).toMatchObject({from: normalizeRepoId(app), to: normalizeRepoId(api), note: 'the app is a client of the API'})
    expect((await runCliInProcess(['links', 'list', '--json'], {cwd: app, home})).json().links).toHaveLength(1)
    expect((await runCliInProcess(['recall', 'cursor pagination', '--json'], {cwd: app, home})).json().results[0].repoId).toBe(normalizeRepoId(api))

    const a = (await runCliInProcess(['store', 'list endpoints take a cursor parameter', '--type', 'observation', '--json'], {cwd: app, home})).json().id
    const b = (await runCliInProcess(['store', 'the mobile client caches the last cursor', '--type', 'observation', '--json'], {cwd: app, home})).json().id
    expect((await runCliInProcess(['links', 'attach', a, b, '--relation', 'depends-on', '--json'], {cwd: app, home})).json()).toEqual({linked: true})
    expect((await runCliInProcess(['get', a, '--json'], {cwd: app, home})).json().links).toEqual([{targetId: b, relation: 'depends-on'}])
    expect((await runCliInProcess(['links', 'remove', a, b, '--json'], {cwd: app, home})).json()).toEqual({removed: true})
    expect((await runCliInProcess(['links', 'attach', a, 'memories/x/insight/000000000000'], {cwd: app, home})).code).toBe(3)
  })
})

describe('sharing commands help', () => {
  it('every pack, layers and links command has a summary, examples and --json', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    for (const cmd of [
      ['pack', 'export'],
      ['pack', 'import'],
      ['layers', 'list'],
      ['layers', 'mount'],
      ['layers', 'sync'],
      ['layers', 'unmount'],
      ['links', 'list'],
      ['links', 'add'],
      ['links', 'attach'],
      ['links', 'remove'],
    ]) {
      const r = await runCliInProcess([...cmd, '--help'], {cwd: base, home})
      expect(r.code, cmd.join(' ')).toBe(0)
      expect(r.stdout, cmd.join(' ')).toMatch(/EXAMPLES/)
      expect(r.stdout, cmd.join(' ')).toMatch(/--json/)
    }
  })
})

describe('a pack file whose name starts with "-"', () => {
  it('reads as a flag; the error says how to name it, and ./-name imports', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const app = join(base, 'app')
    mkdirSync(join(app, '.git'), {recursive: true})
    expect((await runCliInProcess(['store', 'the deploy needs the VPN up', '--type', 'procedure'], {cwd: app, home})).code).toBe(0)
    expect((await runCliInProcess(['pack', 'export', '--out', join(app, '-app.mem')], {cwd: app, home})).code).toBe(0)
    const dashed = await runCliInProcess(['pack', 'import', '-app.mem'], {cwd: app, home})
    expect(dashed.code).toBe(2)
    expect(dashed.stderr).toContain('-app.mem is a file here; a name that starts with "-" reads as a flag: write ./-app.mem')
    const dotted = await runCliInProcess(['pack', 'import', './-app.mem'], {cwd: app, home})
    expect(dotted.code).toBe(0)
    expect(dotted.stdout).toMatch(/Imported 0 memories .* skipped 1/)
    // a flag that is no file keeps the usual hint
    expect((await runCliInProcess(['pack', 'import', '-nofile.mem'], {cwd: app, home})).stderr).toContain('mem pack import --help')
  })
})
