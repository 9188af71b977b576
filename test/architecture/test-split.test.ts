// The split of the suite (vitest.config.ts): `npm run test:fast` runs the `fast` project, `npm test`
// and CI both. Every test file is in exactly one project, and each slow entry still names test files
// (a renamed or deleted file would otherwise leave an entry that keeps nothing out).
import {readdirSync} from 'node:fs'
import {join, relative} from 'node:path'
import {describe, expect, it} from 'vitest'
import {SLOW_TESTS} from '../../vitest.config.js'

const ROOT = join(import.meta.dirname, '..', '..')

function testFiles(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : /\.test\.tsx?$/.test(e.name) ? [relative(ROOT, join(dir, e.name))] : []))
}

/** The files an entry names: a folder's (`dir/**`) or one file's path. */
const named = (entry: string, files: string[]) => (entry.endsWith('/**') ? files.filter((f) => f.startsWith(entry.slice(0, -2))) : files.filter((f) => f === entry))

describe('the fast/slow split of the suite', () => {
  const files = testFiles(join(ROOT, 'test'))

  it('each slow entry is a folder or a test file that exists', () => {
    expect(files.length).toBeGreaterThan(80)
    for (const entry of SLOW_TESTS) {
      expect(entry, 'a folder as dir/** or one file, nothing else').toMatch(/^test\/[\w./-]+(?:\/\*\*|\.test\.tsx?)$/)
      expect(named(entry, files), entry).not.toEqual([])
    }
  })

  it('leaves most files in the fast part, none in both', () => {
    const slow = new Set(SLOW_TESTS.flatMap((e) => named(e, files)))
    const fast = files.filter((f) => !slow.has(f))
    expect(slow.size + fast.length).toBe(files.length)
    expect(fast.length).toBeGreaterThan(slow.size)
  })
})
