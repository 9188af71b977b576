// Stopping `mem serve` while requests still run: the client may have gone, its operation has not
// (a store waiting for the writer lock, a recall waiting for the meaning model), and the server
// closes its stores only after it. Real server; a real lock held as another process holds it; a
// meaning model that answers slowly (the embedding runtime on loopback, as a user's Ollama).
import {join} from 'node:path'
import {describe, expect, it, onTestFinished} from 'vitest'
import {startServer} from '../../../src/faces/server/serve.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {recall} from '../../../src/operations/recall.js'
import {acquireWriteLock} from '../../../src/storage/lock.js'
import {fakeRuntime} from '../../helpers/fake-llm.js'
import {memRepo} from '../../helpers/mem.js'
import {memServer} from '../../helpers/server.js'

describe('mem serve stopping while operations run', () => {
  it('close() waits for a store whose client has gone; it lands, with no internal error', async () => {
    const s = await memServer()
    expect((await s.client().store({repo: s.root, content: 'The first note makes the store', type: 'observation'})).success).toBe(true)
    // the writer lock, held as another process (a git hook's intake) holds it: the next store waits for it
    const release = await acquireWriteLock(join(s.root, '.mem'))
    const aborted = new AbortController()
    const sent = fetch(`${s.url}/api/mem`, {
      method: 'POST',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({repo: s.root, content: 'Deploys go out from the release branch only', type: 'procedure'}),
      signal: aborted.signal,
    }).catch((err: Error) => err.name)
    while (s.server.running() === 0) await new Promise((r) => setTimeout(r, 5))
    aborted.abort()
    expect(await sent).toBe('AbortError')
    let closed = false
    const closing = s.server.close().then(() => (closed = true))
    await new Promise((r) => setTimeout(r, 200))
    expect([closed, s.server.running()]).toEqual([false, 1])
    await release()
    await closing
    expect(s.server.running()).toBe(0)
    await s.ctx.close()
    expect(s.internalErrors).toEqual([])
    // the write its client did not wait for is in the store
    const after = openMem({home: s.home, cwd: s.root, meaning: {model: 'off'}})
    try {
      const {results} = await recall(after, {repo: s.root, q: 'release branch deploys'})
      expect(results.map((r) => r.content)).toContain('Deploys go out from the release branch only')
    } finally {
      await after.close()
    }
  }, 60_000)

  it('close() waits for a recall whose client has gone while the meaning model answers; nothing fails after', async () => {
    const runtime = await fakeRuntime({mode: 'ok', slowMs: 1_500})
    const base = memRepo()
    const ctx = openMem({
      home: base.home,
      now: base.clock,
      longLived: true,
      meaning: {model: 'runtime'},
      enrichment: {provider: 'ollama', url: runtime.url, model: 'tiny', timeoutMs: 10_000, embeddings: {model: 'tiny-embed', dims: null, timeoutMs: 10_000}},
    })
    onTestFinished(() => ctx.close())
    const internalErrors: unknown[] = []
    const server = await startServer({runtime: ctx, port: 0, updateCheck: false, onInternalError: (err) => internalErrors.push(err)})
    onTestFinished(() => server.close())
    const stored = await fetch(`${server.url}/api/mem`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({repo: base.root, content: 'Use pnpm, never npm, in this repo', type: 'procedure'})})
    expect(stored.status).toBe(201)
    // the model now takes 1.5 s an answer; a question no memory holds every word of asks it
    runtime.setMode('slow')
    const aborted = new AbortController()
    let settled = false
    const asked = fetch(`${server.url}/api/mem/recall?repo=${encodeURIComponent(base.root)}&q=${encodeURIComponent('what should I know before touching the release process')}`, {signal: aborted.signal})
      .then((r) => r.status)
      .catch((err: Error) => err.name)
      .finally(() => (settled = true))
    while (server.running() === 0 && !settled) await new Promise((r) => setTimeout(r, 5))
    expect(settled, 'the recall answered before it was seen running: it did not wait for the model').toBe(false)
    aborted.abort()
    expect(await asked).toBe('AbortError')
    await server.close()
    expect(server.running()).toBe(0)
    await ctx.close()
    expect(internalErrors).toEqual([])
  }, 60_000)
})
