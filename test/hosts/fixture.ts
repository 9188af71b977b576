// Memories for the agent-hook tests: a dozen important ones that fill the session context (their
// lines reach its budget), and a few of ordinary importance that the context has no room for, so a
// prompt about one of them is what injects it. Distinct subjects and words: none is a duplicate or
// an update of another.
import {store} from '../../src/operations/store.js'
import {openMem} from '../../src/runtime/open-mem.js'

/** Important memories: they fill the session context. */
export const CONTEXT_MEMORIES: Array<{content: string; type: string}> = [
  {type: 'heuristic', content: 'Keep every React component in its own file under src/components, named in PascalCase, with its stylesheet beside it as a CSS module of the same name.'},
  {type: 'insight', content: 'The billing service rounds currency amounts with banker rounding, so invoices computed by hand differ by one cent in about two percent of cases; that is expected.'},
  {type: 'procedure', content: 'Release: bump the version with changesets, merge the generated release pull request, then the publish workflow tags the commit and pushes packages to the registry.'},
  {type: 'heuristic', content: 'Never log request bodies in the gateway: they carry customer addresses and phone numbers, and the log pipeline keeps everything for ninety days.'},
  {type: 'insight', content: 'Search results feel slow mostly because the frontend debounces keystrokes by 400 ms; the Elasticsearch query itself answers within 30 ms at the 95th percentile.'},
  {type: 'procedure', content: 'To add a locale, copy locales/en.json to the new language code, translate the values, and register the code in i18n/config.ts under supportedLocales.'},
  {type: 'heuristic', content: 'Prefer feature flags from the LaunchDarkly wrapper in lib/flags over environment variables for anything product managers may want to switch without a deploy.'},
  {type: 'insight', content: 'Mobile Safari drops the websocket connection when the tab sleeps; the chat client reconnects with exponential backoff capped at thirty seconds.'},
  {type: 'procedure', content: 'Regenerate the GraphQL client types after a schema change with pnpm codegen, and commit the generated files under src/generated together with the schema.'},
  {type: 'heuristic', content: 'Date handling goes through date-fns with explicit time zones; Moment is deprecated here and the lint rule no-restricted-imports refuses it.'},
  {type: 'insight', content: 'Image uploads larger than eight megabytes fail silently on the CDN edge; the uploader resizes them in the browser before sending.'},
  {type: 'procedure', content: 'Rotate the staging database password through the vault CLI, then restart the api deployment so its pods read the new secret reference.'},
  {type: 'heuristic', content: 'Background jobs must be idempotent: the queue delivers at least once, and retries after a worker crash replay the whole job.'},
  {type: 'insight', content: 'The analytics dashboard counts sessions in UTC, so its daily figures for customers in California shift by a day around midnight Pacific time.'},
  {type: 'procedure', content: 'Seed a fresh local database with make seed, which loads the anonymised fixtures from fixtures/seed.sql and creates the admin account admin@example.test.'},
  {type: 'heuristic', content: 'Payment webhooks are verified with the Stripe signing secret before any parsing; a handler that skips verification is rejected in review.'},
  {type: 'insight', content: 'The PDF export times out for reports with more than five thousand rows because Puppeteer renders the whole table; the CSV export has no such limit.'},
  {type: 'procedure', content: 'Profile a slow endpoint by setting TRACE_SQL=1 on the api container; every query with its duration then goes to the trace log in tmp/sql-trace.'},
  {type: 'heuristic', content: 'Public API responses keep their field names forever: add new fields, never rename or remove one without a new version under /v2.'},
  {type: 'insight', content: 'Email deliverability dropped in March because the SPF record lacked the new sending provider; the DNS change fixed bounces within a day.'},
  {type: 'procedure', content: 'Storybook stories live beside each component; run pnpm storybook to browse them and pnpm chromatic to publish visual snapshots for review.'},
  {type: 'heuristic', content: 'Accessibility: every interactive element needs a visible focus ring and a label; the axe check in the end-to-end suite fails the build otherwise.'},
  {type: 'insight', content: 'Memory use of the worker grows by about forty megabytes per hour because the PDF renderer caches fonts; the nightly restart keeps it bounded.'},
  {type: 'procedure', content: 'Translate error codes into user messages through errors/catalog.ts; adding a code means a message in every locale file and a unit test of its mapping.'},
]

/** Ordinary memories the context has no room for: a prompt about one injects it. */
export const PROMPT_MEMORIES = {
  docker: {type: 'procedure', content: 'Run the integration tests with npm run test:int; they need docker running', importance: '0.3'},
  clock: {type: 'insight', content: 'The checkout test is flaky because it depends on the system clock; use fake timers', importance: '0.3'},
  pnpm: {type: 'heuristic', content: 'Use pnpm, never npm install, in this monorepo', importance: '0.3'},
} as const

export const CONTEXT_IMPORTANCE = '0.95'

/**
 * The fixture's memories stored into the repository at `root` (MEM_HOME `home`), through the store
 * operation in this process: one context for all of them instead of a `mem store` per memory (the
 * CLI's own store is tested in test/faces/cli; here it is only the starting state, 27 stores that
 * cost ~0.8 s of CPU through the CLI and ~0.1 s this way). Returns the ids of PROMPT_MEMORIES.
 */
export async function seedFixture(root: string, home: string): Promise<Record<keyof typeof PROMPT_MEMORIES, string>> {
  // word-only, as the CLI runs under the suite's MEM_MEANING=off (vitest.config.ts)
  const ctx = openMem({home, cwd: root, meaning: {model: 'off'}})
  try {
    const add = async (m: {content: string; type: string}, importance: string) => {
      const r = await store(ctx, {repo: root, content: m.content, type: m.type as 'insight', importance: Number(importance)})
      if (!r.success) throw new Error(`fixture memory not stored: ${JSON.stringify(r)}`)
      return r.id
    }
    for (const m of CONTEXT_MEMORIES) await add(m, CONTEXT_IMPORTANCE)
    const ids = {} as Record<keyof typeof PROMPT_MEMORIES, string>
    for (const [name, m] of Object.entries(PROMPT_MEMORIES)) ids[name as keyof typeof PROMPT_MEMORIES] = await add(m, m.importance)
    return ids
  } finally {
    await ctx.close()
  }
}
