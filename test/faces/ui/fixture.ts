// A real `mem serve` (startServer, in this process) on 127.0.0.1 with a private MEM_HOME, two
// registered repositories and fixture memories spread over two weeks, for the web UI tests.
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {MemClient} from '../../../src/client/index.js'
import {createKey} from '../../../src/config/api-keys.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {type RunningServer, startServer, type StartServerOptions} from '../../../src/faces/server/serve.js'
import {fixedClock} from '../../helpers/mem.js'

const TOPICS = [
  'the payments service', 'the release pipeline', 'the docs site', 'the mobile build', 'the search indexer', 'the auth gateway',
  'the billing cron', 'the design system', 'the data warehouse', 'the feature flags', 'the websocket relay', 'the image resizer',
  'the staging database', 'the onboarding wizard', 'the metrics exporter',
]
const FACTS = [
  'needs node 20 and fails on 22 because of a native addon',
  'is deployed from main only, never from release branches',
  'reads its settings from config/local.yaml before the environment',
  'has integration tests that need docker compose up first',
]
const TYPES = ['observation', 'insight', 'procedure', 'heuristic'] as const

export interface Fixture {
  url: string
  repo: string
  repoId: string
  otherRepo: string
  home: string
  server: RunningServer
  client: MemClient
  ids: string[]
  /** The memory stored with a second version (content edit): [old id, new id]. */
  versioned: [string, string]
  close: () => Promise<void>
}

/**
 * 60 memories over 15 days (4 hours apart) in the main repo, 4 flaky-test observations that
 * consolidation can group, one memory edited into a second version, and 3 memories in a second repo.
 */
export async function startFixture(
  options: {server?: Partial<StartServerOptions>; withKeys?: boolean; startedIn?: 'fresh'} = {},
): Promise<Fixture & {keys?: Record<'read' | 'write' | 'admin', string>; fresh: string}> {
  const base = mkdtempSync(join(tmpdir(), 'mem-e2e-'))
  const root = join(base, 'app')
  const other = join(base, 'tools')
  // `startedIn: 'fresh'`: the service runs in a git repository that has no memories yet
  const fresh = join(base, 'fresh')
  const home = join(base, 'home')
  for (const dir of [root, other, fresh]) mkdirSync(join(dir, '.git'), {recursive: true})
  const clock = fixedClock('2026-03-01T08:00:00.000Z')
  const ctx = openMem({home, cwd: root, now: clock, longLived: true, meaning: {model: 'off'}})
  const server = await startServer({
    runtime: ctx,
    port: 0,
    updateCheck: false,
    ...(options.startedIn === 'fresh' ? {currentRepo: fresh} : {}),
    ...options.server,
    maintenance: {schedule: false, ...options.server?.maintenance},
  })
  const client = new MemClient(server.url)
  const ids: string[] = []
  let i = 0
  for (const topic of TOPICS) {
    for (const fact of FACTS) {
      const type = TYPES[i % 4]
      const r = await client.store({repo: root, content: `${topic[0].toUpperCase()}${topic.slice(1)} ${fact} (${i}).`, type, tags: [topic.split(' ')[1], type], importance: 0.3 + (i % 7) / 10})
      if (!r.success) throw new Error(`fixture store failed: ${JSON.stringify(r)}`)
      ids.push(r.id!)
      clock.advance(4 * 3600_000)
      i++
    }
  }
  for (const variant of ['on Mondays', 'after the clock changes', 'when the runner is slow', 'under parallel load']) {
    const r = await client.store({repo: root, content: `The checkout integration test times out ${variant}, retrying passes`, type: 'observation', tags: ['flaky-tests']})
    ids.push(r.id!)
    clock.advance(3600_000)
  }
  const first = await client.store({repo: root, content: 'Run the linters with npm run lint before pushing', type: 'procedure', tags: ['lint']})
  clock.advance(60_000)
  const edited = await client.edit(first.id!, {content: 'Run the linters with npm run lint:all before pushing (lint alone skips docs)'})
  ids.push(edited.id!)
  for (const note of ['Scripts in tools/ are run with tsx', 'The tools repo has no tests yet', 'Release notes are generated from commit messages']) {
    await client.store({repo: other, content: note, type: 'insight'})
  }
  const repoId = (await client.browse(root, 0, 1)).repo
  let keys: Record<'read' | 'write' | 'admin', string> | undefined
  if (options.withKeys) {
    keys = {
      read: (await createKey(home, {name: 'reader', scope: 'read', now: new Date()})).key,
      write: (await createKey(home, {name: 'writer', scope: 'write', now: new Date()})).key,
      admin: (await createKey(home, {name: 'admin', scope: 'admin', now: new Date()})).key,
    }
  }
  return {
    url: server.url,
    repo: root,
    repoId,
    otherRepo: other,
    home,
    server,
    client,
    ids,
    versioned: [first.id!, edited.id!],
    keys,
    fresh,
    close: async () => {
      client.close()
      await server.close()
      await ctx.close()
      rmSync(base, {recursive: true, force: true})
    },
  }
}
