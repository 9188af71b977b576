import {describe, expect, it} from 'vitest'
import {context, contextPreview} from '../../../src/operations/session-context.js'
import {edit} from '../../../src/operations/edit.js'
import {feedback} from '../../../src/operations/feedback.js'
import {forget} from '../../../src/operations/forget.js'
import {recall} from '../../../src/operations/recall.js'
import {store, type StoreInput} from '../../../src/operations/store.js'
import {MemError} from '../../../src/model/errors.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {searchMemories, type Tuning} from '../../../src/engines/search/engine.js'
import {loadTokenCounter} from '../../../src/engines/search/tokens.js'
import {GROUPS, phraseProbes, stemGroups} from '../../../src/engines/search/thesaurus-groups.js'
import {PHRASE_PROBES, STEMMED_GROUPS} from '../../../src/engines/search/thesaurus-stems.js'
import {roleExpansionsBySource, thesaurusExpansions} from '../../../src/engines/search/thesaurus.js'
import {queryTerms} from '../../../src/engines/search/query.js'
import {memRepo, tempDir} from '../../helpers/mem.js'

type Seed = Omit<StoreInput, 'repo'>

async function seed(ctx: ReturnType<typeof memRepo>['ctx'], repo: string, items: Seed[], clock?: {advance(ms: number): void}) {
  const ids: string[] = []
  for (const item of items) {
    clock?.advance(60_000)
    const r = await store(ctx, {repo, ...item})
    if (!r.success) throw new Error(`not stored: ${JSON.stringify(r)}`)
    ids.push(r.id)
  }
  return ids
}

/** A repo seeded with `items` (a minute apart), and the memories the engine ranks for a question, best first, with `tuning`. */
async function seededRanker(items: Seed[]) {
  const {ctx, repo, clock} = memRepo()
  const ids = await seed(ctx, repo, items, clock)
  const handle = await ctx.repo(repo, 'read')
  const rank = (q: string, tuning: Partial<Tuning> = {}) => handle.store.read((db) => searchMemories(db, q, {limit: 10, now: clock(), index: 'memory', tuning})).map((h) => h.memory)
  /** The ids ranked for `q`, with another weight of the roles' tools when given. */
  const rankIds = (q: string, roleWeight?: number) => rank(q, roleWeight === undefined ? {} : {roleWeight}).map((m) => m.id)
  return {ids, ctx, repo, clock, rank, rankIds}
}

const CORPUS: Seed[] = [
  {content: 'integration suite: npm run test:int, needs docker', type: 'procedure', tags: ['testing']},
  {content: 'Unit tests run with vitest; keep them under a second each', type: 'heuristic'},
  {content: 'The checkout e2e spec is flaky when the payment sandbox is slow', type: 'observation'},
  {content: 'parseConfigFile throws on an empty file instead of returning defaults', type: 'observation', tags: ['config']},
  {content: 'Set MAX_RETRY_COUNT to 3 for outbound webhooks', type: 'heuristic'},
  {content: 'Release with pnpm release from main only; tags trigger the deploy', type: 'procedure'},
  {content: 'Postgres 16 runs in docker compose; start it with docker compose up db', type: 'procedure'},
  {content: 'Use --no-verify only for emergency hotfix commits', type: 'heuristic'},
  {content: 'Die Datenbank-Migrationen laufen mit drizzle-kit migrate', type: 'procedure'},
  {content: 'Журнал ошибок хранится в каталоге logs', type: 'observation'},
]

