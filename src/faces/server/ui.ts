import {existsSync} from 'node:fs'
import {readFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import fastifyStatic from '@fastify/static'
import type {FastifyInstance, FastifyReply} from 'fastify'
import {MemError} from '../../model/errors.js'

/**
 * The UI's Content-Security-Policy: its own scripts, styles and API only. No inline script or
 * style, nothing from another origin, no framing, no form posts, no plugins.
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': UI_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

/** Hashed asset names never change content: a year, immutable. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'
/** index.html names the current assets: always revalidated. */
const INDEX_CACHE = 'no-cache'

/**
 * The built UI (dist/ui), found by walking up from this module to mem's package root, so it works
 * from src/ (tests), dist/src/, the CLI bundle in dist/cli/chunks, and a global install alike.
 */
export function defaultUiDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const candidate = join(dir, 'dist', 'ui')
    if (existsSync(join(candidate, 'index.html'))) return candidate
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply.headers(SECURITY_HEADERS)
}

/**
 * `GET /ui` (and `/ui/`, `/ui/index.html`): the page; `/ui/assets/*`: its hashed assets. Public by
 * decisions.md (the API calls the page makes carry the key); the loopback Host guard still applies.
 * Without a built UI every /ui path answers 503 naming the fix.
 */
export async function uiRoutes(app: FastifyInstance, options: {dir?: string | false} = {}): Promise<void> {
  const dir = options.dir === false ? undefined : (options.dir ?? defaultUiDir())
  const indexPath = dir ? join(dir, 'index.html') : undefined

  if (!dir || !indexPath || !existsSync(indexPath)) {
    const notBuilt = async () => {
      throw new MemError('unavailable', 'The web UI is not built in this installation.', {
        hint: 'Run `npm run build` in the mem checkout (npm install runs it), then restart mem serve.',
      })
    }
    app.get('/ui', notBuilt)
    app.get('/ui/*', notBuilt)
    return
  }

  const index = async (_req: unknown, reply: FastifyReply) => {
    // read per request: a rebuild while the service runs names new assets
    const html = await readFile(indexPath)
    return securityHeaders(reply).header('cache-control', INDEX_CACHE).type('text/html; charset=utf-8').send(html)
  }
  app.get('/ui', index)
  app.get('/ui/', index)
  app.get('/ui/index.html', index)

  await app.register(fastifyStatic, {
    root: join(dir, 'assets'),
    prefix: '/ui/assets/',
    index: false,
    redirect: false,
    dotfiles: 'deny',
    cacheControl: false,
    etag: true,
    lastModified: true,
    decorateReply: false,
    setHeaders: (res) => {
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value)
      res.setHeader('cache-control', ASSET_CACHE)
    },
  })
}
