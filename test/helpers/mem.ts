import {mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {expect, onTestFinished} from 'vitest'
import type {StoreResult} from '../../src/model/shapes/memories.js'
import {MemError} from '../../src/model/errors.js'
import {openMem, type OpenMemOptions} from '../../src/runtime/open-mem.js'

export interface Clock {
  (): Date
  advance(ms: number): void
  set(iso: string): void
}

/** A fixed clock that moves only when told to. */
export function fixedClock(start = '2026-03-01T12:00:00.000Z'): Clock {
  let t = Date.parse(start)
  const clock = (() => new Date(t)) as Clock
  clock.advance = (ms) => {
    t += ms
  }
  clock.set = (iso) => {
    t = Date.parse(iso)
  }
  return clock
}

/** A temp directory removed when the test ends. */
export function tempDir(prefix = 'mem-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, {recursive: true, force: true}))
  return dir
}

/** Writes an inline file tree under `root`. */
export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path)
    mkdirSync(dirname(full), {recursive: true})
    writeFileSync(full, content)
  }
}

/** Every file under `root/.mem` (recursively) with its bytes as latin1 text, for checks of what reached the disk. */
export function storeFiles(root: string): Array<{path: string; text: string}> {
  const dir = join(root, '.mem')
  return readdirSync(dir, {recursive: true, withFileTypes: true})
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .map((path) => ({path, text: readFileSync(path, 'latin1')}))
}

/**
 * A temp git-like repo (with `.git/`) and a temp MEM_HOME, and a context over them with a fixed
 * clock (and the usage options given). Everything is closed and removed when the test ends.
 */
export function memRepo(files: Record<string, string> = {}, options: {clock?: Clock; usage?: OpenMemOptions['usage']; meaning?: OpenMemOptions['meaning']; longLived?: boolean} = {}) {
  const base = tempDir()
  const root = join(base, 'repo')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  writeTree(root, files)
  const clock = options.clock ?? fixedClock()
  // word-only unless the test asks for a meaning model (vitest.config.ts)
  const ctx = openMem({home, cwd: root, now: clock, usage: options.usage, meaning: options.meaning ?? {model: 'off'}, ...(options.longLived ? {longLived: true} : {})})
  onTestFinished(() => ctx.close())
  return {root, home, base, ctx, clock, repo: root}
}

/** The id of a store that must have succeeded (the test fails with the outcome otherwise). */
export function storedId(r: StoreResult): string {
  if (!r.success) throw new Error(`expected stored, got ${JSON.stringify(r)}`)
  return r.id
}

/** Awaits `p`, which must fail with a MemError of `code` (and a message matching `match`); returns it. */
export async function refused(p: Promise<unknown>, code: string, match?: RegExp): Promise<MemError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(MemError)
  expect((err as MemError).code).toBe(code)
  if (match) expect((err as MemError).message).toMatch(match)
  return err as MemError
}
