// The web UI's static serving by `mem serve`: the page and its hashed assets, cache headers, the
// Content-Security-Policy, public access with auth on, the loopback Host guard, and a clear 503
// when the UI was not built. Needs the built UI (dist/ui): `npm test` builds first.
import {mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it, onTestFinished} from 'vitest'
import {createKey} from '../../../src/config/api-keys.js'
import {buildServer} from '../../../src/faces/server/build-server.js'
import {defaultUiDir, UI_CSP} from '../../../src/faces/server/ui.js'
import {memRepo} from '../../helpers/mem.js'
import {memServer, rawRequest} from '../../helpers/server.js'

const UI_DIR = join(import.meta.dirname, '..', '..', '..', 'dist', 'ui')

function assets() {
  const html = readFileSync(join(UI_DIR, 'index.html'), 'utf8')
  const js = /src="\/ui\/assets\/(app-[A-Z0-9]+\.js)"/.exec(html)?.[1]
  const css = /href="\/ui\/assets\/(app-[A-Z0-9]+\.css)"/.exec(html)?.[1]
  return {html, js, css}
}

describe('web UI static files', () => {
  it('finds dist/ui from the module, whatever the working directory', () => {
    expect(defaultUiDir()).toBe(UI_DIR)
  })

  it('/ui, /ui/ and /ui/index.html serve the page (no-cache, strict CSP); hashed assets are immutable', async () => {
    const {url} = await memServer()
    const {html, js, css} = assets()
    expect(js, 'index.html names a hashed script').toBeTruthy()
    expect(css, 'index.html names a hashed stylesheet').toBeTruthy()
    for (const path of ['/ui', '/ui/', '/ui/index.html']) {
      const r = await rawRequest(`${url}${path}`)
      expect(r.status, path).toBe(200)
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(r.headers['cache-control']).toBe('no-cache')
      expect(r.headers['content-security-policy']).toBe(UI_CSP)
      expect(r.headers['x-content-type-options']).toBe('nosniff')
      expect(r.headers['x-frame-options']).toBe('DENY')
      expect(r.text).toBe(html)
    }
    expect(UI_CSP).toContain("script-src 'self'")
    expect(UI_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/)

    const script = await rawRequest(`${url}/ui/assets/${js}`)
    expect(script.status).toBe(200)
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/)
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(script.headers['content-security-policy']).toBe(UI_CSP)
    expect(script.text).toBe(readFileSync(join(UI_DIR, 'assets', js!), 'utf8'))
    const style = await rawRequest(`${url}/ui/assets/${css}`)
    expect(style.status).toBe(200)
    expect(style.headers['content-type']).toMatch(/^text\/css/)
    expect(style.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    // a conditional request revalidates with the ETag
    const again = await rawRequest(`${url}/ui/assets/${js}`, {headers: {'if-none-match': String(script.headers.etag)}})
    expect(again.status).toBe(304)
  })

  it('unknown UI paths and path tricks answer 404 JSON, never a file outside dist/ui/assets', async () => {
    const {url} = await memServer()
    for (const path of ['/ui/assets/nope.js', '/ui/nope', '/ui/assets/%2e%2e/%2e%2e/package.json', '/ui/assets/..%2f..%2fpackage.json']) {
      const r = await rawRequest(`${url}${path}`)
      expect([400, 403, 404], path).toContain(r.status)
      expect(r.text, path).not.toContain('"name": "mem"')
    }
    const r = await rawRequest(`${url}/ui/assets/nope.js`)
    expect(r.status).toBe(404)
    expect(r.json()).toMatchObject({code: 'not_found'})
  })

  it('is public with auth on (the API it calls is not), and keeps the loopback Host guard', async () => {
    const {url, home} = await memServer()
    await createKey(home, {name: 'ui', scope: 'read', now: new Date()})
    const {js} = assets()
    expect((await rawRequest(`${url}/ui`)).status).toBe(200)
    expect((await rawRequest(`${url}/ui/assets/${js}`)).status).toBe(200)
    expect((await rawRequest(`${url}/api/mem/repos`)).status).toBe(401)
    const rebinding = await rawRequest(`${url}/ui`, {headers: {host: 'evil.example:7373'}})
    expect(rebinding.status).toBe(403)
    expect(rebinding.text).not.toContain('<div id="root">')
  })

  it('without a built UI, /ui answers 503 naming the fix', async () => {
    const {ctx} = memRepo()
    const empty = mkdtempSync(join(tmpdir(), 'mem-ui-none-'))
    onTestFinished(() => rmSync(empty, {recursive: true, force: true}))
    for (const uiDir of [false as const, empty]) {
      const app = buildServer({ctx, uiDir})
      onTestFinished(() => app.close())
      for (const path of ['/ui', '/ui/', '/ui/assets/app.js']) {
        const r = await app.inject({method: 'GET', url: path})
        expect(r.statusCode, path).toBe(503)
        expect(r.json()).toMatchObject({code: 'unavailable', hint: expect.stringContaining('npm run build')})
      }
    }
  })

  it('a rebuilt index.html is served at once (read per request), assets by their new names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-ui-dir-'))
    onTestFinished(() => rmSync(dir, {recursive: true, force: true}))
    const {mkdirSync} = await import('node:fs')
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<p>one</p>')
    writeFileSync(join(dir, 'assets', 'app-AAAA.js'), 'console.log(1)')
    const {ctx} = memRepo()
    const app = buildServer({ctx, uiDir: dir})
    onTestFinished(() => app.close())
    expect((await app.inject({url: '/ui'})).body).toBe('<p>one</p>')
    writeFileSync(join(dir, 'index.html'), '<p>two</p>')
    expect((await app.inject({url: '/ui/'})).body).toBe('<p>two</p>')
    expect((await app.inject({url: '/ui/assets/app-AAAA.js'})).statusCode).toBe(200)
    expect(readdirSync(join(dir, 'assets'))).toEqual(['app-AAAA.js'])
  })
})
