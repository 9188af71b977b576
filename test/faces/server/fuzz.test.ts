// Property-based fuzzing of every route's parameters and bodies (fast-check): bad input is a 4xx
// with a clear message, never a 5xx, never an absolute path the caller did not send, and no file
// is ever written outside the repo's .mem/ and mem's home folder.
import {existsSync, mkdirSync, readdirSync, statSync} from 'node:fs'
import {homedir, tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import fc from 'fast-check'
import type {InjectOptions} from 'light-my-request'
import {describe, expect, it} from 'vitest'
import {store} from '../../../src/operations/store.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {buildServer} from '../../../src/faces/server/build-server.js'
import {fixedClock, storedId, tempDir} from '../../helpers/mem.js'

/** A method as the server's inject takes it. */
type HTTPMethods = NonNullable<InjectOptions['method']>

/** Every file and folder under `dir`, except the subtrees `skip` (mem's own places). */
function tree(dir: string, skip: string[]): string[] {
  const out: string[] = []
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name)
      if (skip.some((s) => full === s || full.startsWith(`${s}/`))) continue
      out.push(full)
      if (statSync(full).isDirectory()) walk(full)
    }
  }
  walk(dir)
  return out.sort()
}

interface Route {
  method: HTTPMethods
  path: string
  params: Array<{name: string; in: 'path' | 'query'; type: string}>
  body: string[]
}