describe('recall ranking', () => {
  it('answers a natural-language question by stems, not exact words', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, CORPUS)
    const {results} = await recall(ctx, {repo, q: 'how do I run the integration tests?'})
    expect(results[0].id).toBe(ids[0])
    expect(results[0].type).toBe('Procedure')
    for (const r of results) {
      expect(r.score).toBeGreaterThan(0)
      expect(r.score).toBeLessThanOrEqual(1)
    }
    expect(results.map((r) => r.score)).toEqual([...results.map((r) => r.score)].sort((a, b) => b - a))
  })

  it('matches code tokens whole and by their parts', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, CORPUS)
    expect((await recall(ctx, {repo, q: 'parseConfigFile'})).results[0].id).toBe(ids[3])
    expect((await recall(ctx, {repo, q: 'config file parse error'})).results[0].id).toBe(ids[3])
    expect((await recall(ctx, {repo, q: 'max_retry_count'})).results[0].id).toBe(ids[4])
    expect((await recall(ctx, {repo, q: 'test:int'})).results[0].id).toBe(ids[0])
    expect((await recall(ctx, {repo, q: '--no-verify'})).results[0].id).toBe(ids[7])
  })

  it('keeps the stemmed thesaurus in step with the written one (else: npm run build && node scripts/gen-thesaurus.mjs)', () => {
    expect(STEMMED_GROUPS).toEqual(stemGroups(GROUPS))
    expect(PHRASE_PROBES).toEqual(phraseProbes(GROUPS))
    // two words that analyze apart probe the phrase: "garbage collection" → garbag + collect → garbage-collection
    expect(thesaurusExpansions(['garbag', 'collect'])).toEqual(expect.arrayContaining(['gc', 'garbagecollection']))
    expect(thesaurusExpansions(['databas'])).toEqual(expect.arrayContaining(['postgr', 'sqlite']))
    // a hyphenated entry is also known joined: "end-to-end" → endtoend
    expect(thesaurusExpansions(['e2e'])).toContain('endtoend')
    expect(thesaurusExpansions(['zzzz'])).toEqual([])
  })

  it('bridges developer synonyms (database ↔ postgres)', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, CORPUS)
    expect((await recall(ctx, {repo, q: 'how do I get the database running locally?'})).results[0].id).toBe(ids[6])
  })

  it("bridges the trade's names for one thing in other words (static analysis ↔ lint, a suppression ↔ nolint, garbage collection ↔ gc), a phrase too when its words stem apart", async () => {
    const {ctx, repo} = memRepo()
    const [lint, nolint, gc] = await seed(ctx, repo, [
      {content: 'Lint with golangci-lint before pushing; CI fails on any finding.', type: 'procedure'},
      {content: 'Never add //nolint comments to get CI green: fix the finding at its cause.', type: 'heuristic'},
      {content: 'The GC of the content store reclaims unreferenced blobs every night.', type: 'observation'},
      {content: 'Deploy to staging from the main branch with the release workflow.', type: 'procedure'},
    ])
    expect((await recall(ctx, {repo, q: 'which static analysis tool do we use?'})).results[0]?.id).toBe(lint)
    expect((await recall(ctx, {repo, q: 'may I suppress a warning?'})).results[0]?.id).toBe(nolint)
    // "garbage collection" is probed as garbag + collect, the group's entry written garbage-collection
    expect((await recall(ctx, {repo, q: 'when does garbage collection happen?'})).results[0]?.id).toBe(gc)
  })

  it('with conceptMax a synonym stands in for its word and does not add to it; off, they sum', async () => {
    const {ctx, repo, clock} = memRepo()
    const [plain, both] = await seed(
      ctx,
      repo,
      [
        {content: 'The database migrations run before the API boots', type: 'observation'},
        {content: 'The database (postgres) migrations run before the API boots', type: 'observation'},
        ...Array.from({length: 8}, (_, i) => ({content: `Unrelated note ${i} about the frontend bundle`, type: 'observation' as const})),
      ],
      clock,
    )
    const handle = await ctx.repo(repo, 'read')
    const rank = (conceptMax: boolean) =>
      handle.store.read((db) => searchMemories(db, 'database migrations', {limit: 2, now: clock(), index: 'memory', tuning: {conceptMax}})).map((h) => h.memory.id)
    expect(rank(false)).toEqual([both, plain])
    expect(rank(true)).toEqual([plain, both])
  })

  it("reads a question's words for the roles they name: install dependencies finds the package manager, after a note in the question's own words; roleWeight 0 turns it off", async () => {
    const first = await seededRanker([
      {content: 'Use pnpm, never npm, in this repo', type: 'heuristic'},
      {content: 'Run make setup to install the system dependencies of the image', type: 'procedure'},
      {content: 'The app runs on Railway in two regions', type: 'observation'},
      // Render is a tool only written as a name: the word here is not the host
      {content: 'Render the invoice page on the server, never in the browser', type: 'heuristic'},
      {content: 'Lint with eslint before every commit', type: 'procedure'},
    ])
    const [pnpm, make, railway] = first.ids
    const rank = first.rankIds
    expect(rank('how do I install dependencies')).toEqual([make, pnpm])
    expect(rank('how do I install dependencies', 0)).toEqual([make])
    expect(rank('where is production hosted')).toEqual([railway])
    expect(rank('where is production hosted', 0)).toEqual([])
    // a question naming a tool of the role asks about that tool: it is not widened to the others
    const [npm] = await seed(first.ctx, first.repo, [{content: 'Run the integration tests with npm run test:int', type: 'procedure'}], first.clock)
    expect(rank('how do I install dependencies')).toEqual([make, pnpm, npm])
    expect(rank('pnpm monorepo install')).toEqual([make, pnpm])
    // a tool is sought as the index keeps it: a one-word name by its stem (Railway → railwai), a name
    // joined from parts by the joined form too, which the index does not stem (graphile-worker → graphileworker)
    const q = 'what runs our background tasks'
    const sought = [...roleExpansionsBySource(q, queryTerms(q)).keys()]
    expect(sought).toEqual(expect.arrayContaining(['graphileworker', 'solidqueue', 'sidekiq']))
    // the tools one role word stands for weigh alike: a rarer tool does not outrank a commoner one
    // (here the newer rule, which names the tool other memories name too)
    const other = await seededRanker([
      {content: 'Always use pnpm in this repo', type: 'heuristic'},
      ...[1, 2, 3, 4].map((i) => ({content: `yarn workspaces hold module ${i}`, type: 'observation' as const})),
      {content: 'Always use yarn in this repo', type: 'heuristic'},
    ])
    const [rare, ...common] = other.ids
    const installs = other.rank('how do I install dependencies').map((m) => m.id)
    expect(installs.indexOf(common[4])).toBeGreaterThanOrEqual(0)
    expect(installs.indexOf(common[4])).toBeLessThan(installs.indexOf(rare))
    // a tool stands in for the role word and never adds to it: three versions of one rule, each holding
    // the question's words, keep the order words give them though one names a test runner
    const third = await seededRanker(['To run unit tests: `pnpm test`', 'To run unit tests: `npx vitest run`', 'To run unit tests: `make test`'].map((content) => ({content, type: 'procedure' as const})))
    const commands = (roleWeight?: number) => third.rank('command for unit tests', roleWeight === undefined ? {} : {roleWeight}).map((m) => m.content)
    expect(commands()).toHaveLength(3)
    expect(commands()).toEqual(commands(0))
    // a word a question uses mostly for something else names no role: the page of an app is not on-call paging
    const page = 'what should the page show while data loads'
    expect([...roleExpansionsBySource(page, queryTerms(page)).keys()]).toEqual([])
  })

  it('reads two words that name a role together, though one alone names none in a question: "package manager", "error tracker"', async () => {
    const r = await seededRanker([
      {content: 'Use pnpm, never npm, in this repo', type: 'heuristic'},
      {content: 'Production errors go to Sentry with the release tag', type: 'procedure'},
      {content: 'Each package publishes its own changelog', type: 'procedure'},
      {content: 'The state of a build is shown on its page', type: 'observation'},
    ])
    const [pnpm, sentry, changelog] = r.ids
    const rank = r.rankIds
    // found after the note that holds the question's own word, as the role words are (above)
    expect(rank('what is the package manager')).toEqual([changelog, pnpm])
    expect(rank('package managers')).toEqual([changelog, pnpm])
    expect(rank('what is the package manager', 0)).toEqual([changelog])
    expect(rank('what is our error tracker')[0]).toBe(sentry)
    // the word alone still names no role: a package of the repo is not the package manager
    const alone = 'which package publishes a changelog'
    expect([...roleExpansionsBySource(alone, queryTerms(alone)).keys()]).toEqual([])
    // nor does a phrase it does not hold: "state management" names a role, "state of" does not
    const state = 'what state is the build in'
    expect([...roleExpansionsBySource(state, queryTerms(state)).keys()]).toEqual([])
    expect([...roleExpansionsBySource('state management library', queryTerms('state management library')).keys()]).toEqual(expect.arrayContaining(['redux', 'zustand']))
  })

  it('corrects typos against the index vocabulary', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, CORPUS)
    expect((await recall(ctx, {repo, q: 'intgration sutie'})).results[0].id).toBe(ids[0])
    expect((await recall(ctx, {repo, q: 'chekout flakey'})).results.map((r) => r.id)).toContain(ids[2])
  })

  it('does not correct the words of a long question (over 12 terms): they are mostly words the store never needed', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, CORPUS)
    expect((await recall(ctx, {repo, q: 'intgration'})).results.map((r) => r.id)).toContain(ids[0])
    const long = 'intgration zebra quokka narwhal axolotl pangolin wombat ocelot tapir okapi lemur marmot ibex'
    expect((await recall(ctx, {repo, q: long})).results).toEqual([])
  })

  it('corrects a misspelt word before stemming when its stem lands far from the right one', async () => {
    const {ctx, repo} = memRepo()
    const [pg, node] = await seed(ctx, repo, [
      {content: 'Upgrade Postgres with pg_upgrade in the maintenance window', type: 'procedure'},
      {content: 'Upgrade Node with nvm, and upgrade pnpm with corepack', type: 'procedure'},
    ])
    // "postgress" stems to itself, three edits from "postgr" (the stem of "postgres"): stem to
    // stem it is unknown, and "upgrade" alone ranks the Node memory first. One edit of the word
    // itself ("postgres") finds the right one.
    expect((await recall(ctx, {repo, q: 'upgrade postgress', limit: 1})).results.map((r) => r.id)).toEqual([pg])
    expect((await recall(ctx, {repo, q: 'upgrade nodee', limit: 1})).results.map((r) => r.id)).toEqual([node])
  })

  it('limit is a maximum: only memories that match come back, nothing pads the list', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, [
      {content: 'OPS-4821: the nightly export job times out on the largest tenant', type: 'observation'},
      ...Array.from({length: 30}, (_, i) => ({content: `Note ${i} about deploys, releases and the staging cluster number ${i * 7}`, type: 'observation' as const})),
    ])
    expect((await recall(ctx, {repo, q: 'OPS-4821', limit: 10})).results.map((r) => r.id)).toEqual([ids[0]])
    expect((await recall(ctx, {repo, q: 'what broke the kafka consumer group', limit: 10})).results).toEqual([])
    // a misspelt word the store does not know is corrected, and only its matches come back
    expect((await recall(ctx, {repo, q: 'nightly exprot', limit: 10})).results.map((r) => r.id)).toEqual([ids[0]])
  })

  describe('the shape of a text', () => {
    /** Ranks with the default tuning and with one feature changed, over the same store. */
    async function rankBoth(items: Seed[], q: string, off: Parameters<typeof searchMemories>[2]['tuning'], gapMs = 60_000) {
      const {ctx, repo, clock} = memRepo()
      const ids: string[] = []
      for (const item of items) {
        clock.advance(gapMs)
        ids.push(storedIdOf(await store(ctx, {repo, ...item})))
      }
      const handle = await ctx.repo(repo, 'read')
      const rank = (tuning?: typeof off) =>
        handle.store.read((db) => searchMemories(db, q, {limit: 5, now: clock(), index: 'memory', tuning})).map((h) => ids.indexOf(h.memory.id))
      return {on: rank(), off: rank(off)}
    }
    const storedIdOf = (r: Awaited<ReturnType<typeof store>>) => {
      if (!r.success) throw new Error(`not stored: ${JSON.stringify(r)}`)
      return r.id
    }

    it('the answer stored right after a matching question comes back, though it shares no word with the query', async () => {
      const items: Seed[] = [
        {content: 'Which port does the staging API listen on?', type: 'observation'},
        {content: '8443, behind the nginx proxy; 8080 is only inside the cluster', type: 'observation'},
        {content: 'The billing worker retries failed webhooks three times', type: 'observation'},
      ]
      const {on, off} = await rankBoth(items, 'staging API port', {followerWeight: 0})
      expect(on).toContain(1)
      expect(off).not.toContain(1)
      // a note stored right after a statement (not a question) joins only if it matched by itself
      const plain = await rankBoth(
        [
          {content: 'The staging API listens on port 8443', type: 'observation'},
          {content: 'The billing worker retries failed webhooks three times', type: 'observation'},
        ],
        'staging API port',
        {followerWeight: 0},
      )
      expect(plain.on).toEqual([0])
    })

    it('an answer outweighs the question that asks it', async () => {
      // ten minutes apart (past the follower window) so only the question penalty separates them
      const items: Seed[] = [
        {content: 'The staging API listens on port 8443 behind nginx', type: 'observation'},
        {content: 'Which port does the staging API listen on behind nginx?', type: 'observation'},
      ]
      const {on, off} = await rankBoth(items, 'staging API port nginx', {questionPenalty: 1}, 3_600_000)
      expect(on).toEqual([0, 1])
      expect(off[0]).toBe(1)
    })

    it('a question that asks when prefers a memory that states a time', async () => {
      const items: Seed[] = [
        {content: 'We moved the monorepo to pnpm workspaces on 2026-02-11', type: 'observation'},
        {content: 'The monorepo moved to pnpm workspaces because dependency hoisting broke the builds again and again', type: 'observation'},
      ]
      const {on, off} = await rankBoth(items, 'when did the monorepo move to pnpm workspaces?', {whenBoost: 1}, 3_600_000)
      expect(on[0]).toBe(0)
      expect(off[0]).toBe(1)
      // any other question leaves the order to the words
      const other = await rankBoth(items, 'why did the monorepo move to pnpm workspaces?', {whenBoost: 1}, 3_600_000)
      expect(other.on).toEqual(other.off)
    })
  })

  it('synonyms expand short questions; a question of more than 12 terms is taken at its words', async () => {
    const {ctx, repo, clock} = memRepo()
    const [pg] = await seed(ctx, repo, [{content: 'Postgres connection pool is capped at 20 in production', type: 'observation'}], clock)
    const handle = await ctx.repo(repo, 'read')
    const rank = (q: string, synonymMaxTerms?: number) =>
      handle.store.read((db) => searchMemories(db, q, {limit: 10, now: clock(), index: 'memory', tuning: synonymMaxTerms === undefined ? {} : {synonymMaxTerms}})).map((h) => h.memory.id)
    expect(rank('database limit')).toEqual([pg])
    const long = 'what is the database limit we configured for checkout invoices refunds exports webhooks sessions carts staging quickly today please'
    expect(rank(long)).toEqual([])
    expect(rank(long, Number.POSITIVE_INFINITY)).toEqual([pg])
  })

  it('an identifier the store knows whole is asked for whole: memories holding only its parts stay out', async () => {
    const {ctx, repo, clock} = memRepo()
    const [ticket, opsTeam, number] = await seed(
      ctx,
      repo,
      [
        {content: 'OPS-4821: the nightly export job times out on the largest tenant', type: 'observation'},
        {content: 'The ops team owns the staging cluster', type: 'observation'},
        {content: 'Invoice 4821 was paid twice by the retry loop', type: 'observation'},
      ],
      clock,
    )
    const handle = await ctx.repo(repo, 'read')
    const rank = (q: string, wholeIdentifiers: boolean) =>
      handle.store.read((db) => searchMemories(db, q, {limit: 10, now: clock(), index: 'memory', tuning: {wholeIdentifiers}})).map((h) => h.memory.id)
    expect(rank('OPS-4821', true)).toEqual([ticket])
    expect(new Set(rank('OPS-4821', false))).toEqual(new Set([ticket, opsTeam, number]))
    // a part the query also names on its own still finds memories
    expect(rank('what does the ops team know about OPS-4821', true)).toEqual([ticket, opsTeam])
    // an identifier nobody stored whole falls back to its parts
    expect(new Set(rank('OPS-9999', true))).toEqual(new Set([ticket, opsTeam]))
  })

  it('filters by type, honours limit, and validates both', async () => {
    const {ctx, repo} = memRepo()
    await seed(ctx, repo, CORPUS)
    const {results} = await recall(ctx, {repo, q: 'tests docker release', type: 'procedure', limit: 2})
    expect(results.length).toBe(2)
    expect(results.every((r) => r.type === 'Procedure')).toBe(true)
    for (const limit of [0, 101, 1.5]) {
      await expect(recall(ctx, {repo, q: 'x', limit})).rejects.toBeInstanceOf(MemError)
    }
    await expect(recall(ctx, {repo, q: 'x', type: 'fact' as 'insight'})).rejects.toMatchObject({code: 'invalid_input'})
  })

  it('feedback moves a memory up: used ranks above an equal unused one', async () => {
    const {ctx, repo} = memRepo()
    const [a, b] = await seed(ctx, repo, [
      // two facts, not one and its update (another tool in the same words would be an update, and the newer would win)
      {content: 'Cache the pnpm store in CI to speed up installs', type: 'heuristic'},
      {content: 'In CI, cache the Docker layers to speed up image builds', type: 'heuristic'},
    ])
    const before = (await recall(ctx, {repo, q: 'cache CI speed'})).results.map((r) => r.id)
    const loser = before[1]
    const winner = before[0]
    for (let i = 0; i < 3; i++) {
      await feedback(ctx, {memoryId: loser, wasUsed: true})
      await feedback(ctx, {memoryId: winner, wasUsed: false})
    }
    const after = (await recall(ctx, {repo, q: 'cache CI speed'})).results.map((r) => r.id)
    expect(after).toEqual([loser, winner])
    expect([a, b].sort()).toEqual([...after].sort())
  })

  it('never returns superseded or forgotten memories', async () => {
    const {ctx, repo} = memRepo()
    const [a, b] = await seed(ctx, repo, [
      {content: 'Deploys run from the deploy branch', type: 'procedure'},
      {content: 'Rollbacks use helm rollback on the deploy release', type: 'procedure'},
    ])
    const edited = await edit(ctx, {id: a, content: 'Deploys run from tags on main, not a deploy branch'})
    expect(edited.success).toBe(true)
    await forget(ctx, {id: b})
    const ids = (await recall(ctx, {repo, q: 'deploy branch rollback helm'})).results.map((r) => r.id)
    expect(ids).not.toContain(a)
    expect(ids).not.toContain(b)
    expect(ids).toContain(edited.success ? edited.id : '')
  })

  it('a query of only stop words or punctuation is an empty result, not an error', async () => {
    const {ctx, repo} = memRepo()
    await seed(ctx, repo, CORPUS)
    expect((await recall(ctx, {repo, q: '?!... ---'})).results).toEqual([])
    expect((await recall(ctx, {repo, q: ''})).results).toEqual([])
    expect((await recall(ctx, {repo, q: 'how do I do it?'})).results).toEqual([])
    expect((await recall(ctx, {repo, q: 'the and of'})).results).toEqual([])
  })

  it('handles very long queries and non-Latin text', async () => {
    const {ctx, repo} = memRepo()
    const ids = await seed(ctx, repo, CORPUS)
    const long = `${'please help me figure out what is going on with the build and the tests '.repeat(50)} integration docker`
    expect((await recall(ctx, {repo, q: long.slice(0, 3_900)})).results.length).toBeGreaterThan(0)
    await expect(recall(ctx, {repo, q: 'x'.repeat(4_001)})).rejects.toMatchObject({code: 'invalid_input'})
    expect((await recall(ctx, {repo, q: 'ошибок журнал'})).results[0].id).toBe(ids[9])
    expect((await recall(ctx, {repo, q: 'datenbank migrationen'})).results[0].id).toBe(ids[8])
  })

  it('a recall with touch: false (a person browsing) does not count as a use of what it returns', async () => {
    const {ctx, repo} = memRepo()
    const {get} = await import('../../../src/operations/get.js')
    const s = await store(ctx, {repo, content: 'The billing worker retries failed webhooks three times.', type: 'observation'})
    const id = (s as {id: string}).id
    expect((await recall(ctx, {repo, q: 'billing webhooks', touch: false})).results.map((r) => r.id)).toEqual([id])
    const handle = await ctx.repo(repo, 'read')
    await handle.store.flush()
    expect((await get(ctx, {id})).accessCount).toBe(0)
    await recall(ctx, {repo, q: 'billing webhooks'})
    await handle.store.flush()
    expect((await get(ctx, {id})).accessCount).toBe(1)
    await expect(recall(ctx, {repo, q: 'x', touch: 'no' as never})).rejects.toMatchObject({code: 'invalid_input', message: 'Invalid touch: touch must be true or false'})
  })

  it('an empty repo recalls nothing', async () => {
    const {ctx, repo} = memRepo()
    expect(await recall(ctx, {repo, q: 'anything at all'})).toEqual({results: []})
  })

  it('the on-disk index and the in-process index rank identically, and follow writes', async () => {
    const {ctx, repo, home, clock} = memRepo()
    const items: Seed[] = []
    for (let i = 0; i < 60; i++) {
      items.push({content: `${CORPUS[i % CORPUS.length].content} (variant ${i} about module m${i % 7})`, type: CORPUS[i % 4].type, tags: [`t${i % 5}`]})
    }
    const ids = await seed(ctx, repo, items)
    const server = openMem({meaning: {model: 'off'}, home, cwd: repo, longLived: true, now: clock})
    try {
      const queries = ['integration tests docker', 'database', 'flaky checkout', 'module m3 release', 'retry webhooks', 'intgration', 'postgress releese']
      const compare = async () => {
        for (const q of queries) {
          const disk = await recall(ctx, {repo, q, limit: 20})
          const memory = await recall(server, {repo, q, limit: 20})
          expect(memory.results.map((r) => [r.id, r.score])).toEqual(disk.results.map((r) => [r.id, r.score]))
        }
      }
      await compare()
      // writes from another context (another process, for the server) are followed incrementally
      await forget(ctx, {id: ids[0]})
      await edit(ctx, {id: ids[1], tags: ['renamed-tag']})
      await seed(ctx, repo, [{content: 'Integration docker tests moved to testcontainers', type: 'insight'}])
      await compare()
      // feedback and importance change the rank fields the in-process index keeps, from either side
      for (const id of ids.slice(2, 12)) await feedback(ctx, {memoryId: id, wasUsed: true})
      for (const id of ids.slice(12, 22)) await feedback(server, {memoryId: id, wasUsed: false})
      for (const id of ids.slice(22, 32)) await edit(server, {id, importance: 0.99})
      await compare()
    } finally {
      await server.close()
    }
  })

  it('the engine returns the same ranking whatever the cache state', async () => {
    const {ctx, repo} = memRepo()
    await seed(ctx, repo, CORPUS)
    const handle = await ctx.repo(repo, 'write')
    const now = new Date('2026-03-02T00:00:00Z')
    const a = handle.store.read((db) => searchMemories(db, 'docker tests', {limit: 5, now, index: 'memory'}))
    const b = handle.store.read((db) => searchMemories(db, 'docker tests', {limit: 5, now, index: 'fts'}))
    expect(a.map((h) => h.memory.id)).toEqual(b.map((h) => h.memory.id))
  })
})

