// Scopes are decided on the route the router matched, never on the raw URL: every route of the
// service, spelled literally, percent-encoded and case-varied, at every scope.
import type {InjectOptions} from 'light-my-request'
import {describe, expect, it} from 'vitest'
import {createKey, KeyRing} from '../../../src/config/api-keys.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {buildServer} from '../../../src/faces/server/build-server.js'
import {requiredAccess} from '../../../src/faces/server/route.js'
import {memRepo} from '../../helpers/mem.js'

/** A method as the server's inject takes it. */
type HTTPMethods = NonNullable<InjectOptions['method']>

type Scope = 'read' | 'write' | 'admin'
const RANK: Record<Scope | 'none', number> = {none: 0, read: 1, write: 2, admin: 3}
const NEED_RANK = {public: 0, read: 1, write: 2, admin: 3} as const

/** Percent-encodes the letter at `at` of every segment (what the router decodes back). */
function encodeLetters(path: string, pick: (segment: string) => number, upper: boolean): string {
  return path
    .split('/')
    .map((segment) => {
      const i = pick(segment)
      if (i < 0 || !/[a-z]/i.test(segment[i] ?? '')) return segment
      const hex = segment.charCodeAt(i).toString(16)
      return `${segment.slice(0, i)}%${upper ? hex.toUpperCase() : hex}${segment.slice(i + 1)}`
    })
    .join('/')
}

/** Spellings the router takes for the same route (it decodes letters before matching). */
function encodedSpellings(path: string): string[] {
  const letter = (s: string) => [...s].findIndex((c) => /[a-z]/i.test(c))
  const lastLetter = (s: string) => {
    for (let i = s.length - 1; i >= 0; i--) if (/[a-z]/i.test(s[i])) return i
    return -1
  }
  const all = path
    .split('/')
    .map((s) => (s.startsWith('memories%2F') ? s : [...s].map((c) => (/[a-z]/i.test(c) ? `%${c.charCodeAt(0).toString(16)}` : c)).join('')))
    .join('/')
  return [...new Set([encodeLetters(path, letter, false), encodeLetters(path, letter, true), encodeLetters(path, lastLetter, false), all])].filter((p) => p !== path)
}

