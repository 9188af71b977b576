// Packs benchmark (issue 7): `.mem` pack export and import of 10k memories, in process (the core
// operations) and through the built CLI (`mem pack export`, `mem pack import`), and a layer sync
// of the same pack from a local git remote. Prints figures; asserts only that the data arrived.
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdirSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {packExport} from '../../dist/src/operations/pack-export.js'
import {packImport} from '../../dist/src/operations/pack-import.js'
import {mountLayer, syncLayer} from '../../dist/src/operations/layers.js'
import {stats} from '../../dist/src/operations/stats.js'
import {seedRepo} from './lib/seed.mjs'
import {BIN, fmt, tempRepo} from './lib/util.mjs'

function cli(args, {cwd, home}) {
  const t = performance.now()
  const r = spawnSync(process.execPath, [BIN, ...args], {cwd, env: {...process.env, MEM_HOME: home}, encoding: 'utf8'})
  const ms = performance.now() - t
  if (r.status !== 0) throw new Error(`mem ${args.join(' ')} failed: ${r.stderr}`)
  return {ms, json: JSON.parse(r.stdout)}
}

export async function benchPacks(size = 10_000) {
  const {base, root, home} = tempRepo(`packs-${size}`)
  await seedRepo(root, size)
  const ctx = openMem({home, cwd: root})
  await stats(ctx, {repo: root}) // open the store once, outside the timings

  let t = performance.now()
  const {data, manifest} = await packExport(ctx, {repo: root, name: 'bench'})
  const exportMs = performance.now() - t
  if (manifest.entryCount !== size) throw new Error(`exported ${manifest.entryCount} of ${size}`)

  const target = join(base, 'target')
  mkdirSync(join(target, '.git'), {recursive: true})
  t = performance.now()
  const imported = await packImport(ctx, {repo: target, data})
  const importMs = performance.now() - t
  if (imported.imported + imported.skipped !== size) throw new Error(`import answered ${JSON.stringify(imported)}`)

  // the same pack again: every entry goes through the gates and is skipped as a duplicate
  t = performance.now()
  const again = await packImport(ctx, {repo: target, data})
  const reimportMs = performance.now() - t
  if (again.imported !== 0) throw new Error(`re-import imported ${again.imported}`)

  // a shared layer: the pack committed in a local git repository, mounted and synced
  const remote = join(base, 'remote')
  mkdirSync(remote)
  writeFileSync(join(remote, 'bench.mem'), data)
  const git = (...args) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', ...args], {cwd: remote, stdio: 'ignore'})
  git('init', '--quiet')
  git('add', '-A')
  git('commit', '--quiet', '-m', 'bench pack')
  const layered = join(base, 'layered')
  mkdirSync(join(layered, '.git'), {recursive: true})
  await mountLayer(ctx, {repo: layered, layerId: 'bench', type: 'shared', source: remote})
  t = performance.now()
  const synced = await syncLayer(ctx, {repo: layered, layerId: 'bench'})
  const syncMs = performance.now() - t
  t = performance.now()
  const resynced = await syncLayer(ctx, {repo: layered, layerId: 'bench'})
  const resyncMs = performance.now() - t
  await ctx.close()

  // as a user runs it: a fresh process each, store loading included
  const file = join(base, 'cli.mem')
  const cliExport = cli(['pack', 'export', '--out', file, '--json'], {cwd: root, home})
  const cliTarget = join(base, 'cli-target')
  mkdirSync(join(cliTarget, '.git'), {recursive: true})
  const cliImport = cli(['pack', 'import', file, '--json'], {cwd: cliTarget, home})

  console.log(`\n== packs (issue 7), ${size.toLocaleString('en-US')} memories ==`)
  console.log(`pack file                ${fmt(data.length / 1e6)} MB (${fmt(data.length / size, 0)} bytes per memory)`)
  console.log(`export, in process       ${fmt(exportMs, 0)} ms`)
  console.log(`import, in process       ${fmt(importMs, 0)} ms (${imported.imported} imported, ${imported.skipped} skipped; ${fmt(size / (importMs / 1000), 0)} memories/s)`)
  console.log(`re-import (all skipped)  ${fmt(reimportMs, 0)} ms`)
  console.log(`mem pack export (CLI)    ${fmt(cliExport.ms, 0)} ms wall, ${fmt(statSync(file).size / 1e6)} MB`)
  console.log(`mem pack import (CLI)    ${fmt(cliImport.ms, 0)} ms wall (${cliImport.json.imported} imported)`)
  console.log(`layer sync from git      ${fmt(syncMs, 0)} ms first (${synced.added} added), ${fmt(resyncMs, 0)} ms unchanged (${resynced.added + resynced.updated + resynced.removed} changes)`)
}

if (import.meta.url === `file://${process.argv[1]}`) await benchPacks(Number(process.argv[2] ?? 10_000))
