// What a web page cannot do to a mem service on loopback: DNS rebinding (a foreign Host), a
// cross-site state change (a foreign Origin), reading answers through CORS. And the bind rules.
import {describe, expect, it} from 'vitest'
import {createKey} from '../../../src/config/api-keys.js'
import {startServer} from '../../../src/faces/server/serve.js'
import {memRepo} from '../../helpers/mem.js'
import {memServer, rawRequest} from '../../helpers/server.js'

const JSON_HEADERS = {'content-type': 'application/json'}

describe('local-service protections', () => {
  it('refuses a request whose Host is not a loopback name (DNS rebinding), public routes included', async () => {
    const {url, server} = await memServer()
    for (const host of [`evil.example:${server.port}`, `evil.example`, `192.168.1.20:${server.port}`, `127.0.0.1.evil.example:${server.port}`, `localhost.evil.example:${server.port}`]) {
      for (const path of ['/api/health', '/api/mem/repos']) {
        const r = await rawRequest(`${url}${path}`, {headers: {host}})
        expect(r.status, `${host} ${path}`).toBe(403)
        expect(r.json()).toMatchObject({code: 'forbidden', error: expect.stringMatching(/Host/)})
      }
    }
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`, `[::1]:${server.port}`, `127.0.0.2:${server.port}`]) {
      expect((await rawRequest(`${url}/api/health`, {headers: {host}})).status, host).toBe(200)
    }
  })

  it('refuses a state-changing request from a foreign Origin and writes nothing', async () => {
    const {url, repo, server, client} = await memServer()
    const body = JSON.stringify({repo, content: 'planted by a web page', type: 'insight'})
    for (const origin of ['http://evil.example', 'https://127.0.0.1.evil.example', `http://localhost:${server.port + 1}`, 'null', `https://127.0.0.1:${server.port}`]) {
      for (const [method, path] of [['POST', '/api/mem'], ['PUT', '/api/mem/memories%2Fx%2Finsight%2Fabcdefabcdef'], ['DELETE', '/api/mem/memories%2Fx%2Finsight%2Fabcdefabcdef'], ['POST', '/api/mem/feedback']]) {
        const r = await rawRequest(`${url}${path}`, {method, headers: {...JSON_HEADERS, origin}, body})
        expect(r.status, `${origin} ${method} ${path}`).toBe(403)
        expect(r.json()).toMatchObject({code: 'forbidden', error: expect.stringMatching(/origin/)})
      }
    }
    // a form-style "simple" request (text/plain, no preflight) cannot smuggle JSON in either
    const simple = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: {'content-type': 'text/plain', origin: 'http://evil.example'}, body})
    expect(simple.status).toBe(403)
    expect((await client().stats(repo)).total).toBe(0)

    // the service's own origin (its future web UI) and tools that send no Origin may write
    const own = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: {...JSON_HEADERS, origin: url}, body})
    expect(own.status).toBe(201)
    const viaLocalhost = await rawRequest(`${url}/api/mem`, {
      method: 'POST',
      headers: {...JSON_HEADERS, host: `localhost:${server.port}`, origin: `http://localhost:${server.port}`},
      body: JSON.stringify({repo, content: 'stored from the UI on localhost', type: 'insight'}),
    })
    expect(viaLocalhost.status).toBe(201)
    expect((await client().stats(repo)).total).toBe(2)
  })

  it('sends no CORS headers: a cross-origin read or preflight gets nothing a browser would accept', async () => {
    const {url} = await memServer()
    const read = await rawRequest(`${url}/api/health`, {headers: {origin: 'http://evil.example'}})
    expect(read.status).toBe(200)
    expect(read.headers['access-control-allow-origin']).toBeUndefined()
    const preflight = await rawRequest(`${url}/api/mem`, {
      method: 'OPTIONS',
      headers: {origin: 'http://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type'},
    })
    expect(preflight.status).toBe(404)
    expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([])
  })

  it('refuses to listen beyond loopback while auth is off; with keys it listens and demands them', async () => {
    const {ctx, home} = memRepo()
    await expect(startServer({runtime: ctx, host: '0.0.0.0', port: 0, updateCheck: false})).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/Refusing to listen on 0\.0\.0\.0 while API key auth is off/),
    })

    const {key} = await createKey(home, {name: 'lan', scope: 'read', now: new Date()})
    const server = await startServer({runtime: ctx, host: '0.0.0.0', port: 0, updateCheck: false})
    try {
      const base = `http://127.0.0.1:${server.port}`
      // any Host is fine here (keys are the protection), but a key is always required
      expect((await rawRequest(`${base}/api/mem/repos`, {headers: {host: 'workstation.lan'}})).status).toBe(401)
      expect((await rawRequest(`${base}/api/mem/repos`, {headers: {host: 'workstation.lan', authorization: `Bearer ${key}`}})).status).toBe(200)
      // turning auth off in the config does not open a service bound beyond loopback
      const {readFileSync, writeFileSync} = await import('node:fs')
      const file = `${home}/config.yaml`
      writeFileSync(file, readFileSync(file, 'utf8').replace('enabled: true', 'enabled: false'))
      expect((await rawRequest(`${base}/api/mem/repos`)).status).toBe(401)
    } finally {
      await server.close()
    }
  })

  it('a broken user config fails closed: protected routes answer an error, never open up', async () => {
    const {url, home, client} = await memServer()
    await createKey(home, {name: 'k', scope: 'read', now: new Date()})
    const {writeFileSync} = await import('node:fs')
    writeFileSync(`${home}/config.yaml`, 'auth: [unclosed\n')
    const r = await rawRequest(`${url}/api/mem/repos`)
    expect(r.status).toBe(503)
    expect(r.json()).toMatchObject({code: 'unavailable', error: expect.stringMatching(/config\.yaml is not valid/)})
    expect(await client().isAvailable()).toBe(true)
  })
})
