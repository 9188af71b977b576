// What meaning changes besides recall (issue 30 items 4 and 5), with the real built-in model
// (USE-lite): a store's nearest memories by meaning are update candidates beside those its words
// find, and the rules of words decide (engines/currency/rules.ts, tested one by one in
// test/engines/currency/rules.test.ts); closeness alone links nothing (docs/currency.md, "With
// meaning"); consolidation relates observations close by meaning;
// the graph draws `similar` edges by meaning. With meaning off, each is the words' alone.
import {describe, expect, it} from 'vitest'
import {store} from '../../../src/operations/store.js'
import {get} from '../../../src/operations/get.js'
import {getVector} from '../../../src/storage/vectors.js'
import {memRepo, storedId} from '../../helpers/mem.js'
import {consolidate} from '../../../src/operations/consolidate.js'
import {graph} from '../../../src/operations/graph.js'
import {recall} from '../../../src/operations/recall.js'
import {intake} from '../../../src/operations/intake.js'
import {context} from '../../../src/operations/session-context.js'
import {planMeaningLinks} from '../../../src/engines/gates/admit.js'
import {embedPending} from '../../../src/engines/meaning/pending.js'
import {meaningModel} from '../../../src/engines/meaning/use.js'

const BUILTIN = 'builtin/use-lite-512@0.2.0'

/** What the drain of a long-lived process (or the next recall that asks the model) does: vectors for the memories that wait, and the links they bring. */
async function embedWaiting(m: ReturnType<typeof memRepo>) {
  const handle = await m.ctx.repo(m.repo, 'read')
  const model = await meaningModel(m.ctx)
  return model ? embedPending(m.ctx, handle.store, model, {link: planMeaningLinks}) : {embedded: 0, left: 0, linked: []}
}

