// vitest globalSetup: the Postgres the team-store tests run against. With MEM_TEST_PG_URL given
// (.ci/run starts one), that one. Else, outside CI, a throwaway cluster of this machine's packages
// (scripts/pg-cluster.mjs), started in the background so that runs which never touch it do not wait
// for initdb: the tests that need it wait for the status file. Under CI=true without the URL, none:
// those tests fail and say why (skipping them is not an option).
import {spawn} from 'node:child_process'
import {mkdtempSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import type {TestProject} from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server URL when given; else '' and `pgStatusFile` says when it is ready. */
    pgUrl: string
    /** A file that holds `ready <url>` or `failed <why>` once the cluster started here is up (or is not). */
    pgStatusFile: string
  }
}

const ROOT = join(import.meta.dirname, '..', '..')

export default function setup(project: TestProject): () => Promise<void> {
  const given = process.env.MEM_TEST_PG_URL?.trim() ?? ''
  if (given || process.env.CI === 'true') {
    project.provide('pgUrl', given)
    project.provide('pgStatusFile', '')
    return async () => {}
  }
  const statusDir = mkdtempSync(join(tmpdir(), 'mem-pg-status-'))
  const statusFile = join(statusDir, 'status')
  project.provide('pgUrl', '')
  project.provide('pgStatusFile', statusFile)
  let clusterDir = ''
  const started = new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts', 'pg-cluster.mjs'), 'start'], {stdio: ['ignore', 'pipe', 'pipe']})
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.on('close', (code) => {
      const url = /MEM_TEST_PG_URL='([^']+)'/.exec(out)?.[1]
      clusterDir = /MEM_TEST_PG_DIR='([^']+)'/.exec(out)?.[1] ?? ''
      writeFileSync(`${statusFile}.tmp`, code === 0 && url ? `ready ${url}\n` : `failed ${err.trim() || `pg-cluster exited ${code}`}\n`)
      // renamed into place: a reader never sees half a line
      renameSync(`${statusFile}.tmp`, statusFile)
      resolve()
    })
  })
  return async () => {
    await started
    if (clusterDir) {
      const {stopCluster} = (await import(join(ROOT, 'scripts', 'pg-cluster.mjs'))) as {stopCluster(dir: string): void}
      stopCluster(clusterDir)
    }
    rmSync(statusDir, {recursive: true, force: true})
  }
}