describe('fuzzing every route', () => {
  it('answers any parameters and bodies without a 5xx, a leaked path, or a file outside .mem/ and the home folder', async () => {
    const base = tempDir('mem-fuzz-')
    const home = join(base, 'home')
    const repo = join(base, 'repo')
    const plain = join(base, 'plain')
    const cwd = join(base, 'cwd', 'deeper')
    for (const d of [join(repo, '.git'), plain, cwd]) mkdirSync(d, {recursive: true})
    const clock = fixedClock()
    // the server's own working directory, where a relative path would land
    const previousCwd = process.cwd()
    process.chdir(cwd)
    const ctx = openMem({home, now: clock, longLived: true})
    const app = buildServer({ctx, uiDir: false})
    try {
      await app.ready()
      const id = storedId(await store(ctx, {repo, content: 'The release job runs from main only.', type: 'procedure'}))
      const repoId = id.split('/')[1]
      const otherId = id.replace(`/${repoId}/`, '/some-other-repo/')

      const doc = (await app.inject({method: 'GET', url: '/api/openapi.json'})).json()
      const routes: Route[] = []
      for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(methods)) {
          routes.push({
            method: method.toUpperCase() as HTTPMethods,
            path,
            params: (op.parameters ?? []).map((p: any) => ({name: p.name, in: p.in, type: p.schema?.type ?? 'string'})),
            body: op.requestBody ? Object.keys(op.requestBody.content['application/json'].schema.properties ?? {}) : [],
          })
        }
      }
      expect(routes.length).toBeGreaterThan(35)

      const hostilePaths = ['/', '/etc', '/tmp', tmpdir(), homedir(), '..', '../..', '.', '~', '~/x', plain, join(base, 'nope'), join(repo, '..'), `${repo}/../plain`, 'C:\\proj', 'C--proj', 'a/b', '\\\\server\\share']
      const repoValue = fc.oneof(
        fc.constantFrom(repo, repoId, ...hostilePaths, '', ' ', 'x'.repeat(5_000), `a\u0000b`, 'memories', 'layer-x', 'a:b', 'CON', '<x>'),
        fc.string({maxLength: 40}),
        fc.string({unit: 'grapheme', maxLength: 20}),
      )
      const idValue = fc.oneof(
        fc.constantFrom(id, otherId, 'memories/../observation/000000000000', 'memories/./insight/0123456789ab', 'memories/..%2F..%2Fetc/insight/0123456789ab', `memories/${repoId}/insight/zzzzzzzzzzzz`, 'memories/layer-x/insight/0123456789ab', ''),
        fc.string({maxLength: 60}),
      )
      const scalar = fc.oneof(fc.string({maxLength: 30}), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('-1', '1e309', 'NaN', 'true', 'True', '0', '999999999999999999'))
      const any = fc.oneof(scalar, fc.jsonValue({maxDepth: 2}))
      const valueFor = (name: string, type: string): fc.Arbitrary<unknown> => {
        if (name === 'repo' || name === 'targetRepo') return repoValue
        if (name === 'id' || name === 'memoryId' || name === 'targetId' || name === 'supersedes') return fc.oneof(idValue, any)
        if (name === 'source') return fc.oneof(fc.constantFrom(plain, repo, join(base, 'nope'), 'relative/dir', 'https://user:pw@example.invalid/x.git', ''), any)
        if (name === 'data') return fc.oneof(fc.base64String({maxLength: 200}), any)
        if (name === 'type') return fc.oneof(fc.constantFrom('observation', 'insight', 'procedure', 'heuristic', 'shared', 'base', 'local', 'Insight'), any)
        if (name === 'content' || name === 'note' || name === 'q') return fc.oneof(fc.string({maxLength: 200}), fc.constant('y'.repeat(20_000)), any)
        if (type === 'integer' || type === 'number' || type === 'boolean') return fc.oneof(scalar, fc.integer({min: -5, max: 5_000}))
        return any
      }
      const request = fc.constantFrom(...routes).chain((route) =>
        fc.record({
          route: fc.constant(route),
          params: fc.tuple(...route.params.map((p) => fc.option(valueFor(p.name, p.type), {nil: undefined, freq: 4}))),
          body: fc.oneof(
            {weight: 5, arbitrary: fc.tuple(...route.body.map((name) => fc.option(valueFor(name, 'string'), {nil: undefined, freq: 4})))},
            {weight: 1, arbitrary: any},
          ),
        }),
      )

      const sentinels = ['/.mem', '/etc/.mem', '/tmp/.mem', join(tmpdir(), '.mem'), join(homedir(), '.mem'), join(previousCwd, '.mem'), resolve(previousCwd, '..', '.mem')].filter((p) => !existsSync(p))
      const before = tree(base, [home, join(repo, '.mem')])
      let sent = 0
      await fc.assert(
        fc.asyncProperty(request, async ({route, params, body}) => {
          let url = route.path
          const query = new URLSearchParams()
          route.params.forEach((p, i) => {
            const v = params[i]
            const text = typeof v === 'string' ? v : JSON.stringify(v)
            if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(text ?? 'x'))
            else if (v !== undefined) query.set(p.name, text)
          })
          const qs = query.toString()
          let payload: string | undefined
          if (route.method !== 'GET') {
            if (Array.isArray(body) && route.body.length > 0) {
              const obj: Record<string, unknown> = {}
              route.body.forEach((name, i) => {
                if (body[i] !== undefined) obj[name] = body[i]
              })
              payload = JSON.stringify(obj)
            } else {
              payload = JSON.stringify(body)
            }
          }
          const r = await app.inject({method: route.method, url: qs ? `${url}?${qs}` : url, payload, headers: payload === undefined ? {} : {'content-type': 'application/json'}})
          sent++
          const what = `${route.method} ${url}?${qs} ${payload?.slice(0, 300)} → ${r.statusCode} ${r.body.slice(0, 300)}`
          expect(r.statusCode, what).toBeLessThan(500)
          if (r.statusCode >= 400) {
            const err = r.json()
            expect(typeof err.error, what).toBe('string')
            expect(err.error.length, what).toBeGreaterThan(10)
            // no path of mem's own that the caller did not send, and no raw Node error code
            const sentText = `${url} ${qs} ${payload ?? ''}`
            if (!sentText.includes(home)) expect(r.body, what).not.toContain(home)
            expect(err.error, what).not.toMatch(/\b(?:ENOENT|EACCES|ENAMETOOLONG|ENOTDIR|EISDIR|EINVAL|ERR_[A-Z_]+)\b/)
          }
        }),
        {numRuns: Number(process.env.MEM_FUZZ_RUNS ?? 600), ...(process.env.MEM_FUZZ_SEED === "random" ? {} : {seed: 20261123})},
      )
      expect(sent).toBe(Number(process.env.MEM_FUZZ_RUNS ?? 600))
      expect(tree(base, [home, join(repo, '.mem')])).toEqual(before)
      for (const p of sentinels) expect(existsSync(p), p).toBe(false)
    } finally {
      process.chdir(previousCwd)
      await app.close()
      await ctx.close()
    }
  }, 120_000)
})
