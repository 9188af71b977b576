// Short refs (issue 18): a unique prefix (≥ 6 hex) of a key names a memory on every face, within
// the request's repository; an ambiguous one lists the candidates; an unknown one is a 404.
import {describe, expect, it} from 'vitest'
import {normalizeRepoId} from '../../src/config/paths.js'
import {context} from '../../src/operations/session-context.js'
import {feedback} from '../../src/operations/feedback.js'
import {get} from '../../src/operations/get.js'
import {history} from '../../src/operations/history.js'
import {edit} from '../../src/operations/edit.js'
import {forget} from '../../src/operations/forget.js'
import {store} from '../../src/operations/store.js'
import {resolveMemoryId} from '../../src/operations/lookup.js'
import {memRepo, refused, storedId} from '../helpers/mem.js'
import {cliRepo} from '../helpers/cli.js'

/** Inserts a memory with a chosen key, as the store would (so two keys can share a prefix). */
async function insertWithKey(ctx: ReturnType<typeof memRepo>['ctx'], root: string, key: string, content: string) {
  const repoId = normalizeRepoId(root)
  const at = '2026-03-01T12:00:00.000Z'
  const id = `memories/${repoId}/insight/${key}`
  const handle = await ctx.repo(root, 'write')
  await handle.store.write(() => ({
    ops: [
      {
        op: 'insert',
        memory: {
          id, repoId, type: 'insight', content, oneLiner: null, summary: null, tags: [], importance: 0.5, source: 'test', sessionId: null,
          supersedes: null, supersededBy: null, createdAt: at, updatedAt: at, forgottenAt: null, forgetReason: null, expiresAt: null,
          accessCount: 0, lastAccessedAt: null, usedCount: 0, unusedCount: 0, lastUsedAt: null, derivedFrom: [], links: [],
        },
      } as never,
    ],
    result: null,
  }))
  return id
}

describe('short refs', () => {
  it('a unique prefix of 6 or more hex digits names the memory in every operation that takes an id', async () => {
    const {ctx, root} = memRepo()
    const id = storedId(await store(ctx, {repo: root, content: 'The deploy script needs AWS_PROFILE=staging set.', type: 'procedure'}))
    const key = id.split('/').pop()!
    const ref = key.slice(0, 6)
    expect(await resolveMemoryId(ctx, ref, root)).toBe(id)
    expect(await resolveMemoryId(ctx, ref.toUpperCase(), root)).toBe(id)
    expect(await resolveMemoryId(ctx, id, root)).toBe(id)
    expect((await get(ctx, {id: ref, repo: root})).id).toBe(id)
    expect(await feedback(ctx, {memoryId: key.slice(0, 8), wasUsed: true, repo: root})).toEqual({applied: true})
    expect((await get(ctx, {id, repo: root})).usedCount).toBe(1)
    const e = await edit(ctx, {id: ref, repo: root, content: 'The deploy script needs AWS_PROFILE=production set.'})
    expect(e).toEqual({success: true, id: expect.any(String), superseded: id})
    expect((await history(ctx, {id: ref, repo: root})).chain.map((c) => c.id)).toEqual([(e as {id: string}).id, id])
    const newer = (e as {id: string}).id
    expect(await forget(ctx, {id: newer.split('/').pop()!.slice(0, 7), repo: root, reason: 'obsolete'})).toEqual({forgotten: true})
  })

  it('an ambiguous prefix is a 400 that lists the candidates; a longer one resolves', async () => {
    const {ctx, root} = memRepo()
    const a = await insertWithKey(ctx, root, 'abcdef111111', 'First memory about the build cache.')
    const b = await insertWithKey(ctx, root, 'abcdef222222', 'Second memory about the lint rules.')
    const err = await refused(resolveMemoryId(ctx, 'abcdef', root), 'invalid_input', /ambiguous/)
    expect(err.message).toContain(a)
    expect(err.message).toContain(b)
    expect(err.details).toEqual({candidates: [a, b]})
    expect(await resolveMemoryId(ctx, 'abcdef2', root)).toBe(b)
  })

  it('a context ref is the shortest prefix of 8 or more digits no other memory shares, and follows adds and purges', async () => {
    const {ctx, root} = memRepo()
    await insertWithKey(ctx, root, 'feedbeef0123', 'The build cache lives in .turbo and is keyed by the lockfile.')
    await insertWithKey(ctx, root, 'feedbeef0199', 'Lint rules come from the shared eslint config package.')
    await insertWithKey(ctx, root, 'c0ffee000001', 'Staging scales to zero at night.')
    const refs = async () => [...(await context(ctx, {repo: root})).context.matchAll(/\[([0-9a-f]{6,})\]$/gm)].map((m) => m[1]).sort()
    // two keys that share ten digits need eleven; the other one needs the minimum, eight
    expect(await refs()).toEqual(['c0ffee00', 'feedbeef012', 'feedbeef019'])
    // a fourth memory that shares eleven digits with one makes both refs whole keys
    await insertWithKey(ctx, root, 'c0ffee000002', 'Deploys go out from main only.')
    expect(await refs()).toEqual(['c0ffee000001', 'c0ffee000002', 'feedbeef012', 'feedbeef019'])
  })

  it('an unknown ref is a 404; a ref needs a repo; fewer than 6 digits is not a ref', async () => {
    const {ctx, root} = memRepo()
    storedId(await store(ctx, {repo: root, content: 'Tests run with vitest.', type: 'observation'}))
    await refused(get(ctx, {id: '000000', repo: root}), 'not_found', /No memory with ref 000000/)
    await refused(resolveMemoryId(ctx, 'abcdef'), 'invalid_input', /needs the repository/)
    await refused(get(ctx, {id: 'abcde', repo: root}), 'invalid_input', /unique prefix of its key/)
  })

  it('resolves within the request\'s repository only', async () => {
    const one = memRepo()
    const other = memRepo()
    const id = storedId(await store(one.ctx, {repo: one.root, content: 'Only in the first repository.', type: 'observation'}))
    const ref = id.split('/').pop()!.slice(0, 8)
    await refused(get(one.ctx, {id: ref, repo: other.root}), 'not_found')
  })

  it('context lines carry the ref of the memory, and the ref gives feedback', async () => {
    const {ctx, root} = memRepo()
    const id = storedId(await store(ctx, {repo: root, content: 'Use pnpm, never npm, in this repository.', type: 'heuristic', importance: 0.9}))
    const text = (await context(ctx, {repo: root})).context
    const line = text.split('\n')[1]
    const ref = /\[([0-9a-f]{8,12})\]$/.exec(line)?.[1]
    expect(line.startsWith('[H] ')).toBe(true)
    expect(id.split('/').pop()!.startsWith(ref!)).toBe(true)
    expect(await feedback(ctx, {memoryId: ref!, wasUsed: false, repo: root})).toEqual({applied: true})
  })
})

