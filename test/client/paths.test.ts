// The client's HTTP paths against the declarations (one contract per path): every method of
// MemClient sends its requests to a declared route, with the declared method.
import {describe, expect, it} from 'vitest'
import {MemClient} from '../../src/client/index.js'
import {declaredRoutes, mismatch} from '../helpers/routes.js'

/** What a method is called with here: any value does, as only the request it sends is looked at. */
const ID = 'memories/app-1a2b3c4d/insight/0123456789ab'

/** Runs every public method of a client whose fetch records the request and answers `{}`. */
async function requestsOfEachMethod(): Promise<Map<string, Array<{method: string; path: string}>>> {
  const sent = new Map<string, Array<{method: string; path: string}>>()
  let current = ''
  const fetch = (async (url: string | URL, init?: RequestInit) => {
    const u = new URL(String(url))
    sent.get(current)!.push({method: init?.method ?? 'GET', path: u.pathname})
    return new Response('{}', {status: 200, headers: {'content-type': 'application/json'}})
  }) as typeof globalThis.fetch
  const client = new MemClient('http://127.0.0.1:1', undefined, {fetch})
  // `request` sends to whatever route its caller names (remote mode sends each operation to its declared route: test/faces/cli/remote-mode.test.ts)
  const names = Object.getOwnPropertyNames(MemClient.prototype).filter((n) => !['constructor', 'close', 'send', 'getJson', 'request'].includes(n))
  for (const name of names) {
    current = name
    sent.set(name, [])
    const fn = (client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]
    try {
      await fn.call(client, ID, ID, 'shared', 'x', 'y')
    } catch {
      // the answer `{}` is not what every method reads: only the request matters here
    }
  }
  return sent
}

describe('the client\'s paths (src/client) are declared routes', () => {
  it('every method sends to a route the server declares, with the declared method', async () => {
    const routes = await declaredRoutes()
    const sent = await requestsOfEachMethod()
    expect(sent.size).toBeGreaterThan(30)
    const wrong: string[] = []
    for (const [name, requests] of sent) {
      if (requests.length === 0) wrong.push(`${name}: sent no request (a method this test cannot check)`)
      for (const r of requests) {
        const why = mismatch(routes, r.method, r.path)
        if (why) wrong.push(`${name}: ${why}`)
      }
    }
    expect(wrong).toEqual([])
  })

  it('the check tells a wrong path and a wrong method from a declared route', async () => {
    const routes = await declaredRoutes()
    expect(mismatch(routes, 'GET', '/api/mem/recall')).toBeNull()
    expect(mismatch(routes, 'GET', `/api/mem/${encodeURIComponent(ID)}`)).toBeNull()
    expect(mismatch(routes, 'GET', '/api/health')).toBeNull()
    expect(mismatch(routes, 'GET', '/api/mem/recal/x')).toMatch(/no declared route/)
    expect(mismatch(routes, 'GET', '/api/mem/feedback')).toMatch(/declared route takes POST/)
    expect(mismatch(routes, 'POST', `/api/mem/history/${encodeURIComponent(ID)}`)).toMatch(/declared route takes GET/)
  })
})

describe('X-Mem-Repo: the repo each request is for, for a load balancer to route one repo to one replica', () => {
  /** The X-Mem-Repo header of each request a call sends. */
  async function headerOf(call: (client: MemClient) => Promise<unknown>): Promise<Array<string | null>> {
    const seen: Array<string | null> = []
    const fetch = (async (_url: string | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get('x-mem-repo'))
      return new Response('{}', {status: 200, headers: {'content-type': 'application/json'}})
    }) as typeof globalThis.fetch
    try {
      await call(new MemClient('http://127.0.0.1:1', undefined, {fetch}))
    } catch {
      // the answer `{}` is not what every method reads: only the request matters here
    }
    return seen
  }
  const TEAM_ID = 'memories/github.com~acme~app/insight/0123456789ab'

  it('names the repo of the query or the body, else the repo of the memory id in the path or body, as a team repo id', async () => {
    expect(await headerOf((c) => c.recall('github.com/acme/app', 'how do we deploy'))).toEqual(['github.com/acme/app'])
    expect(await headerOf((c) => c.store({repo: 'github.com/acme/app', content: 'Deploys go out on Tuesdays', type: 'insight'}))).toEqual(['github.com/acme/app'])
    for (const call of [(c: MemClient) => c.get(TEAM_ID), (c: MemClient) => c.history(TEAM_ID), (c: MemClient) => c.forget(TEAM_ID), (c: MemClient) => c.feedback(TEAM_ID, true), (c: MemClient) => c.linkMemory(TEAM_ID, TEAM_ID)]) {
      expect(await headerOf(call)).toEqual(['github.com/acme/app'])
    }
  })

  it('sends none for a request of no repo, or for a repo a header cannot carry', async () => {
    expect(await headerOf((c) => c.repos())).toEqual([null])
    expect(await headerOf((c) => c.health())).toEqual([null])
    // a folder named outside printable ASCII (fetch refuses such a header value): the request goes all the same
    expect(await headerOf((c) => c.recall('/home/zoë/app', 'tests'))).toEqual([null])
    expect(await headerOf((c) => c.recall('x'.repeat(513), 'tests'))).toEqual([null])
  })
})
