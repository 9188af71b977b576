#!/usr/bin/env node
// A throwaway PostgreSQL cluster for the tests and CI: made from the machine's own packages
// (initdb and pg_ctl under /usr/lib/postgresql/<version>/bin, or on PATH, or MEM_PG_BIN) in a
// temporary folder, listening on a free loopback port and on a socket in that folder only.
//
//   node scripts/pg-cluster.mjs start     prints `MEM_TEST_PG_URL=… MEM_TEST_PG_DIR=…` (for eval)
//   node scripts/pg-cluster.mjs stop DIR  stops the cluster of DIR and removes DIR
//
// As root, initdb and the server refuse to run: they run as the `postgres` user (or `nobody`
// when there is none) through runuser or su, with the folder given to that user.
import {spawnSync} from 'node:child_process'
import {chownSync, existsSync, mkdtempSync, readdirSync, rmSync} from 'node:fs'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function findPgBin() {
  const given = process.env.MEM_PG_BIN?.trim()
  if (given) return existsSync(join(given, 'initdb')) ? given : undefined
  const base = '/usr/lib/postgresql'
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions.length > 0) return join(base, versions[0], 'bin')
  }
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], {encoding: 'utf8'})
  if (onPath.status === 0 && onPath.stdout.trim()) return join(onPath.stdout.trim(), '..')
  return undefined
}

/** A free loopback port (the cluster's; test/bench/team-serve.mjs's nginx too). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Who runs initdb and postgres: this user, or (as root) the postgres user. */
function runner() {
  if (process.getuid?.() !== 0) return {user: undefined, uid: undefined, gid: undefined}
  for (const user of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', user], {encoding: 'utf8'})
    const gid = spawnSync('id', ['-g', user], {encoding: 'utf8'})
    if (id.status === 0) return {user, uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim())}
  }
  throw new Error('Running as root and there is neither a postgres nor a nobody user to run PostgreSQL as (it refuses root).')
}

function run(who, file, args) {
  const cmd = who.user
    ? existsSync('/usr/sbin/runuser') || existsSync('/sbin/runuser')
      ? spawnSync('runuser', ['-u', who.user, '--', file, ...args], {encoding: 'utf8'})
      : spawnSync('su', [who.user, '-s', '/bin/sh', '-c', [file, ...args].map(shellQuote).join(' ')], {encoding: 'utf8'})
    : spawnSync(file, args, {encoding: 'utf8'})
  if (cmd.status !== 0) {
    const out = `${cmd.stderr ?? ''}${cmd.stdout ?? ''}`.trim().split('\n').slice(-5).join('\n')
    throw new Error(`${file.split('/').pop()} failed (exit ${cmd.status ?? cmd.signal}): ${out || cmd.error?.message || 'no output'}`)
  }
  return cmd.stdout
}

function shellQuote(s) {
  return `'${String(s).replace(/'/g, `'\\''`)}'`
}

/**
 * Makes and starts a cluster. Returns its URL (user postgres, no password: trust on loopback and
 * the folder's socket only), its folder, port and timings.
 */
export async function startCluster() {
  const bin = findPgBin()
  if (!bin) {
    throw new Error('PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin or on PATH). Install it: apt-get install -y postgresql (or set MEM_PG_BIN).')
  }
  const who = runner()
  const dir = mkdtempSync(join(tmpdir(), 'mem-pg-'))
  if (who.uid !== undefined) chownSync(dir, who.uid, who.gid)
  const data = join(dir, 'data')
  const t0 = performance.now()
  try {
    run(who, join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'])
    const initdbMs = performance.now() - t0
    let lastError
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort()
      const t1 = performance.now()
      try {
        run(who, join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start'])
        const startMs = performance.now() - t1
        return {url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, port, bin, initdbMs, startMs}
      } catch (err) {
        lastError = err // most likely the port was taken between the probe and the start: another one
      }
    }
    throw lastError
  } catch (err) {
    rmSync(dir, {recursive: true, force: true})
    throw err
  }
}

/**
 * Kills the cluster of `dir` as a crash would (`pg_ctl -m immediate`: no checkpoint, every backend
 * gone at once), keeping its folder; `restartCluster` starts it again on the same port, replaying
 * its WAL. For tests that kill Postgres mid-burst on a cluster of their own.
 */
export function killCluster(dir) {
  run(runner(), join(findPgBin(), 'pg_ctl'), ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop'])
}

export function restartCluster(dir, port) {
  if (!/^\d{1,5}$/.test(String(port))) throw new Error(`Invalid port ${port}.`)
  run(runner(), join(findPgBin(), 'pg_ctl'), ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-t', '60', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start'])
}

/** Stops the cluster of `dir` (immediately: its data is thrown away) and removes the folder. */
export function stopCluster(dir) {
  const bin = findPgBin()
  const data = join(dir, 'data')
  if (bin && existsSync(join(data, 'postmaster.pid'))) {
    try {
      run(runner(), join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } catch {
      // already stopped (or never started): the folder goes either way
    }
  }
  rmSync(dir, {recursive: true, force: true})
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, arg] = process.argv.slice(2)
  if (command === 'start') {
    try {
      const c = await startCluster()
      console.error(`pg-cluster: PostgreSQL from ${c.bin} on 127.0.0.1:${c.port} (initdb ${Math.round(c.initdbMs)} ms, start ${Math.round(c.startMs)} ms)`)
      console.log(`MEM_TEST_PG_URL=${shellQuote(c.url)} MEM_TEST_PG_DIR=${shellQuote(c.dir)}`)
    } catch (err) {
      console.error(`pg-cluster: ${err.message}`)
      process.exit(1)
    }
  } else if (command === 'stop' && arg) {
    stopCluster(arg)
  } else if (command === 'kill' && arg) {
    killCluster(arg)
  } else if (command === 'restart' && arg && process.argv[4]) {
    restartCluster(arg, process.argv[4])
  } else {
    console.error('usage: node scripts/pg-cluster.mjs start | stop DIR | kill DIR | restart DIR PORT')
    process.exit(2)
  }
}
