// Comments and docs name only paths that exist: a path of this repository written in src/ (its
// comments and strings), docs/ or the README (src/…, test/…, docs/…, scripts/…, templates/…, bin/…)
// must be a file or folder here, and the folders the code left behind (`core/`, `src/ops`) are not
// named at all. A moved or renamed file then fails here until every mention of it follows.
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')

/** A path of this repository as prose writes it: a top folder, then name characters (a glob's `*`, `{a,b}` or `…` allowed). */
const PATH = /(?<![\w./@-])((?:src|test|docs|scripts|templates|bin)\/[\w.\-/*{},…]*[\w*}/])/g
/** The folders that are gone: the operations were `core/`, the engines `src/ops`. */
const GONE = /(?<![\w./@-])(core\/|src\/ops\b)/g

/**
 * Paths that are not this repository's, each where it is written and why: the repository a user runs
 * mem in, or a folder the tests make. An entry that no longer matches fails too, so the list stays true.
 */
const ELSEWHERE: Array<{file: string; path: string; why: string; madeByTests?: true}> = [
  {file: 'src/engines/intake/scan.ts', path: 'docs/CONTRIBUTING.md', why: 'a file intake reads in the user\'s repository'},
  {file: 'src/faces/cli/commands/export.ts', path: 'docs/memories.md', why: 'an example --out in the user\'s repository'},
  {file: 'docs/currency.md', path: 'test/fixtures/api', why: 'an example value inside a memory\'s text'},
  {file: 'docs/web-ui.md', path: 'test/faces/ui/screenshots/', why: 'written by the UI tests, git-ignored', madeByTests: true},
  // scripts run by their path in the user's repository: the programs of commands (text/commands.ts)
  ...['bin/rails', 'bin/rake', 'scripts/seed.js', 'bin/clear-cache', 'bin/rspec', 'bin/qunit'].map((path) => ({file: 'src/text/commands.ts', path, why: 'a script a command runs in the user\'s repository'})),
  ...['bin/rails', 'bin/clear-cache', 'scripts/x.sh', 'bin/rspec', 'bin/qunit'].map((path) => ({file: 'docs/currency.md', path, why: 'a script a command runs in the user\'s repository'})),
  {file: 'src/engines/currency/guards.ts', path: 'bin/rspec', why: 'a script a command runs in the user\'s repository'},
]

function walk(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`
    return statSync(join(ROOT, rel)).isDirectory() ? walk(rel) : [rel]
  })
}

/** Whether a written path names something here: as written, or a `.js` import specifier's `.ts`/`.tsx` source; a glob by its fixed folder. */
function exists(path: string): boolean {
  const fixed = path.split(/[*{…]/)[0]
  const candidates = fixed === path ? [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx')] : [fixed.replace(/[^/]*$/, '')]
  return candidates.some((c) => existsSync(join(ROOT, c)))
}

function mentions(): Array<{file: string; line: number; path: string; gone: boolean}> {
  const files = [...walk('src'), ...walk('docs'), 'README.md'].filter((f) => /\.(ts|tsx|js|mjs|md|css|html)$/.test(f))
  const out: Array<{file: string; line: number; path: string; gone: boolean}> = []
  for (const file of files) {
    readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((text, i) => {
      for (const m of text.matchAll(PATH)) out.push({file, line: i + 1, path: m[1], gone: false})
      for (const m of text.matchAll(GONE)) out.push({file, line: i + 1, path: m[1], gone: true})
    })
  }
  return out
}

describe('paths named in comments and docs', () => {
  const all = mentions()
  const elsewhere = (m: {file: string; path: string}) => ELSEWHERE.some((e) => e.file === m.file && e.path === m.path)

  it('finds the paths it checks', () => {
    expect(all.length).toBeGreaterThan(100)
    expect(all.some((m) => m.file === 'README.md' && m.path.startsWith('test/'))).toBe(true)
  })

  it('every path of this repository that they name exists', () => {
    const missing = all.filter((m) => !elsewhere(m) && (m.gone || !exists(m.path)))
    expect(missing.map((m) => `${m.file}:${m.line}: ${m.path}`)).toEqual([])
  })

  it('every exception is still written where it says, and names no path of this repository', () => {
    for (const e of ELSEWHERE) {
      expect(all.some((m) => m.file === e.file && m.path === e.path), `${e.file}: ${e.path}`).toBe(true)
      // a folder the tests make is here once they have run; anything else that exists is no exception
      if (!e.madeByTests) expect(exists(e.path), `${e.path} exists here: not an exception`).toBe(false)
    }
  })

  it('knows a missing path and a gone folder when it sees one', () => {
    expect(exists('src/operations/recall.ts')).toBe(true)
    expect(exists('src/operations/recall.js')).toBe(true)
    expect(exists('src/engines/*/index.ts')).toBe(true)
    expect(exists('src/operations/track.ts')).toBe(false)
    expect(exists('test/unit/secrets.test.ts')).toBe(false)
    expect([...'see core/recall.ts and src/ops and @oclif/core/lib'.matchAll(GONE)].map((m) => m[1])).toEqual(['core/', 'src/ops'])
  })
})
