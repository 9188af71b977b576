import {describe, expect, it} from 'vitest'
import {browse} from '../../../src/operations/browse.js'
import {consolidate} from '../../../src/operations/consolidate.js'
import {edit} from '../../../src/operations/edit.js'
import {exportMarkdown} from '../../../src/operations/export.js'
import {forget} from '../../../src/operations/forget.js'
import {graph} from '../../../src/operations/graph.js'
import {linkMemory, unlinkMemory} from '../../../src/operations/links.js'
import {store} from '../../../src/operations/store.js'
import {buildGraph, EDGE_SOURCES, type EdgeSource} from '../../../src/engines/export/graph.js'
import {memRepo, storedId as id} from '../../helpers/mem.js'

const FLAKY = [
  'The payments e2e suite times out when the stripe mock container starts slowly.',
  'Retrying the checkout e2e test fixed a timeout caused by the stripe mock warming up.',
  'Stripe mock needs about 20 seconds before the e2e payment tests can connect.',
]

async function corpus() {
  const env = memRepo()
  const {ctx, repo, clock} = env
  const obs: string[] = []
  for (const [i, text] of FLAKY.entries()) {
    clock.advance(1000)
    obs.push(id(await store(ctx, {repo, content: text, type: 'observation', tags: ['e2e'], importance: 0.4 + i * 0.05})))
  }
  clock.advance(1000)
  const proc = id(await store(ctx, {repo, content: 'Run the integration suite with `npm run test:int`; it needs Docker.', type: 'procedure', tags: ['tests'], importance: 0.9}))
  clock.advance(1000)
  const rule = id(await store(ctx, {repo, content: 'Never bump the lockfile in a feature branch.', type: 'heuristic', importance: 0.7}))
  expect(await consolidate(ctx, {repo})).toMatchObject({insightsCreated: 1})
  const insight = (await browse(ctx, {repo, type: 'insight'})).entries[0]
  return {...env, obs, proc, rule, insight}
}

