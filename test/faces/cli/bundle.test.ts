/**
 * ink and React load for `mem browse` on a terminal only: they must not sit in the chunks every
 * command loads at start, and `mem recall` / `mem stats` must not load them.
 */
import {spawnSync} from 'node:child_process'
import {mkdirSync, readFileSync} from 'node:fs'
import {join, relative, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {BIN} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

const ROOT = resolve(import.meta.dirname, '..', '..', '..')
const UI_PACKAGES = /node_modules\/(ink|react|react-reconciler|yoga-layout|scheduler)\//

interface Meta {
  outputs: Record<string, {inputs: Record<string, unknown>; imports: Array<{path: string; kind: string}>}>
}

function meta(): Meta {
  return JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'meta.json'), 'utf8'))
}

/** The output files that hold any of ink, React or yoga. */
function uiChunks(m: Meta): Set<string> {
  return new Set(Object.entries(m.outputs).filter(([, o]) => Object.keys(o.inputs).some((i) => UI_PACKAGES.test(i))).map(([out]) => out))
}

/** Output files loaded by statically importing `from`. */
function staticClosure(m: Meta, from: string): Set<string> {
  const seen = new Set<string>()
  const stack = [from]
  while (stack.length) {
    const out = stack.pop()!
    if (seen.has(out)) continue
    seen.add(out)
    for (const imp of m.outputs[out]?.imports ?? []) if (imp.kind === 'import-statement') stack.push(imp.path)
  }
  return seen
}

