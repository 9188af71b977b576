#!/usr/bin/env node
// What the test suite needs besides npm's own dependencies, installed when missing (npm test runs
// this first, so one command passes the whole suite on a fresh Debian/Ubuntu machine):
//  - Chromium (the web UI's end-to-end tests), tmux (the terminal browser's) and PostgreSQL (the
//    team store's), from apt (`--postgres-only`: PostgreSQL alone, for .ci/run before it starts one);
//  - the agent hosts the real-host tests drive, each at its pinned version (test/hosts/versions.json),
//    from npm into a cache folder outside the repository: MEM_TEST_HOSTS_DIR, default
//    ~/.cache/mem-test-hosts/<package>@<version>. A folder already there is reused.
import {spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], {stdio: 'ignore'}).status === 0

// PostgreSQL: the team store's tests (test/storage/postgres) start a throwaway cluster of it
// (scripts/pg-cluster.mjs); Debian and Ubuntu ship initdb under /usr/lib/postgresql/<version>/bin.
const {findPgBin} = await import('./pg-cluster.mjs')
const postgresOnly = process.argv.includes('--postgres-only')
const missing = []
if (!findPgBin()) missing.push('postgresql')
// .ci/run asks for Postgres alone before it starts one; the rest comes when npm test runs this again
if (!postgresOnly) {
  if (!has('chromium') && !has('chromium-browser') && !process.env.CHROMIUM_PATH) missing.push('chromium')
  if (!has('tmux')) missing.push('tmux')
}
if (missing.length > 0) {
  if (has('apt-get')) {
    const sudo = process.getuid?.() !== 0 && has('sudo') ? ['sudo'] : []
    console.log(`test-prepare: installing ${missing.join(', ')} (apt-get)`)
    const env = {...process.env, DEBIAN_FRONTEND: 'noninteractive'}
    const run = (args) => spawnSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), {stdio: 'inherit', env}).status === 0
    if (!(run(['apt-get', 'update', '-qq']) && run(['apt-get', 'install', '-y', '-qq', ...missing]))) {
      console.error(`test-prepare: could not install ${missing.join(', ')}; test/faces/ui, the tmux tests and the Postgres tests (test/storage/postgres) need them`)
    }
  } else {
    console.error(`test-prepare: ${missing.join(', ')} missing and apt-get unavailable; test/faces/ui, the tmux tests and the Postgres tests (test/storage/postgres) need them`)
  }
}
if (postgresOnly) process.exit(findPgBin() ? 0 : 1)

const hosts = JSON.parse(readFileSync(join(root, 'test', 'hosts', 'versions.json'), 'utf8'))
const cache = process.env.MEM_TEST_HOSTS_DIR?.trim() || join(homedir(), '.cache', 'mem-test-hosts')
const pending = []
for (const h of Object.values(hosts)) {
  const dir = join(cache, `${h.package.replace('/', '+')}@${h.version}`)
  if (existsSync(join(dir, 'node_modules', '.bin', h.bin))) continue
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'package.json'), '{"private": true}\n')
  pending.push({h, dir})
}
if (pending.length > 0) {
  console.log(`test-prepare: installing ${pending.map((p) => `${p.h.package}@${p.h.version}`).join(', ')} into ${cache}`)
  const {spawn} = await import('node:child_process')
  const results = await Promise.all(
    pending.map(
      ({h, dir}) =>
        new Promise((resolve) => {
          const child = spawn('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', '--prefix', dir, `${h.package}@${h.version}`], {stdio: 'inherit'})
          child.on('close', (code) => resolve({h, ok: code === 0}))
        }),
    ),
  )
  const failed = results.filter((r) => !r.ok)
  if (failed.length > 0) {
    console.error(`test-prepare: could not install ${failed.map((r) => r.h.package).join(', ')}; the real-host tests (test/hosts) will fail`)
    process.exitCode = 1
  }
}