describe('graph', () => {
  it('nodes: top live memories by importance then recency; derived edges insight → observations', async () => {
    const {ctx, repo, obs, proc, rule, insight} = await corpus()
    const g = await graph(ctx, {repo})
    expect(g.repo).toBe(repo.replace(/[:\\/._]/g, '-'))
    expect(new Set(g.nodes.map((n) => n.id))).toEqual(new Set([proc, rule, insight.id, ...obs]))
    const importances = g.nodes.map((n) => n.importance)
    expect([...importances].sort((a, b) => b - a)).toEqual(importances)
    expect(g.nodes.slice(0, 2).map((n) => n.id)).toEqual([proc, rule])
    // the observations: 0.5, 0.45, 0.4 in that order
    expect(g.nodes.filter((n) => n.type === 'observation').map((n) => n.id)).toEqual([obs[2], obs[1], obs[0]])
    const node = g.nodes.find((n) => n.id === proc)!
    expect(node).toEqual({id: proc, type: 'procedure', label: 'Run the integration suite with `npm run test:int`; it needs Docker', importance: 0.9, tags: ['tests']})
    expect(Object.keys(node)).toEqual(['id', 'type', 'label', 'importance', 'tags'])
    expect(g.edges).toEqual(obs.map((o) => ({from: insight.id, to: o, relation: 'derived'})).sort((a, b) => (a.to < b.to ? -1 : 1)))
  })

  it('limit cuts the node set and edges only join returned nodes', async () => {
    const {ctx, repo, obs, proc, rule, insight} = await corpus()
    // by importance: proc 0.9, rule 0.7, the insight 0.6, then its observations 0.5, 0.45, 0.4
    const g = await graph(ctx, {repo, limit: 3})
    expect(g.nodes.map((n) => n.id)).toEqual([proc, rule, insight.id])
    expect(g.edges).toEqual([]) // the insight's observations are not in the set
    const five = await graph(ctx, {repo, limit: 5})
    expect(five.nodes.map((n) => n.id)).toEqual([proc, rule, insight.id, obs[2], obs[1]])
    const ids = new Set(five.nodes.map((n) => n.id))
    for (const e of five.edges) expect(ids.has(e.from) && ids.has(e.to)).toBe(true)
    expect(five.edges).toEqual([obs[2], obs[1]].map((o) => ({from: insight.id, to: o, relation: 'derived'})).sort((a, b) => (a.to < b.to ? -1 : 1)))
  })

  it('supersedes: edges appear with history (earlier versions as nodes), never to forgotten-only ends', async () => {
    const {ctx, repo, rule} = await corpus()
    const edited = await edit(ctx, {id: rule, content: 'Never bump the lockfile in a feature branch; Renovate does it.'})
    if (!edited.success) throw new Error('edit failed')
    const plain = await graph(ctx, {repo})
    expect(plain.nodes.some((n) => n.id === rule)).toBe(false)
    expect(plain.edges.some((e) => e.relation === 'supersedes')).toBe(false)
    const withHistory = await graph(ctx, {repo, history: true})
    expect(withHistory.nodes.some((n) => n.id === rule)).toBe(true)
    expect(withHistory.edges).toContainEqual({from: edited.id, to: rule, relation: 'supersedes'})
  })

  it('memory links are edges named by their relation, and go when the link is removed', async () => {
    const {ctx, repo, proc, rule} = await corpus()
    expect(await linkMemory(ctx, {id: rule, targetId: proc, relation: 'explained-by'})).toEqual({linked: true})
    expect((await graph(ctx, {repo})).edges).toContainEqual({from: rule, to: proc, relation: 'explained-by'})
    await unlinkMemory(ctx, {id: rule, targetId: proc})
    expect((await graph(ctx, {repo})).edges.some((e) => e.from === rule && e.to === proc)).toBe(false)
  })

  it('edge sources are a list: another relation is one more function', async () => {
    const {ctx, repo, proc, rule} = await corpus()
    const handle = await ctx.repo(repo, 'write')
    const sameType: EdgeSource = ({nodes}) => [...nodes.values()].flatMap((a) => [...nodes.values()].filter((b) => b.type === a.type && a.id < b.id).map((b) => ({from: a.id, to: b.id, relation: 'same-type'})))
    const g = handle.store.read((db) => buildGraph(db, {limit: 2, sources: [...EDGE_SOURCES, sameType]}))
    expect(g.nodes.map((n) => n.id)).toEqual([proc, rule])
    expect(g.edges).toEqual([])
    const g2 = handle.store.read((db) => buildGraph(db, {limit: 10, sources: [sameType]}))
    expect(g2.edges.every((e) => e.relation === 'same-type')).toBe(true)
    expect(g2.edges.length).toBe(3) // three observations: three pairs
  })

  it('bad inputs: limit out of range or not whole, missing repo', async () => {
    const {ctx, repo} = memRepo()
    for (const limit of [0, -1, 2001, 1.5]) {
      await expect(graph(ctx, {repo, limit})).rejects.toMatchObject({code: 'invalid_input', message: expect.stringMatching(/^Invalid limit: limit must be/)})
    }
    await expect(graph(ctx, {repo: ' '})).rejects.toMatchObject({code: 'invalid_input'})
    expect(await graph(ctx, {repo})).toMatchObject({nodes: [], edges: []})
  })
})

