// vitest globalSetup: the Postgres the team-store tests run against. With MEM_TEST_PG_URL given
// (.ci/run starts one), that one. Else, outside CI, a throwaway cluster of this machine's packages
// (scripts/pg-cluster.mjs), started by the first test that asks for it (test/helpers/pg.ts), so a
// run that never touches Postgres never pays for initdb, and stopped here when the run ends. Under
// CI=true without the URL, none: the tests that need it fail and say why (they are never skipped).
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {setTimeout as sleep} from 'node:timers/promises'
import type {TestProject} from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server URL when given; else '' and the tests start one through `pgStatusFile`. */
    pgUrl: string
    /** Where the test that starts the cluster writes `ready <url> <dir>` or `failed <why>` (with a `.lock` beside it). */
    pgStatusFile: string
    /** The part of the suite a test file is in (vitest.config.ts: `fast` or `slow`). */
    suitePart: 'fast' | 'slow'
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
  return async () => {
    // a start still under way (its worker ended early) is waited for, then stopped
    for (let i = 0; existsSync(`${statusFile}.lock`) && !existsSync(statusFile) && i < 1200; i++) await sleep(50)
    const status = existsSync(statusFile) ? readFileSync(statusFile, 'utf8').trim() : ''
    const dir = /^ready \S+ (.+)$/.exec(status)?.[1]
    if (dir) {
      const {stopCluster} = (await import(join(ROOT, 'scripts', 'pg-cluster.mjs'))) as {stopCluster(dir: string): void}
      stopCluster(dir)
    }
    rmSync(statusDir, {recursive: true, force: true})
  }
}
