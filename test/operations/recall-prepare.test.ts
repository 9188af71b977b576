import {describe, expect, it, onTestFinished} from 'vitest'
import {MemError} from '../../src/model/errors.js'
import {get} from '../../src/operations/get.js'
import {prepareRecall, recall} from '../../src/operations/recall.js'
import {store} from '../../src/operations/store.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {memRepo} from '../helpers/mem.js'

describe('prepareRecall', () => {
  it('builds the in-process index of a long-lived context without recording an access', async () => {
    const {root, home, clock, ctx: oneShot} = memRepo()
    const r = await store(oneShot, {repo: root, content: 'integration tests need docker running', type: 'procedure'})
    if (!r.success) throw new Error('not stored')
    expect(await prepareRecall(oneShot, {repo: root})).toEqual({prepared: false})

    const ctx = openMem({home, cwd: root, now: clock, longLived: true})
    onTestFinished(() => ctx.close())
    expect(await prepareRecall(ctx, {repo: root})).toEqual({prepared: true})
    await (await ctx.repo(root, 'write')).store.flush()
    expect((await get(ctx, {id: r.id})).accessCount).toBe(0)
    // the prepared index answers, and sees a memory stored after it was built
    const later = await store(ctx, {repo: root, content: 'the kafka consumer lag alert fires on rebalance', type: 'observation'})
    expect((await recall(ctx, {repo: root, q: 'docker'})).results.map((x) => x.id)).toEqual([r.id])
    expect((await recall(ctx, {repo: root, q: 'kafka lag'})).results[0].id).toBe((later as {id: string}).id)
  })

  it('refuses a missing repo', async () => {
    const {ctx} = memRepo()
    const err = await prepareRecall(ctx, {} as never).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).code).toBe('invalid_input')
  })
})