describe('short refs on the command line', () => {
  it('mem get, feedback and history take a ref of the repository around the working directory', async () => {
    const {mem} = cliRepo()
    const stored = await mem(['store', 'Integration tests need docker running', '--type', 'procedure', '--json'])
    const id = stored.json().id as string
    const ref = id.split('/').pop()!.slice(0, 6)
    const got = await mem(['get', ref, '--json'])
    expect(got.code).toBe(0)
    expect(got.json().id).toBe(id)
    expect((await mem(['feedback', ref, '--used'])).stdout).toContain('Recorded: used')
    expect((await mem(['history', ref, '--json'])).json().chain[0].id).toBe(id)
    const unknown = await mem(['get', 'ffffff'])
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('No memory with ref ffffff')
  })
})

describe('short refs over HTTP', () => {
  it('every route that takes an id takes a ref with ?repo=; ambiguous is a 400 with the candidates, unknown a 404', async () => {
    const {memServer} = await import('../helpers/server.js')
    const {url, ctx, root} = await memServer()
    const a = await insertWithKey(ctx, root, 'abcdef111111', 'First memory about the build cache.')
    const b = await insertWithKey(ctx, root, 'abcdef222222', 'Second memory about the lint rules.')
    const q = `repo=${encodeURIComponent(root)}`
    const got = await fetch(`${url}/api/mem/abcdef1?${q}`)
    expect(got.status).toBe(200)
    expect((await got.json()).id).toBe(a)
    expect((await (await fetch(`${url}/api/mem/history/abcdef2?${q}`)).json()).chain.map((c: {id: string}) => c.id)).toEqual([b])
    const fb = await fetch(`${url}/api/mem/feedback`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({memoryId: 'abcdef2', wasUsed: true, repo: root})})
    expect(await fb.json()).toEqual({applied: true})
    const ambiguous = await fetch(`${url}/api/mem/abcdef?${q}`)
    expect(ambiguous.status).toBe(400)
    expect(await ambiguous.json()).toMatchObject({code: 'invalid_input', details: {candidates: [a, b]}})
    const unknown = await fetch(`${url}/api/mem/0a0a0a?${q}`)
    expect(unknown.status).toBe(404)
    // without the repository a ref names nothing
    expect((await fetch(`${url}/api/mem/abcdef1`)).status).toBe(400)
  })
})