/** A context line without the ref it ends with. */
const withoutRef = (line: string) => line.replace(/ \[[0-9a-f]{8,12}\]$/, '')

describe('session context', () => {
  it('has the exact first line, then type-letter lines, best first', async () => {
    const {ctx, repo} = memRepo()
    await seed(ctx, repo, [
      {content: 'Low value procedure about formatting', type: 'procedure', importance: 0.1},
      {content: 'Always run migrations before seeding the database', type: 'heuristic', importance: 0.9},
      {content: 'Caching the lockfile halves CI time', type: 'insight', importance: 0.6},
      {content: 'The staging cluster restarted twice today', type: 'observation'},
    ])
    const {context: text} = await context(ctx, {repo})
    // each memory line ends with its ref (issue 18): a unique prefix of its key
    for (const line of text.split('\n').slice(1)) expect(line).toMatch(/ \[[0-9a-f]{8,12}\]$/)
    const lines = text.split('\n').map(withoutRef)
    expect(lines[0]).toBe('[Memory: 4 entries, 1 observations, 1 insights, 1 procedures, 1 heuristics]')
    expect(lines[1]).toBe('[H] Always run migrations before seeding the database')
    expect(lines[2]).toBe('[I] Caching the lockfile halves CI time')
    expect(lines[3]).toBe('[P] Low value procedure about formatting')
    // observations only when the others leave room: here they do
    expect(lines[4]).toBe('[O] The staging cluster restarted twice today')
  })

  it('stays under the token budget at several budgets, counted with a real BPE tokenizer', async () => {
    const {ctx, repo} = memRepo()
    const items: Seed[] = []
    for (let i = 0; i < 120; i++) {
      items.push({content: `Heuristic number ${i}: prefer explicit ${['timeouts', 'retries', 'schemas', 'indexes'][i % 4]} in service ${i}`, type: 'heuristic', importance: (i % 10) / 10})
    }
    await seed(ctx, repo, items)
    const count = await loadTokenCounter()
    for (const tokens of [60, 100, 300, 600, 1_000]) {
      const preview = await contextPreview(ctx, {repo, tokens})
      expect(count(preview.context)).toBe(preview.estimatedTokens)
      expect(preview.estimatedTokens).toBeLessThan(tokens)
      expect(preview.maxTokens).toBe(tokens)
      expect(preview.layers).toEqual([])
      expect(preview.crossRepoScope).toEqual([])
      const {context: plain} = await context(ctx, {repo, tokens})
      expect(plain).toBe(preview.context)
      // a bigger budget never shows less
      expect(preview.context.split('\n').length).toBeGreaterThan(1)
    }
    const def = await contextPreview(ctx, {repo})
    expect(def.maxTokens).toBe(600)
    expect(def.estimatedTokens).toBeLessThan(600)
    // the most important come first
    expect(def.context.split('\n')[1]).toMatch(/^\[H\] Heuristic number \d*9:/)
  })

  it('feedback reorders the context (the stored priority follows it)', async () => {
    const {ctx, repo} = memRepo()
    const [a, b] = await seed(ctx, repo, [
      {content: 'Prefer feature flags over long-lived branches', type: 'heuristic', importance: 0.6},
      {content: 'Prefer small commits with one purpose each', type: 'heuristic', importance: 0.6},
    ])
    const first = async () => withoutRef((await context(ctx, {repo})).context.split('\n')[1])
    const loser = (await first()).includes('feature flags') ? b : a
    await feedback(ctx, {memoryId: loser, wasUsed: true})
    await feedback(ctx, {memoryId: loser, wasUsed: true})
    expect(await first()).toBe(loser === a ? '[H] Prefer feature flags over long-lived branches' : '[H] Prefer small commits with one purpose each')
    await edit(ctx, {id: loser, importance: 0.1})
    expect(await first()).not.toBe(loser === a ? '[H] Prefer feature flags over long-lived branches' : '[H] Prefer small commits with one purpose each')
  })

  it('an empty repo gives just the counts line; a budget too small is a clear error', async () => {
    const {ctx, repo} = memRepo()
    expect((await context(ctx, {repo})).context).toBe('[Memory: 0 entries, 0 observations, 0 insights, 0 procedures, 0 heuristics]')
    await expect(context(ctx, {repo, tokens: 5})).rejects.toMatchObject({code: 'invalid_input'})
  })

  it('does not use a home it cannot see (sanity of the fixture)', () => {
    expect(tempDir()).toMatch(/mem-test-/)
  })
})