describe('update detection with the meaning model on', () => {
  it('gives a stored memory its vector once idle, and links no pair the rules of words do not read as an update, however close', async () => {
    const on = memRepo({}, {meaning: {model: 'builtin'}, longLived: true})
    const off = memRepo({}, {meaning: {model: 'off'}})
    const [older, newer] = ['App configuration lives in .config/app.json', 'The app reads its settings from config/app.yaml']
    const a = storedId(await store(on.ctx, {repo: on.repo, content: older, type: 'heuristic'}))
    on.clock.advance(60_000)
    const r = await store(on.ctx, {repo: on.repo, content: newer, type: 'heuristic'})
    // the built-in model is not asked inside a store (25 ms a text): the words link nothing here
    expect(r.success).toBe(true)
    expect(r).not.toHaveProperty('updates')
    const b = storedId(r)
    // the two are close by the model (above the 0.75 of a candidate) and one value apart; the rules of words refuse
    // the pair (under two thirds of the words shared), and closeness does not overrule them: on
    // pairs of rules a file holds side by side, it linked far more wrong pairs than right ones
    const drained = await embedWaiting(on)
    expect(drained).toEqual({embedded: 2, left: 0, linked: []})
    expect((await get(on.ctx, {id: a})).links).toEqual([])
    expect((await get(on.ctx, {id: b})).links).toEqual([])
    const handle = await on.ctx.repo(on.repo, 'read')
    expect(handle.store.read((db) => getVector(db, b))).toMatchObject({model: BUILTIN, dims: 512})
    // nothing waits, nothing more is linked
    expect(await embedWaiting(on)).toEqual({embedded: 0, left: 0, linked: []})
    // words alone (meaning off) link nothing here
    storedId(await store(off.ctx, {repo: off.repo, content: older, type: 'heuristic'}))
    off.clock.advance(60_000)
    const w = await store(off.ctx, {repo: off.repo, content: newer, type: 'heuristic'})
    expect(w.success).toBe(true)
    expect(w).not.toHaveProperty('updates')
  })

  it('links only the current version: one a version already linked updates is reached through that one', async () => {
    const on = memRepo({}, {meaning: {model: 'builtin'}, longLived: true})
    const ids: string[] = []
    for (const content of ['CI runs on Node 18', 'CI runs on Node 20', 'CI runs on Node 22']) {
      const r = await store(on.ctx, {repo: on.repo, content, type: 'heuristic'})
      ids.push(storedId(r))
      on.clock.advance(60_000)
      // the words linked each to the one before; meaning finds the oldest too, and leaves it
      expect((await embedWaiting(on)).linked).toEqual([])
    }
    expect((await get(on.ctx, {id: ids[0]})).links).toEqual([{targetId: ids[1], relation: 'updated-by'}])
    expect((await get(on.ctx, {id: ids[2]})).links).toEqual([{targetId: ids[1], relation: 'updates'}])
  })

  it('links no pair of facts held side by side in like words', async () => {
    const on = memRepo({}, {meaning: {model: 'builtin'}, longLived: true})
    const facts = [
      // close by the model (cosine 0.68–0.88) and one value apart: two facts all the same
      ['The frontend is deployed to Vercel', 'The backend is deployed to Fly.io'],
      ['Deploys to production need 2 approvals', 'Deploys to staging need 1 approvals'],
      ['Staging uses Postgres 15', 'Production uses Postgres 16'],
      ['The iOS app is built with Xcode', 'The Android app is built with Gradle'],
      ['Frontend errors go to Sentry', 'Backend errors go to Rollbar'],
    ]
    for (const [i, pair] of facts.entries()) {
      for (const content of pair) {
        const r = await store(on.ctx, {repo: on.repo, content, type: 'heuristic'})
        expect(r.success, content).toBe(true)
        expect(r, content).not.toHaveProperty('updates')
        on.clock.advance(60_000)
      }
      // half of them embedded pair by pair, half in one batch with the pairs before
      if (i % 2 === 1) expect((await embedWaiting(on)).linked).toEqual([])
    }
    expect(await embedWaiting(on)).toMatchObject({left: 0, linked: []})
  })

  it("links no two lines the project's files hold, however close: a rule of AGENTS.md and package.json's procedure for its script, two scripts", async () => {
    const on = memRepo(
      {
        'AGENTS.md': '# Agent guide\n\n- Run `pnpm test` before pushing; CI runs the same.\n- Always run `pnpm typecheck` after changing types.\n',
        'package.json': JSON.stringify({
          name: 'shop',
          packageManager: 'pnpm@9.12.0',
          scripts: {test: 'vitest run', 'test:e2e': 'playwright test', typecheck: 'tsc --noEmit', build: 'tsc -b && vite build', format: 'prettier --write .', 'format:check': 'prettier --check .'},
        }),
      },
      {meaning: {model: 'builtin'}, longLived: true},
    )
    expect((await intake(on.ctx, {repo: on.repo})).newCount).toBeGreaterThanOrEqual(8)
    // the model brings them together as candidates (scripts of one package.json are close); the
    // rules of words read "`pnpm format` → `pnpm format:check`" as an update, but both lines are in
    // the files, so both are true: intake versions a seed itself, when its line changes
    expect(await embedWaiting(on)).toMatchObject({left: 0, linked: []})
    const text = (await context(on.ctx, {repo: on.repo})).context
    for (const line of ['Run `pnpm test` before pushing', 'Always run `pnpm typecheck` after changing types', 'run `pnpm format`', 'run `pnpm format:check`', 'run `pnpm test:e2e`']) expect(text).toContain(line)
    // an agent's note is still compared with a seed: a note that retires the script's tool updates it
    on.clock.advance(60_000)
    const note = storedId(await store(on.ctx, {repo: on.repo, content: 'Format the code with `npx biome format --write` instead of prettier.', type: 'procedure'}))
    const linked = [...(await get(on.ctx, {id: note})).links, ...(await embedWaiting(on)).linked.map((l) => ({targetId: l.older, relation: 'updates'}))]
    expect(linked.filter((l) => l.relation === 'updates')).not.toEqual([])
  })

  it('with meaning off, a store is the words\' store: no vector; with it on, the same outcomes and a vector each', async () => {
    const texts = [
      'CI runs on Node 18',
      'Background jobs run on BullMQ',
      'The API dev server listens on port 3000',
      'CI runs on Node 20',
      'The job queue is pg-boss',
      'Start the API locally with pnpm dev; it serves on port 3100',
      'CI runs on Node 20',
    ]
    const outcomes = async (meaning: 'off' | 'builtin') => {
      const m = memRepo({}, {meaning: {model: meaning}, longLived: true})
      const out: unknown[] = []
      // ids name the repository and the time: each outcome is compared with the ids as the positions of the texts stored
      const at = new Map<string, number>()
      const named = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x: unknown) => (typeof x === 'string' && at.has(x) ? `#${at.get(x)}` : x))) as unknown
      for (const [i, content] of texts.entries()) {
        const r = await store(m.ctx, {repo: m.repo, content, type: 'heuristic'})
        if (r.success) at.set(r.id, i)
        out.push(named(r))
        m.clock.advance(60_000)
        // a client that waits between stores: the drain of a long-lived process embeds each
        if (meaning === 'builtin') out.push(named((await embedWaiting(m)).linked))
      }
      const handle = await m.ctx.repo(m.repo, 'read')
      const vectors = handle.store.read((db) => db.get<{n: number}>('SELECT count(*) AS n FROM memory_vectors')!.n)
      return {out, vectors}
    }
    const words = await outcomes('off')
    expect(words.vectors).toBe(0)
    expect(words.out[3]).toMatchObject({success: true, updates: [{id: '#0', reason: '18 → 20'}]})
    expect(words.out[6]).toEqual({success: false, duplicateId: '#3', reason: 'duplicate'})
    // and with the model on, the same outcomes: a vector each, and no link the words did not make
    // (the port said otherwise, 3000 → 3100, is not one: closeness alone links nothing)
    const meaning = await outcomes('builtin')
    expect(meaning.vectors).toBe(texts.length - 1)
    expect(meaning.out.filter((_, i) => i % 2 === 0)).toEqual(words.out)
    expect(meaning.out.filter((_, i) => i % 2 === 1)).toEqual([[], [], [], [], [], [], []])
  })
})

