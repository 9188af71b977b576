// The web UI's HTTP paths against the declarations (one contract per path): every request the UI's
// source makes (api, apiFile, apiWithStatus, memoryPath, the route probes of useRoute and
// routeAvailable, the OpenAPI fetch) goes to a declared route with the declared method. Read from
// the source with the TypeScript parser: every '/api/…' string in src/faces/ui must be one of
// these, so a path written another way fails here until this test learns it.
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import ts from 'typescript'
import {describe, expect, it} from 'vitest'
import {OPTIONAL_ROUTES} from '../../../src/faces/ui/api.js'
import {declaredRoutes, mismatch, pattern, type DeclaredRoute} from '../../helpers/routes.js'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const UI = join(ROOT, 'src', 'faces', 'ui')

/** The calls that send a request: path first, options (with `method`) second. */
const SENDERS = new Set(['api', 'apiFile', 'apiWithStatus', 'fetch'])
/** The calls that ask whether a route exists: method first, path second. */
const PROBES = new Set(['useRoute', 'routeAvailable'])

interface Use {
  file: string
  line: number
  method: string
  path: string
}

function sources(dir: string): string[] {
  return readdirSync(dir, {withFileTypes: true}).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : []))
}

const calleeName = (call: ts.CallExpression): string | undefined => (ts.isIdentifier(call.expression) ? call.expression.text : undefined)

/** A string or template (each substitution one path segment) as a request path; undefined when it is something else. */
function literalPath(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => `x${s.literal.text}`).join('')
  return undefined
}

/** The path a sender's first argument comes to, with every '/api' literal it used; null for a wrapper's own parameter. */
function pathOf(node: ts.Expression, file: ts.SourceFile, used: Set<ts.Node>): string | null | undefined {
  const direct = literalPath(node)
  if (direct !== undefined) {
    used.add(node)
    return direct
  }
  // memoryPath(id, suffix?): `/api/mem/<id>` and the suffix (src/faces/ui/api.ts)
  if (ts.isCallExpression(node) && calleeName(node) === 'memoryPath') {
    const suffix = node.arguments[1] ? literalPath(node.arguments[1]) : ''
    return suffix === undefined ? undefined : `/api/mem/x${suffix}`
  }
  // withQuery(path, query): the path with its query string (src/faces/ui/api.ts)
  if (ts.isCallExpression(node) && calleeName(node) === 'withQuery' && node.arguments[0]) return pathOf(node.arguments[0], file, used)
  if (ts.isIdentifier(node)) {
    // a variable or parameter of the function the call is in: its initializer, or the fallback of
    // `the server's answer ?? '/api/…'`; a parameter is a wrapper's (null)
    let found: ts.VariableDeclaration | ts.ParameterDeclaration | undefined
    const visit = (n: ts.Node) => {
      if ((ts.isVariableDeclaration(n) || ts.isParameter(n)) && ts.isIdentifier(n.name) && n.name.text === node.text) found ??= n
      ts.forEachChild(n, visit)
    }
    for (let scope: ts.Node | undefined = ts.findAncestor(node, ts.isFunctionLike); scope && !found; scope = ts.findAncestor(scope.parent, ts.isFunctionLike)) visit(scope)
    if (!found) visit(file)
    const decl = found as ts.VariableDeclaration | ts.ParameterDeclaration | undefined
    if (!decl) return undefined
    if (ts.isParameter(decl)) return null
    const init = decl.initializer
    if (!init) return undefined
    return ts.isBinaryExpression(init) && init.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ? pathOf(init.right, file, used) : pathOf(init, file, used)
  }
  return undefined
}

/** The `method` of a sender's options object; GET when it has none. */
function methodOf(options: ts.Expression | undefined): string | undefined {
  if (!options) return 'GET'
  if (!ts.isObjectLiteralExpression(options)) return undefined
  for (const p of options.properties) {
    if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === 'method') return ts.isStringLiteral(p.initializer) ? p.initializer.text : undefined
    if ((ts.isShorthandPropertyAssignment(p) && p.name.text === 'method') || ts.isSpreadAssignment(p)) return undefined
  }
  return 'GET'
}

