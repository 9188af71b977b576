// The agent hooks' operations (issue 18): what a prompt injects and what it holds back, the
// used/unused record that stops injecting a memory the agent keeps not using, and the injection
// precision `mem quality` reports.
import {describe, expect, it} from 'vitest'
import {hookPrompt, hookSessionStart} from '../../src/operations/agent-hooks.js'
import {feedback} from '../../src/operations/feedback.js'
import {quality} from '../../src/operations/quality.js'
import {store} from '../../src/operations/store.js'
import {memRepo, storedId} from '../helpers/mem.js'

const PROMPT = 'How do I run the integration tests, do they need docker?'

async function seeded() {
  const r = memRepo()
  const docker = storedId(await store(r.ctx, {repo: r.root, content: 'Run the integration tests with npm run test:int; they need docker running', type: 'procedure'}))
  const pnpm = storedId(await store(r.ctx, {repo: r.root, content: 'Use pnpm, never npm install, in this monorepo', type: 'heuristic'}))
  return {...r, docker, pnpm}
}

describe('prompt-time injection', () => {
  it('injects what clears the bar once a session, and nothing for an unrelated prompt', async () => {
    const {ctx, root, docker} = await seeded()
    const first = await hookPrompt(ctx, {repo: root, host: 'claude', session: 's1', prompt: PROMPT})
    expect(first.ids).toEqual([docker])
    expect(first.text).toContain(`[${docker.split('/').pop()!.slice(0, 8)}`)
    expect((await hookPrompt(ctx, {repo: root, host: 'claude', session: 's1', prompt: PROMPT})).ids).toEqual([])
    expect(await hookPrompt(ctx, {repo: root, host: 'claude', session: 's2', prompt: 'Write a haiku about autumn leaves please'})).toEqual({text: '', ids: []})
  })

  it('stops injecting a memory reported unused twice since it was first injected, and mem quality reports the precision', async () => {
    const {ctx, root, docker, pnpm} = await seeded()
    expect((await quality(ctx, {repo: root})).injection).toEqual({injected: 0, injections: 0, used: 0, unused: 0, precision: null})
    expect((await hookPrompt(ctx, {repo: root, host: 'codex', session: 'a', prompt: PROMPT})).ids).toEqual([docker])
    await feedback(ctx, {memoryId: docker, wasUsed: false, repo: root})
    // one unused report is not enough to hold it back
    expect((await hookPrompt(ctx, {repo: root, host: 'codex', session: 'b', prompt: PROMPT})).ids).toEqual([docker])
    await feedback(ctx, {memoryId: docker, wasUsed: false, repo: root})
    expect((await hookPrompt(ctx, {repo: root, host: 'codex', session: 'c', prompt: PROMPT})).ids).toEqual([])
    const pnpmPrompt = 'Should I use pnpm or npm install in this monorepo?'
    expect((await hookPrompt(ctx, {repo: root, host: 'codex', session: 'd', prompt: pnpmPrompt})).ids).toEqual([pnpm])
    await feedback(ctx, {memoryId: pnpm, wasUsed: true, repo: root})
    expect((await quality(ctx, {repo: root})).injection).toEqual({injected: 2, injections: 3, used: 1, unused: 2, precision: 0.3333})
  })

  it('never injects what the session context already showed', async () => {
    const {ctx, root} = await seeded()
    const start = await hookSessionStart(ctx, {repo: root, host: 'gemini', session: 'g'})
    expect(start.ids).toHaveLength(2)
    expect((await hookPrompt(ctx, {repo: root, host: 'gemini', session: 'g', prompt: PROMPT})).ids).toEqual([])
  })
})