describe('the CLI bundle keeps ink to mem browse', () => {
  it('puts ink and React only behind the dynamic import of the terminal browser', () => {
    const m = meta()
    const ui = uiChunks(m)
    expect(ui.size).toBeGreaterThan(0)
    // what every command loads at start
    for (const out of staticClosure(m, 'dist/cli/main.js')) expect(ui.has(out), out).toBe(false)
    // every dynamically imported chunk that brings ink with it is the browser's (or ink's own lazy devtools)
    for (const [out, o] of Object.entries(m.outputs)) {
      for (const imp of o.imports) {
        if (imp.kind !== 'dynamic-import') continue
        const loads = [...staticClosure(m, imp.path)]
        if (!loads.some((c) => ui.has(c))) continue
        const inputs = Object.keys(m.outputs[imp.path].inputs)
        const isBrowser = inputs.includes('src/faces/tui/run.tsx')
        const isInkInternal = Object.keys(o.inputs).some((i) => UI_PACKAGES.test(i))
        expect(isBrowser || isInkInternal, `${out} → ${imp.path}`).toBe(true)
      }
    }
  })

  it('does not load the browser chunks when mem recall or mem stats runs', () => {
    const m = meta()
    const ui = new Set([...uiChunks(m)].map((out) => resolve(ROOT, out)))
    const base = tempDir()
    const root = join(base, 'repo')
    mkdirSync(join(root, '.git'), {recursive: true})
    const log = join(base, 'loaded.txt')
    // a module hook that writes down every module the process loads
    const code = `import {appendFileSync} from 'node:fs'
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context) }`
    const register = `import {register} from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(code)}`)})`
    for (const args of [['store', 'the build caches node_modules between runs', '--type', 'observation'], ['recall', 'build cache'], ['stats'], ['browse']]) {
      const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args], {
        cwd: root,
        encoding: 'utf8',
        env: {...process.env, MEM_HOME: join(base, 'home'), MEM_REPO: '', NO_COLOR: '1'},
      })
      expect(r.status, r.stderr).toBe(0)
    }
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean)
    const files = loaded.filter((u) => u.startsWith('file://')).map((u) => new URL(u).pathname)
    const chunks = files.filter((f) => f.startsWith(join(ROOT, 'dist', 'cli')))
    expect(chunks.length).toBeGreaterThan(3) // the hook saw the CLI load its chunks
    const offending = chunks.filter((f) => ui.has(f)).map((f) => relative(ROOT, f))
    // `mem browse` into a pipe prints pages: it does not load ink either
    expect(offending).toEqual([])
    expect(files.some((f) => /node_modules\/(ink|react)\//.test(f))).toBe(false)

    // and the hook does see the browser when it loads (the check above can fail)
    const browser = Object.entries(m.outputs).find(([, o]) => 'src/faces/tui/run.tsx' in o.inputs)![0]
    const r = spawnSync(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', `await import(${JSON.stringify(resolve(ROOT, browser))})`],
      {cwd: root, encoding: 'utf8'},
    )
    expect(r.status, r.stderr).toBe(0)
    const after = readFileSync(log, 'utf8').split('\n').filter((u) => u.startsWith('file://')).map((u) => new URL(u).pathname)
    expect(after.some((f) => ui.has(f))).toBe(true)
  })
})

describe('a plain mem recall starts without oclif and zod', () => {
  /** Files a `mem` run loads, relative to the checkout (a module hook writes every module down). */
  function loaded(args: string[], extraEnv: Record<string, string> = {}, at?: {base: string; root: string; input: string}): string[] {
    const base = at?.base ?? tempDir()
    const root = at?.root ?? join(base, 'repo')
    mkdirSync(join(root, '.git'), {recursive: true})
    // a log of its own per run (two runs may share a folder)
    const log = join(base, `loaded-${process.hrtime.bigint()}.txt`)
    const code = `import {appendFileSync} from 'node:fs'
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context) }`
    const register = `import {register} from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(code)}`)})`
    const r = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args], {
      cwd: root,
      encoding: 'utf8',
      env: {...process.env, MEM_HOME: join(base, 'home'), MEM_REPO: '', ...extraEnv},
      ...(at ? {input: at.input} : {}),
    })
    expect(r.status, r.stderr).toBe(0)
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter((u) => u.startsWith('file://'))
      .map((u) => relative(ROOT, new URL(u).pathname))
  }

  const heavy = (f: string) => f === 'dist/cli/main.js' || f.startsWith('dist/cli/chunks/') || /node_modules\/(@oclif\/core|zod)\//.test(f)

  it('loads the one fast.js bundle: not the oclif entry, its chunks or zod', () => {
    const fastMeta = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'fast-meta.json'), 'utf8')) as Meta
    const inputs = Object.keys(fastMeta.outputs['dist/cli/fast.js'].inputs)
    expect(inputs).toContain('src/operations/recall.ts')
    expect(inputs.filter((i) => /node_modules\/(@oclif\/core|zod|yaml)\//.test(i))).toEqual([])
    const plain = loaded(['recall', 'how do the tests run?', '--limit', '3', '--json'])
    expect(plain).toContain('dist/cli/fast.js')
    expect(plain.filter(heavy)).toEqual([])
    // the same command with a value oclif must word the error for goes through oclif (the check above can fail)
    expect(loaded(['recall', '--help']).filter(heavy).length).toBeGreaterThan(0)
    expect(loaded(['recall', 'how do the tests run?'], {MEM_CLI_FAST: '0'})).toContain('dist/cli/main.js')
  })

  it('the session-start hook served from its cache loads neither the store (sql.js), the tokenizer nor zod', () => {
    const base = tempDir()
    const root = join(base, 'repo')
    mkdirSync(join(root, '.git'), {recursive: true})
    const env = {...process.env, MEM_HOME: join(base, 'home'), MEM_REPO: ''}
    for (const text of ['Integration tests need docker running', 'Release from main only, with npm run release']) {
      expect(spawnSync(process.execPath, [BIN, 'store', text, '--type', 'procedure'], {cwd: root, env}).status).toBe(0)
    }
    const input = JSON.stringify({session_id: 's', cwd: root, hook_event_name: 'SessionStart', source: 'startup'})
    const hookMeta = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'hook-meta.json'), 'utf8')) as Meta
    const heavyChunks = new Set(
      Object.entries(hookMeta.outputs)
        .filter(([, o]) => Object.keys(o.inputs).some((i) => /node_modules\/(zod|gpt-tokenizer)\//.test(i)))
        .map(([out]) => out),
    )
    expect(heavyChunks.size).toBeGreaterThan(0)
    const heavyHook = (f: string) => heavyChunks.has(f) || /node_modules\/(sql\.js|zod|gpt-tokenizer)\//.test(f)
    // the first start builds the context and caches it: that one loads the store and the tokenizer (the check can fail)
    expect(loaded(['hook', 'session-start', '--host', 'claude'], {}, {base, root, input}).filter(heavyHook).length).toBeGreaterThan(0)
    const cached = loaded(['hook', 'session-start', '--host', 'claude'], {}, {base, root, input})
    expect(cached).toContain('dist/cli/hook.js')
    expect(cached.filter(heavyHook)).toEqual([])
    expect(cached.filter(heavy)).toEqual([])
  })
})
