// The linter bites: eslint.config.js, run on a small tree of the same shape (its own files, the
// repository's node_modules), reports each rule's deliberate violation where it is one, and nothing
// where the same code is allowed (the faces may print; `void` marks a promise left on purpose).
// `npm run lint` holds the real tree to zero findings; this holds the config to what it promises.
import {copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {ESLint} from 'eslint'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')

const PROBES: Record<string, string> = {
  'src/model/unused.ts': `import {join} from 'node:path'
export function f(): number {
  const left = 1
  return 2
}
`,
  'src/operations/floating.ts': `async function later(): Promise<number> {
  return 1
}
export function start(): void {
  later()
}
export function startOnPurpose(): void {
  void later()
}
`,
  'src/text/loose.ts': `export const same = (a: unknown, b: unknown): boolean => a == b
export const missing = (a: unknown): boolean => a == null
`,
  'src/engines/prints.ts': `export function report(n: number): void {
  console.log(n)
}
`,
  'src/runtime/reads-process.ts': `export const home = (): string | undefined => process.env.HOME
export const cwd = (): string => globalThis.process.cwd()
`,
  'src/storage/imports-process.ts': `import {env} from 'node:process'
export const home = (): string | undefined => env.HOME
`,
  'src/config/writes-stdout.ts': `export function say(text: string): void {
  process.stdout.write(text)
}
`,
  'src/faces/cli/prints.ts': `export function say(text: string): void {
  process.stdout.write(text)
  console.error(process.env.HOME)
}
`,
  'src/faces/ui/hook-in-branch.tsx': `import {useState} from 'react'
export function Badge(props: {shown: boolean}) {
  if (!props.shown) return null
  const [n] = useState(0)
  return <span>{n}</span>
}
`,
  'src/faces/ui/clean.tsx': `import {useEffect, useState} from 'react'
export function Counter(props: {start: number}) {
  const [n, setN] = useState(props.start)
  useEffect(() => setN(props.start), [props.start])
  return <span>{n}</span>
}
`,
}

describe('the linter', () => {
  let found: Map<string, string[]>
  const dir = mkdtempSync(join(tmpdir(), 'mem-lint-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  beforeAll(async () => {
    for (const file of ['eslint.config.js', 'tsconfig.json', 'tsconfig.lint.json', 'src/faces/ui/tsconfig.json']) {
      mkdirSync(dirname(join(dir, file)), {recursive: true})
      copyFileSync(join(ROOT, file), join(dir, file))
    }
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
    for (const [file, text] of Object.entries(PROBES)) {
      mkdirSync(dirname(join(dir, file)), {recursive: true})
      writeFileSync(join(dir, file), text)
    }
    const results = await new ESLint({cwd: dir}).lintFiles(['src'])
    found = new Map(results.map((r) => [r.filePath.slice(dir.length + 1), r.messages.map((m) => `${m.line}:${m.ruleId ?? m.message}`)]))
  }, 120_000)

  it('lints every probe (none is ignored or outside a project)', () => {
    expect([...found.keys()].sort()).toEqual(Object.keys(PROBES).sort())
  })

  it('unused imports and locals', () => {
    expect(found.get('src/model/unused.ts')).toEqual(['1:@typescript-eslint/no-unused-vars', '3:@typescript-eslint/no-unused-vars'])
  })

  it('a floating promise, but not one marked with void', () => {
    expect(found.get('src/operations/floating.ts')).toEqual(['5:@typescript-eslint/no-floating-promises'])
  })

  it('== and != except against null', () => {
    expect(found.get('src/text/loose.ts')).toEqual(['1:eqeqeq'])
  })

  it('no printing or process below the faces, in each of its spellings', () => {
    expect(found.get('src/engines/prints.ts')).toEqual(['2:no-restricted-globals'])
    expect(found.get('src/runtime/reads-process.ts')).toEqual(['1:no-restricted-globals', '2:no-restricted-properties'])
    expect(found.get('src/storage/imports-process.ts')).toEqual(['1:no-restricted-imports'])
    expect(found.get('src/config/writes-stdout.ts')).toEqual(['2:no-restricted-globals'])
  })

  it('the faces may print and read the process', () => {
    expect(found.get('src/faces/cli/prints.ts')).toEqual([])
  })

  it('React hooks in the UIs: a hook after an early return', () => {
    expect(found.get('src/faces/ui/hook-in-branch.tsx')).toEqual(['4:react-hooks/rules-of-hooks'])
    expect(found.get('src/faces/ui/clean.tsx')).toEqual([])
  })
})