describe('markdown export', () => {
  it('organises live memories by type, in a deterministic order, with nothing volatile', async () => {
    const {ctx, repo, proc, insight, rule} = await corpus()
    const a = await exportMarkdown(ctx, {repo})
    expect(a.count).toBe(6)
    const md = a.markdown
    expect(md.startsWith(`# Memories of ${a.repo}\n\n6 live memories: 1 procedures, 1 heuristics, 1 insights, 3 observations.\n`)).toBe(true)
    const order = ['## Procedures (1)', '## Heuristics (1)', '## Insights (1)', '## Observations (3)'].map((h) => md.indexOf(h))
    expect(order.every((i) => i > 0)).toBe(true)
    expect([...order].sort((x, y) => x - y)).toEqual(order)
    expect(md).toContain(`id \`${proc}\``)
    expect(md).toContain(`id \`${insight.id}\``)
    // observations in creation order
    const positions = FLAKY.map((t) => md.indexOf(`> ${t}`))
    expect([...positions].sort((x, y) => x - y)).toEqual(positions)

    // reading, feedback-free recall counters and importance changes do not change the bytes
    await edit(ctx, {id: rule, importance: 0.2})
    expect((await exportMarkdown(ctx, {repo})).markdown).toBe(md)

    // a forgotten memory leaves; content with markdown cannot break the structure
    await forget(ctx, {id: proc})
    await store(ctx, {repo, content: '# Not a heading\n\n## Nor this\n- list', type: 'heuristic'})
    const b = (await exportMarkdown(ctx, {repo})).markdown
    expect(b).not.toContain(`id \`${proc}\``)
    expect(b).toContain('> # Not a heading\n>\n> ## Nor this\n> - list')
    expect(b.match(/^## /gm)).toHaveLength(3)
  })

  it('an empty repo exports a header only', async () => {
    const {ctx, repo} = memRepo()
    const r = await exportMarkdown(ctx, {repo})
    expect(r.count).toBe(0)
    expect(r.markdown).toBe(`# Memories of ${r.repo}\n\n0 live memories: 0 procedures, 0 heuristics, 0 insights, 0 observations.\n`)
  })
})

describe('graph structure beyond stated relations', () => {
  it('a shared topic tag joins memories to the group\'s most important one; origin tags (intake, source:…) join nothing', async () => {
    const {ctx, repo} = memRepo()
    const hub = id(await store(ctx, {repo, content: 'Payments go through the Stripe SDK v14.', type: 'procedure', tags: ['payments', 'intake'], importance: 0.9}))
    const a = id(await store(ctx, {repo, content: 'Refunds are processed by a nightly job.', type: 'observation', tags: ['payments', 'intake']}))
    const b = id(await store(ctx, {repo, content: 'Invoices render with pdfkit.', type: 'observation', tags: ['payments', 'intake', 'source:README.md']}))
    for (let i = 0; i < 12; i++) await store(ctx, {repo, content: `Unrelated note number ${i} about topic ${i * 17}.`, type: 'observation', tags: ['intake']})
    const g = await graph(ctx, {repo})
    const tagged = g.edges.filter((e) => e.relation.startsWith('tag:'))
    expect(tagged.sort((x, y) => (x.from < y.from ? -1 : 1))).toEqual([{from: a, to: hub, relation: 'tag:payments'}, {from: b, to: hub, relation: 'tag:payments'}].sort((x, y) => (x.from < y.from ? -1 : 1)))
  })

  it('similar texts are joined (at most three per memory), updates show once, newer → older', async () => {
    const {ctx, repo, clock} = memRepo()
    const x = id(await store(ctx, {repo, content: 'The nightly postgres backup job fails when the disk on db-2 is full.', type: 'observation'}))
    const y = id(await store(ctx, {repo, content: 'Cleaning old WAL files on db-2 freed the disk and the nightly postgres backup passed.', type: 'observation'}))
    await store(ctx, {repo, content: 'Frontend bundles are analysed with source-map-explorer.', type: 'observation'})
    const old = id(await store(ctx, {repo, content: 'CI runs on Node 18', type: 'heuristic'}))
    clock.advance(60_000)
    const now = id(await store(ctx, {repo, content: 'CI runs on Node 20', type: 'heuristic'}))
    const g = await graph(ctx, {repo})
    expect(g.edges.filter((e) => e.relation === 'similar').map((e) => [e.from, e.to].sort())).toContainEqual([x, y].sort())
    const currency = g.edges.filter((e) => [e.from, e.to].includes(old))
    expect(currency).toEqual([{from: now, to: old, relation: 'updates'}])
  })
})
