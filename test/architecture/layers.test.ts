// The architecture, checked: layers point one way (faces → operations → engines → storage, config,
// model), nothing imports in a circle, only src/storage speaks SQL, and nothing below the faces
// touches `process` or the console. Like bundle.test.ts for what a cold command loads, this fails
// the build on an import that runs back up.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join, normalize, relative} from 'node:path'
import {describe, expect, it} from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')

/** Each layer: where its files are and its rank (an import may only go to the same or a lower rank). */
const LAYERS = [
  {name: 'model', dir: 'src/model', rank: 0},
  {name: 'text', dir: 'src/text', rank: 0},
  {name: 'config', dir: 'src/config', rank: 1},
  {name: 'storage', dir: 'src/storage', rank: 1},
  {name: 'engines', dir: 'src/engines', rank: 2},
  {name: 'operations', dir: 'src/operations', rank: 3},
  {name: 'runtime', dir: 'src/runtime', rank: 3},
  {name: 'faces', dir: 'src/faces', rank: 4},
  {name: 'client', dir: 'src/client', rank: 4},
  {name: 'package', dir: 'src/index.ts', rank: 5},
] as const

/** Layers that may reach the others only through `import type` (they ship without the core). */
const TYPE_ONLY_OUTSIDE = ['src/client', 'src/faces/ui']
/** What they may take values from all the same: the input bounds (one contract per input), plain data that imports only within this list and no package. */
const PLAIN_SHARED = ['src/model/errors.ts', 'src/model/inputs.ts', 'src/model/memory.ts']
/** Layers of one rank that must not import each other. */
const APART = [['operations', 'runtime']]

function files(dir: string): string[] {
  const full = join(ROOT, dir)
  try {
    if (statSync(full).isFile()) return [dir]
  } catch {
    return []
  }
  const out: string[] = []
  for (const name of readdirSync(full)) {
    const rel = join(dir, name)
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...files(rel))
    else if (/\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts')) out.push(rel)
  }
  return out
}

function layerOf(file: string) {
  return LAYERS.find((l) => file === l.dir || file.startsWith(`${l.dir}/`))
}

/** A unit for the circle check: an engine's folder, or a layer. */
function unitOf(file: string): string {
  const engine = /^src\/engines\/([^/]+)\//.exec(file)
  if (engine) return `engines/${engine[1]}`
  if (file === 'src/engines/context.ts') return 'engines/context'
  return layerOf(file)?.name ?? file
}

interface Edge {
  from: string
  to: string
  typeOnly: boolean
}

const SPEC = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

function resolveSpec(from: string, spec: string): string | undefined {
  const base = normalize(join(dirname(from), spec))
  const stem = base.replace(/\.js$/, '')
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}/index.ts`]) {
    try {
      if (statSync(join(ROOT, candidate)).isFile()) return candidate
    } catch {
      // not this one
    }
  }
  return undefined
}

function edges(): Edge[] {
  const out: Edge[] = []
  for (const layer of LAYERS) {
    for (const file of files(layer.dir)) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      for (const m of text.matchAll(SPEC)) {
        const spec = m[3] ?? m[4]
        const to = resolveSpec(file, spec)
        if (!to) continue
        out.push({from: file, to, typeOnly: Boolean(m[2])})
      }
    }
  }
  return out
}

function cycles(graph: Map<string, Set<string>>): string[][] {
  const found: string[][] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return found
}

describe('the architecture', () => {
  const all = edges()

  it('finds the imports it checks', () => {
    expect(all.length).toBeGreaterThan(500)
    expect(all.some((e) => e.from.startsWith('src/faces/server/') && e.to.startsWith('src/operations/'))).toBe(true)
  })

  it('layers point one way: no import runs back up, and apart layers stay apart', () => {
    const wrong: string[] = []
    for (const e of all) {
      const a = layerOf(e.from)!
      const b = layerOf(e.to)
      if (!b) continue
      if (b.rank > a.rank) wrong.push(`${e.from} → ${e.to} (${a.name} may not import ${b.name})`)
      if (APART.some(([x, y]) => (a.name === x && b.name === y) || (a.name === y && b.name === x))) wrong.push(`${e.from} → ${e.to} (${a.name} and ${b.name} stay apart)`)
    }
    expect(wrong).toEqual([])
  })

  it('the client and the web UI reach the rest only through `import type` (but for the plain input bounds)', () => {
    const wrong = all
      .filter((e) => TYPE_ONLY_OUTSIDE.some((d) => e.from.startsWith(`${d}/`) && !e.to.startsWith(`${d}/`)) && !e.typeOnly && !PLAIN_SHARED.includes(e.to))
      .map((e) => `${e.from} → ${e.to}`)
    expect(wrong).toEqual([])
    // and those import nothing else: no package, nothing of src outside the list
    for (const file of PLAIN_SHARED) {
      const text = readFileSync(join(ROOT, file), 'utf8')
      const specs = [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2])
      expect(specs.filter((s) => !s.startsWith('.') || !PLAIN_SHARED.includes(resolveSpec(file, s) ?? s)), file).toEqual([])
    }
  })

  it('no module imports in a circle (type imports included)', () => {
    const graph = new Map<string, Set<string>>()
    for (const e of all) {
      if (!graph.has(e.from)) graph.set(e.from, new Set())
      graph.get(e.from)!.add(e.to)
    }
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([])
  })

  it('no layer or engine depends on another in a circle', () => {
    const graph = new Map<string, Set<string>>()
    for (const e of all) {
      const a = unitOf(e.from)
      const b = unitOf(e.to)
      if (a === b) continue
      if (!graph.has(a)) graph.set(a, new Set())
      graph.get(a)!.add(b)
    }
    expect(cycles(graph).map((c) => c.join(' → '))).toEqual([])
  })

  const SQL = /\b(?:SELECT\s+[\w*(][\s\S]{0,200}?\bFROM|INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(?:VIRTUAL\s+|UNIQUE\s+)?(?:TABLE|INDEX|TRIGGER|VIEW)|PRAGMA\s+\w+)\b/

  it('only src/storage speaks SQL', () => {
    const wrong: string[] = []
    for (const layer of LAYERS) {
      if (layer.name === 'storage') continue
      for (const file of files(layer.dir)) {
        const text = readFileSync(join(ROOT, file), 'utf8')
        for (const m of text.matchAll(/(['"`])((?:(?!\1)[\s\S]){8,}?)\1/g)) {
          if (SQL.test(m[2])) wrong.push(`${file}: ${m[2].slice(0, 60).replace(/\s+/g, ' ')}`)
        }
      }
    }
    expect(wrong).toEqual([])
  })

  it('nothing below the faces touches process or the console', () => {
    const wrong: string[] = []
    for (const layer of LAYERS) {
      if (layer.rank >= 4) continue
      for (const file of files(layer.dir)) {
        const code = readFileSync(join(ROOT, file), 'utf8')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/(^|[^:])\/\/.*$/gm, '$1')
        for (const m of code.matchAll(/\b(process|console)\s*\.\s*\w+/g)) wrong.push(`${relative(ROOT, join(ROOT, file))}: ${m[0]}`)
      }
    }
    expect(wrong).toEqual([])
  })
})