/** Observations of other things, so that words weigh as in a real store (idf). */
const FILLER = [
  'Renamed the billing module to invoicing',
  'Added a README section about local setup',
  'Bumped the lint rules to the latest preset',
  'The design team asked for a darker sidebar',
  'Moved the feature flag docs to the wiki',
  'Wrote a migration that adds the orders.notes column',
  'Upgraded the charting library in the dashboard',
  'Removed the unused analytics script from the landing page',
]
/** Three observations of one event in other words: the model puts the last one close to both others (cosine 0.71 and 0.80). */
const EVENT = ['The API returned 500 errors after the deploy', 'Server errors spiked once the new version went out', 'Internal server errors appeared right after releasing']

describe('consolidation and the graph with the meaning model on', () => {
  it('consolidation relates observations close by meaning that words do not relate', async () => {
    const results: Record<string, unknown> = {}
    for (const model of ['off', 'builtin'] as const) {
      const m = memRepo({}, {meaning: {model}, longLived: true})
      for (const content of [...FILLER, ...EVENT]) {
        await store(m.ctx, {repo: m.repo, content, type: 'observation'})
        m.clock.advance(3_600_000)
      }
      // the drain of the long-lived process gave them their vectors (none with meaning off)
      expect((await embedWaiting(m)).embedded).toBe(model === 'off' ? 0 : FILLER.length + EVENT.length)
      const r = await consolidate(m.ctx, {repo: m.repo, dryRun: true})
      results[model] = (r.clusters ?? []).map((c) => c.members.length)
      if (model === 'builtin') {
        const members = new Set((r.clusters ?? []).flatMap((c) => c.members.map((x) => x.id)))
        const ids = new Set((await recall(m.ctx, {repo: m.repo, q: 'server errors after the deploy', touch: false})).results.filter((x) => EVENT.includes(x.content)).map((x) => x.id))
        expect(ids.size).toBe(3)
        for (const id of ids) expect(members.has(id)).toBe(true)
      }
    }
    expect(results).toEqual({off: [], builtin: [3]})
  })

  it('the graph joins memories close by meaning with `similar` edges, and only by words with meaning off', async () => {
    const edges: Record<string, Array<[string, string]>> = {}
    for (const model of ['off', 'builtin'] as const) {
      const m = memRepo({}, {meaning: {model}, longLived: true})
      const content = new Map<string, string>()
      for (const text of [...FILLER, ...EVENT]) {
        content.set(storedId(await store(m.ctx, {repo: m.repo, content: text, type: 'observation'})), text)
        m.clock.advance(3_600_000)
      }
      await embedWaiting(m)
      const g = await graph(m.ctx, {repo: m.repo})
      edges[model] = g.edges.filter((e) => e.relation === 'similar').map((e) => [content.get(e.from)!, content.get(e.to)!].sort() as [string, string])
    }
    // the event's two close pairs by meaning (0.71, 0.80) are edges with meaning on, none with it off
    const close = [[EVENT[0], EVENT[2]], [EVENT[1], EVENT[2]]].map((p) => [...p].sort().join(' | '))
    const has = (model: string) => close.filter((p) => edges[model].some((e) => e.join(' | ') === p)).length
    expect(has('off')).toBe(0)
    expect(has('builtin')).toBe(2)
    // what words relate stays related
    for (const e of edges.off) expect(edges.builtin).toContainEqual(e)
  })
})
