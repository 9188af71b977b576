// Sec-Fetch-Site beside Origin (issue 28, item 8): a browser marks where a request comes from
// even when Origin is dropped (an extension, a privacy setting); a state change marked as from
// another site is refused, whatever Origin says, unless that Origin is a loopback one (the
// Origin rule then decides). Through app.inject.
import {afterEach, describe, expect, it} from 'vitest'
import {openMem} from '../../../src/runtime/open-mem.js'
import {buildServer} from '../../../src/faces/server/build-server.js'
import {memRepo} from '../../helpers/mem.js'

const HOST = '127.0.0.1:7373'
const opened: Array<{close(): Promise<unknown>}> = []
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close()
})

async function setup() {
  const base = memRepo()
  const ctx = openMem({home: base.home, now: base.clock, longLived: true})
  const app = buildServer({ctx, uiDir: false, maintenance: undefined})
  await app.ready()
  opened.push(app, ctx)
  const stored = async () => (await app.inject({method: 'GET', url: `/api/mem/stats?repo=${encodeURIComponent(base.repo)}`, headers: {host: HOST}})).json().total as number
  const store = (headers: Record<string, string>, content = 'The deploy job runs on Fridays') =>
    app.inject({method: 'POST', url: '/api/mem', headers: {host: HOST, 'content-type': 'application/json', ...headers}, payload: {repo: base.repo, content, type: 'insight'}})
  return {...base, app, stored, store}
}

describe('Sec-Fetch-Site on state-changing requests', () => {
  it('refuses cross-site and same-site from a foreign or missing Origin, on POST, PUT and DELETE, and writes nothing', async () => {
    const {app, repo, stored, store} = await setup()
    const id = (await store({})).json().id as string
    expect(await stored()).toBe(1)
    const path = `/api/mem/${encodeURIComponent(id)}`
    for (const site of ['cross-site', 'same-site', 'Cross-Site', ' same-site ']) {
      for (const origin of [undefined, 'http://evil.example', 'https://mem.example.com', 'null']) {
        const headers = {host: HOST, 'sec-fetch-site': site, 'content-type': 'application/json', ...(origin ? {origin} : {})}
        for (const [method, url, payload] of [
          ['POST', '/api/mem', {repo, content: `planted by ${site} ${origin}`, type: 'insight'}],
          ['PUT', path, {content: 'rewritten by a page'}],
          ['DELETE', path, undefined],
        ] as const) {
          const r = await app.inject({method, url, headers, ...(payload ? {payload} : {})})
          expect(r.statusCode, `${method} ${site} ${origin}`).toBe(403)
          expect(r.json()).toMatchObject({code: 'forbidden', error: expect.stringContaining(`Sec-Fetch-Site: ${site.trim().toLowerCase()}`), hint: expect.stringMatching(/another site|other sites/)})
        }
      }
    }
    // nothing written, nothing forgotten or edited
    expect(await stored()).toBe(1)
    const still = (await app.inject({method: 'GET', url: path, headers: {host: HOST}})).json()
    expect([still.content, still.forgottenAt, still.supersededBy]).toEqual(['The deploy job runs on Fridays', null, null])
  })

  it('allows same-origin and none, and reads (GET) whatever the header says', async () => {
    const {app, repo, stored, store} = await setup()
    expect((await store({'sec-fetch-site': 'same-origin', origin: `http://${HOST}`})).statusCode).toBe(201)
    // typed in the address bar or sent by a tool: no Origin
    expect((await store({'sec-fetch-site': 'none'}, 'CI runs on Node 20')).statusCode).toBe(201)
    expect((await store({'sec-fetch-site': 'same-origin'}, 'The API listens on port 3000')).statusCode).toBe(201)
    expect(await stored()).toBe(3)
    const read = await app.inject({method: 'GET', url: `/api/mem/recall?repo=${encodeURIComponent(repo)}&q=deploy`, headers: {host: HOST, 'sec-fetch-site': 'cross-site', origin: 'http://evil.example'}})
    expect(read.statusCode).toBe(200)
  })

  it('leaves a loopback Origin to the Origin rule: its own origin passes, another loopback origin is refused', async () => {
    const {stored, store} = await setup()
    // same-site from another port of this host: Origin is not this service's, refused by the Origin rule
    const other = await store({'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:5173'})
    expect(other.statusCode).toBe(403)
    expect(other.json().error).toMatch(/from origin http:\/\/127\.0\.0\.1:5173 \(another site\)/)
    const localhost = await store({'sec-fetch-site': 'cross-site', origin: 'http://localhost:7373'})
    expect(localhost.statusCode).toBe(403)
    expect(localhost.json().error).toMatch(/origin http:\/\/localhost:7373/)
    // the service's own origin, whatever the browser's marking of a site says
    expect((await store({'sec-fetch-site': 'same-site', origin: `http://${HOST}`})).statusCode).toBe(201)
    expect(await stored()).toBe(1)
  })

  it('behaves as before without the header: no Origin passes, a foreign Origin is refused', async () => {
    const {stored, store} = await setup()
    expect((await store({})).statusCode).toBe(201)
    const foreign = await store({origin: 'http://evil.example'}, 'CI runs on Node 22')
    expect(foreign.statusCode).toBe(403)
    expect(foreign.json().error).toMatch(/origin http:\/\/evil\.example/)
    // an unknown marking is not a site: Origin decides
    expect((await store({'sec-fetch-site': 'bogus'}, 'CI runs on Node 24')).statusCode).toBe(201)
    expect(await stored()).toBe(2)
  })
})