function uiRequests(): {uses: Use[]; unplaced: string[]} {
  const uses: Use[] = []
  const unplaced: string[] = []
  for (const path of sources(UI)) {
    const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
    const rel = relative(ROOT, path)
    const used = new Set<ts.Node>()
    const where = (n: ts.Node) => `${rel}:${file.getLineAndCharacterOfPosition(n.getStart()).line + 1}`
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n)) {
        const name = calleeName(n)
        if (name && SENDERS.has(name) && n.arguments[0]) {
          const p = pathOf(n.arguments[0], file, used)
          const method = methodOf(n.arguments[1])
          // a wrapper's own parameter (send's fetch) is checked where the wrapper is called
          if (p === null) {
            // nothing to check here
          } else if (p === undefined || method === undefined) unplaced.push(`${where(n)}: ${n.getText().slice(0, 80)} (a path or method this test cannot read)`)
          else uses.push({file: rel, line: file.getLineAndCharacterOfPosition(n.getStart()).line + 1, method, path: p})
        }
        if (name && PROBES.has(name) && n.arguments.length === 2) {
          const [m, p] = n.arguments
          if (ts.isStringLiteral(m) && literalPath(p) !== undefined) {
            used.add(p)
            uses.push({file: rel, line: file.getLineAndCharacterOfPosition(n.getStart()).line + 1, method: m.text, path: literalPath(p)!})
          } else if (!(ts.isIdentifier(m) && ts.isIdentifier(p))) unplaced.push(`${where(n)}: ${n.getText().slice(0, 80)}`)
        }
      }
      ts.forEachChild(n, visit)
    }
    visit(file)
    // every '/api…' string of the file was read as a request above (but memoryPath's own template)
    const strays = (n: ts.Node) => {
      const text = literalPath(n)
      if (text !== undefined && text.startsWith('/api') && !used.has(n)) {
        const inMemoryPath = ts.findAncestor(n, (a) => ts.isFunctionDeclaration(a) && a.name?.text === 'memoryPath')
        if (!inMemoryPath) unplaced.push(`${where(n)}: '${text}' is not sent through a call this test reads`)
      }
      ts.forEachChild(n, strays)
    }
    strays(file)
  }
  return {uses, unplaced}
}

describe('the web UI\'s paths (src/faces/ui) are declared routes', () => {
  it('every request the UI makes goes to a route the server declares, with the declared method', async () => {
    const routes = await declaredRoutes()
    const {uses, unplaced} = uiRequests()
    expect(unplaced).toEqual([])
    // the UI's pages make this many requests today: a reader that found none would pass anything
    expect(uses.length).toBeGreaterThan(25)
    expect(uses.map((u) => `${u.method} ${u.path}`)).toEqual(expect.arrayContaining(['PUT /api/mem/x', 'GET /api/maintenance/runs/x', 'POST /api/mem/packs/import', 'GET /api/openapi.json']))
    const wrong = uses.map((u) => mismatch(routes, u.method, u.path) && `${u.file}:${u.line}: ${mismatch(routes, u.method, u.path)}`).filter(Boolean)
    expect(wrong).toEqual([])
  })
})

/**
 * The routes every mem server has had (the spec's memory, health and maintenance routes): the UI
 * sends to these without asking. Any other route the UI requests may be missing from an older or
 * smaller server, so it must be in the UI's OPTIONAL_ROUTES, which it checks against the server's
 * OpenAPI document first.
 */
const ALWAYS_THERE = new Set([
  'GET /api/health',
  'GET /api/status',
  'GET /api/openapi.json',
  'POST /api/mem',
  'GET /api/mem/recall',
  'GET /api/mem/context',
  'GET /api/mem/context/preview',
  'GET /api/mem/stats',
  'GET /api/mem/browse',
  'GET /api/mem/repos',
  'POST /api/mem/feedback',
  'GET /api/mem/history/:id',
  'GET /api/mem/:id',
  'PUT /api/mem/:id',
  'DELETE /api/mem/:id',
  'POST /api/mem/consolidate',
  'POST /api/maintenance',
  'GET /api/maintenance/runs/:id',
])

/** The declared route a request goes to, as `METHOD /path` with its parameters as `:name`; undefined when none. */
function routeOf(routes: DeclaredRoute[], method: string, path: string): string | undefined {
  const exact = routes.filter((r) => r.path === path && r.method === method)
  const found = exact[0] ?? routes.find((r) => r.method === method && pattern(r.path).test(path))
  return found && `${found.method} ${found.path.replace(/\{(\w+)\}/g, ':$1')}`
}

describe("the web UI's optional routes (OPTIONAL_ROUTES in src/faces/ui/api.ts) against the declarations", () => {
  it('every route the UI requests is one every server has or one it checks first; each optional route is declared and requested', async () => {
    const routes = await declaredRoutes()
    const {uses} = uiRequests()
    const requested = new Set(uses.map((u) => routeOf(routes, u.method, u.path)).filter((r): r is string => r !== undefined))
    expect(requested.size).toBeGreaterThan(20)
    // a route neither always there nor checked first: a server without it would answer the page with a 404
    const unchecked = [...requested].filter((r) => !ALWAYS_THERE.has(r) && !OPTIONAL_ROUTES.has(r))
    expect(unchecked, 'add these to OPTIONAL_ROUTES in src/faces/ui/api.ts (or, if every mem server has them, to ALWAYS_THERE here)').toEqual([])
    // the list holds declared routes without parameters (the UI compares the path it sends), each one the UI requests
    const declared = new Set(routes.map((r) => `${r.method} ${r.path}`))
    expect([...OPTIONAL_ROUTES].filter((r) => !declared.has(r) || r.includes(':') || !requested.has(r))).toEqual([])
    // and none of them is also one every server has
    expect([...OPTIONAL_ROUTES].filter((r) => ALWAYS_THERE.has(r))).toEqual([])
  })
})