/** Case variants of a path: the router is case-sensitive, so these match no route (or another one). */
function caseSpellings(path: string): string[] {
  const upper = path.replace(/\/api\//, '/API/')
  const title = path.replace(/\/([a-z])/g, (_, c: string) => `/${c.toUpperCase()}`)
  return [...new Set([upper, title, path.toUpperCase()])].filter((p) => p !== path)
}

async function setup() {
  const base = memRepo()
  const now = new Date()
  const keys: Record<Scope, string> = {
    read: (await createKey(base.home, {name: 'reader', scope: 'read', now})).key,
    write: (await createKey(base.home, {name: 'writer', scope: 'write', now})).key,
    admin: (await createKey(base.home, {name: 'root', scope: 'admin', now})).key,
  }
  const ctx = openMem({home: base.home, now: base.clock, longLived: true})
  const app = buildServer({ctx, keys: await KeyRing.open(base.home), uiDir: false, maintenance: undefined})
  await app.ready()
  return {
    ...base,
    app,
    keys,
    async close() {
      await app.close()
      await ctx.close()
    },
  }
}

describe('scopes on the routed path', () => {
  it('every route, literally and percent-encoded, gets the decision of its matched route at every scope', async () => {
    const s = await setup()
    try {
      const doc = (await s.app.inject({method: 'GET', url: '/api/openapi.json', headers: {authorization: `Bearer ${s.keys.read}`}})).json()
      const routes: Array<{method: HTTPMethods; path: string; pattern: string}> = []
      for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
        const pattern = path.replace(/\{(\w+)\}/g, ':$1')
        const concrete = path
          .replace('{id}', encodeURIComponent(`memories/x/insight/abcdefabcdef`))
          .replace(/\{(\w+)\}/g, 'zz')
        for (const method of Object.keys(methods)) routes.push({method: method.toUpperCase() as HTTPMethods, path: concrete, pattern})
      }
      // and the routes outside the OpenAPI document
      routes.push({method: 'POST', path: '/mcp', pattern: '/mcp'}, {method: 'GET', path: '/ui', pattern: '/ui'})
      expect(routes.length).toBeGreaterThan(40)
      expect(routes.some((r) => r.pattern === '/api/maintenance')).toBe(true)

      let checked = 0
      for (const route of routes) {
        const need = requiredAccess(route.method, route.pattern)
        for (const spelling of [route.path, ...encodedSpellings(route.path)]) {
          for (const who of ['none', 'read', 'write', 'admin'] as const) {
            const headers: Record<string, string> = {'content-type': 'application/json'}
            if (who !== 'none') headers.authorization = `Bearer ${s.keys[who]}`
            const r = await s.app.inject({method: route.method, url: `${spelling}?repo=nosuchrepo`, headers, payload: route.method === 'GET' ? undefined : '{}'})
            const refused = r.statusCode === 401 || (r.statusCode === 403 && r.json().required !== undefined)
            const allowed = RANK[who] >= NEED_RANK[need]
            expect(refused, `${route.method} ${spelling} as ${who} (needs ${need}): ${r.statusCode} ${r.body.slice(0, 200)}`).toBe(!allowed)
            // the router took every spelling as the route itself (not as a missing route)
            if (allowed && r.statusCode === 404) expect(r.json().error, `${route.method} ${spelling}`).not.toMatch(/^No route/)
            checked++
          }
        }
      }
      expect(checked).toBeGreaterThan(500)
    } finally {
      await s.close()
    }
  })

  it('the reported spellings: a write key cannot run maintenance, a read key cannot poll a run', async () => {
    const s = await setup()
    try {
      for (const url of ['/api/%6daintenance', '/api/maintenanc%65', '/api/%6Daintenance', '/%61pi/maintenance', '/api/maintenance']) {
        for (const who of ['read', 'write'] as const) {
          const r = await s.app.inject({method: 'POST', url: `${url}?repo=${encodeURIComponent(s.repo)}`, headers: {authorization: `Bearer ${s.keys[who]}`}})
          expect(r.statusCode, `${url} as ${who}`).toBe(403)
          expect(r.json()).toMatchObject({code: 'forbidden', required: 'admin'})
        }
        const admin = await s.app.inject({method: 'POST', url: `${url}?repo=${encodeURIComponent(s.repo)}`, headers: {authorization: `Bearer ${s.keys.admin}`}})
        expect(admin.statusCode, url).toBe(200)
        expect(admin.json().stages).toHaveLength(7)
      }
      for (const url of ['/api/%6daintenance/runs/abc', '/api/maintenance/run%73/abc', '/api/maintenance/runs/abc']) {
        const r = await s.app.inject({method: 'GET', url, headers: {authorization: `Bearer ${s.keys.read}`}})
        expect(r.statusCode, url).toBe(403)
        expect((await s.app.inject({method: 'GET', url, headers: {authorization: `Bearer ${s.keys.admin}`}})).statusCode, url).toBe(404)
      }
    } finally {
      await s.close()
    }
  })

  it('case-varied spellings match no route: never answered 2xx below the route\'s scope', async () => {
    const s = await setup()
    try {
      for (const [method, path] of [['POST', '/api/maintenance'], ['GET', '/api/maintenance/runs/abc'], ['POST', '/api/mem'], ['GET', '/api/mem/recall']] as const) {
        const need = requiredAccess(method, path.replace('/abc', '/:id'))
        for (const spelling of caseSpellings(path)) {
          for (const who of ['none', 'read', 'write'] as const) {
            const headers: Record<string, string> = who === 'none' ? {} : {authorization: `Bearer ${s.keys[who]}`}
            const r = await s.app.inject({method, url: `${spelling}?repo=x&q=y`, headers})
            if (RANK[who] < NEED_RANK[need]) expect(r.statusCode, `${method} ${spelling} as ${who}`).toBeGreaterThanOrEqual(400)
            // unmatched routes are never public: no key, no answer
            if (who === 'none') expect(r.statusCode, `${method} ${spelling}`).toBe(401)
          }
        }
      }
    } finally {
      await s.close()
    }
  })
})
