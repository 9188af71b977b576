import type {MeaningSetting} from '../../src/config/user-config.js'
import {PACKAGE_NAME} from '../../src/model/package-name.js'
import {createServer, request as httpRequest, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {onTestFinished} from 'vitest'
import {MemClient} from '../../src/client/index.js'
import {startServer, type StartServerOptions} from '../../src/faces/server/serve.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {type Clock, memRepo} from './mem.js'

/**
 * A temp repo + MEM_HOME and a real `mem serve` listening on 127.0.0.1 (a free port) in this
 * process, with a client for it. The update check is off unless the test passes its own.
 * Server, context and files are closed and removed when the test ends.
 */
export async function memServer(options: {files?: Record<string, string>; clock?: Clock; server?: Partial<StartServerOptions>; meaning?: MeaningSetting} = {}) {
  const base = memRepo(options.files ?? {}, {clock: options.clock})
  // like `mem serve`: a long-lived context (in-process search indexes)
  const ctx = openMem({home: base.home, now: base.clock, longLived: true, meaning: options.meaning ?? {model: 'off'}})
  onTestFinished(() => ctx.close())
  const repo = {...base, ctx}
  const internalErrors: unknown[] = []
  const server = await startServer({
    runtime: repo.ctx,
    port: 0,
    updateCheck: false,
    onInternalError: (err) => internalErrors.push(err),
    ...options.server,
  })
  onTestFinished(() => server.close())
  const client = (apiKey?: string) => {
    const c = new MemClient(server.url, apiKey)
    onTestFinished(() => c.close())
    return c
  }
  return {...repo, server, url: server.url, client, internalErrors}
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  text: string
  json: () => any
}

/**
 * A raw HTTP request with full control of headers (fetch forbids setting Host, for one).
 */
export function rawRequest(
  url: string,
  options: {method?: string; headers?: Record<string, string>; body?: string | Buffer} = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers = {...options.headers}
    // Node sends a DELETE body without a length unless told: give one, as every real client does
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body))
    const req = httpRequest(url, {method: options.method ?? 'GET', headers}, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text)})
      })
    })
    req.on('error', reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })
}

/**
 * A local stand-in for the npm registry: answers `GET /<name>/latest` with `{version}`, after
 * `delayMs`. Counts requests, so tests can see whether the service asked.
 */
export async function fakeRegistry(version: string, delayMs = 0, packageName = PACKAGE_NAME) {
  let hits = 0
  const paths: string[] = []
  const server: Server = createServer((req, res) => {
    hits++
    paths.push(req.url ?? '')
    setTimeout(() => {
      // like the real registry: only the package it knows (any other name is a 404)
      if (req.url !== `/${packageName}/latest`) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, {'content-type': 'application/json'}).end(JSON.stringify({name: packageName, version}))
    }, delayMs)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  onTestFinished(() => new Promise<void>((r) => server.close(() => r())))
  server.unref()
  return {url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits: () => hits, paths: () => [...paths]}
}

/** Polls until `check` is truthy (or fails after `timeoutMs`). */
/** What a check answers once it holds: its value, not the false, 0, '' or nothing it answers until then. */
type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>

export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value as Truthy<T>
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 25))
  }
}
