// The currency set: facts that change over a long history (naming rules, ports, versions,
// commands, tools, owners, paths, flags), noted the way an agent notes them — no `supersedes`,
// sometimes in other words than the first time — among the distractors a real repo has (the
// own recall set's memories, test/bench/recall/data). Generated deterministically: the same
// histories every run. Each history is one repository.

import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {rng} from '../lib/corpus.mjs'

/** Subjects: how an agent states the fact ({v} is the value), how an agent asks, the values it takes over time. */
export const SUBJECTS = [
  {say: ["Convention: always start function argument names with '{v}'", "Function argument names must start with '{v}'"], ask: ['What is the convention for function argument names?', 'how should I name function arguments'], values: ['e_', 'f_', 'j_', 'a_', 'p_']},
  {say: ['Convention: method names end with {v}', 'Always suffix method names with {v}'], ask: ['How should method names end?', 'what suffix do method names take'], values: ['_a', '_x', '_p', '_m']},
  // two more conventions in the same words as the two above, about other names: never updates of them
  {say: ["Convention: always start variable names with '{v}'", "Variable names must start with '{v}'"], ask: ['What is the convention for variable names?'], values: ['v_', 'w_', 'm_']},
  {say: ['Convention: class names end with {v}', 'Always suffix class names with {v}'], ask: ['How should class names end?'], values: ['_C', '_K', '_T']},
  {say: ['always use {v} for class names', 'Class names are written in {v}'], ask: ['What case style do class names use?', 'how do we name classes'], values: ['CamelCase', 'snake_case', 'all UPPERCASE', 'kebab-case']},
  {say: ['Constants are named in {v}', 'Name constants in {v}'], ask: ['How are constants named?'], values: ['SCREAMING_SNAKE_CASE', 'camelCase', 'PascalCase']},
  {say: ['The API dev server listens on port {v}', 'Start the API locally with pnpm dev; it serves on port {v}'], ask: ['Which port does the API dev server use?', 'what port is the local api on'], values: ['3000', '3100', '8080', '4000']},
  {say: ['Postgres runs locally on port {v}', 'The local Postgres container is exposed on port {v}'], ask: ['What port is the local Postgres on?'], values: ['5432', '5433', '6543']},
  {say: ['CI runs on Node {v}', 'The project targets Node {v} (see .nvmrc)'], ask: ['Which Node version do we use?', 'what node version does CI run'], values: ['18', '20', '22']},
  {say: ['Use Python {v} for the data scripts', 'The data scripts need Python {v}'], ask: ['Which Python version do the data scripts need?'], values: ['3.10', '3.11', '3.12']},
  {say: ['The database is Postgres {v}', 'Production runs Postgres {v}'], ask: ['Which Postgres version does the database run?'], values: ['14', '15', '16']},
  {say: ['Run the unit tests with `{v}`', 'To run unit tests: `{v}`'], ask: ['How do I run the unit tests?', 'command for unit tests'], values: ['npm test', 'pnpm test', 'npx vitest run', 'make test']},
  {say: ['Build the web app with `{v}`', 'The production build of the web app is `{v}`'], ask: ['How do I build the web app?'], values: ['npm run build', 'pnpm build', 'vite build', 'make build']},
  {say: ['Deploy to staging with `{v}`', 'Staging deploys are done with `{v}`'], ask: ['How do I deploy to staging?'], values: ['./deploy.sh staging', 'make deploy-staging', 'fly deploy --app shop-staging']},
  {say: ['We use {v} for unit tests', 'Unit tests are written with {v}'], ask: ['Which test runner do we use for unit tests?'], values: ['Jest', 'Vitest', 'Mocha', 'node:test']},
  {say: ['Install the dependencies with {v}; its lockfile is committed', 'Dependencies are installed with {v} only'], ask: ['Which package manager installs the dependencies?', 'npm or pnpm or yarn?'], values: ['npm', 'pnpm', 'yarn', 'bun']},
  {say: ['Lint with {v} before pushing', 'The linter is {v}'], ask: ['Which linter do we use?'], values: ['ESLint', 'Biome', 'oxlint']},
  {say: ['Code is formatted with {v}', 'Format the code with {v} on save'], ask: ['Which formatter formats the code?'], values: ['Prettier', 'Biome', 'dprint']},
  {say: ['The payments service is owned by {v}', 'Ask {v} about the payments service, who owns it'], ask: ['Who owns the payments service?'], values: ['Alice', 'Bob', 'Priya', 'Chen', 'Marta']},
  {say: ['The search team lead is {v}', 'Questions about search go to {v}, the team lead'], ask: ['Who leads the search team?'], values: ['Jonas', 'Amara', 'Kenji']},
  {say: ['The API reads its database URL from {v}', 'Set {v} to point the API at a database'], ask: ['Which env variable holds the database URL?'], values: ['DATABASE_URL', 'PG_URL', 'DB_CONNECTION_STRING']},
  {say: ['Feature flags are named with the prefix {v}', 'Prefix feature flag names with {v}'], ask: ['How are feature flags named?'], values: ['ff_', 'flag_', 'feat_']},
  {say: ['Branch names follow {v}', 'Name branches {v}'], ask: ['How should branches be named?'], values: ['feature/<ticket>', 'feat/<ticket>-<slug>', '<user>/<ticket>']},
  {say: ['The default log level in production is {v}', 'Production logs at level {v} by default'], ask: ['What is the default production log level?'], values: ['info', 'warn', 'error']},
  {say: ['The HTTP client timeout is {v} ms', 'Outbound HTTP calls time out after {v} ms'], ask: ['What is the HTTP client timeout?'], values: ['5000', '10000', '30000']},
  {say: ['Set MAX_RETRY_COUNT to {v} for outbound webhooks', 'Outbound webhooks retry {v} times (MAX_RETRY_COUNT)'], ask: ['How many times do outbound webhooks retry?'], values: ['3', '5', '2']},
  {say: ['Test coverage must stay above {v}%', 'The coverage threshold is {v}%'], ask: ['What is the coverage threshold?'], values: ['80', '85', '90']},
  {say: ['Max line length is {v} characters', 'Lines are wrapped at {v} characters'], ask: ['What is the maximum line length?'], values: ['100', '120', '80']},
  {say: ['Indent with {v}', 'Indentation is {v}'], ask: ['How do we indent code?'], values: ['2 spaces', '4 spaces', 'tabs']},
  {say: ['React component files are named in {v}', 'Name React component files in {v}'], ask: ['How are component files named?'], values: ['PascalCase', 'kebab-case', 'camelCase']},
  {say: ['Public API routes live under {v}', 'Mount new public routes under {v}'], ask: ['Where do public API routes live?'], values: ['/api/v1', '/api/v2', '/v3']},
  {say: ['App configuration lives in {v}', 'The app reads its settings from {v}'], ask: ['Where is the app configuration file?'], values: ['config/app.yaml', 'config/settings.toml', '.config/app.json']},
  {say: ['The Docker base image is {v}', 'Build images FROM {v}'], ask: ['Which Docker base image do we use?'], values: ['node:20-alpine', 'node:22-slim', 'gcr.io/distroless/nodejs22']},
  {say: ['Staging is at {v}', 'The staging environment URL is {v}'], ask: ['What is the staging URL?'], values: ['https://staging.shop.example', 'https://stg.shop.example']},
  {say: ['Releases go out on {v}', 'We release every {v}'], ask: ['Which day do releases go out?'], values: ['Tuesday', 'Thursday', 'Monday']},
  {say: ['Every pull request needs {v} approvals', 'Pull requests merge after {v} approvals'], ask: ['How many approvals does a pull request need?'], values: ['1', '2', '3']},
  {say: ['Product pages are cached for {v} seconds', 'The product page cache TTL is {v} seconds'], ask: ['How long are product pages cached?'], values: ['60', '300', '600']},
  {say: ['Run the e2e tests with the {v} flag', 'Playwright e2e runs use {v}'], ask: ['Which flag do the e2e tests run with?'], values: ['--headed', '--headless', '--ui']},
  {say: ['Database migrations run with `{v}`', 'Apply migrations with `{v}`'], ask: ['How do I run database migrations?'], values: ['knex migrate:latest', 'drizzle-kit migrate', 'prisma migrate deploy']},
  {say: ['Errors are reported to {v}', 'Production errors go to {v}'], ask: ['Where are production errors reported?'], values: ['Sentry', 'Rollbar', 'Honeybadger']},
  {say: ['Background jobs run on {v}', 'The job queue is {v}'], ask: ['What runs the background jobs?'], values: ['BullMQ', 'pg-boss', 'Agenda']},
  {say: ['Commit messages follow {v}', 'Write commit messages in {v} style'], ask: ['What style do commit messages follow?'], values: ['Conventional Commits', 'gitmoji', 'the Linux kernel']},
]

export const HISTORIES = 8
export const SUBJECTS_PER_HISTORY = 14


const DAY = 86_400_000

/**
 * The histories: per repository, its memories in the order they were noted (each with its time,
 * and for facts the subject and version), and one question per subject.
 */
export function currencySet(subjects = SUBJECTS) {
  const distractors = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'recall', 'data', 'memories.json'), 'utf8'))
  const rand = rng(20261124)
  const pick = (list) => list[Math.floor(rand() * list.length)]
  const histories = []
  for (let h = 0; h < HISTORIES; h++) {
    const start = Date.parse('2026-03-01T09:00:00Z')
    const items = []
    const facts = []
    // subjects of this history: a window over the list (each subject in two or three histories)
    for (let s = 0; s < SUBJECTS_PER_HISTORY; s++) {
      const subject = subjects[(h * 5 + s) % subjects.length]
      const sid = `h${h}s${s}`
      // 1 to 5 versions (most facts change at least once), values in an order of this history
      const versions = 1 + Math.min(4, Math.floor(rand() * 5) + (rand() < 0.9 ? 1 : 0))
      const offset = Math.floor(rand() * subject.values.length)
      const first = Math.floor(rand() * subject.say.length)
      let t = start + Math.floor(rand() * 20) * DAY
      const ids = []
      for (let v = 0; v < versions; v++) {
        const value = subject.values[(offset + v) % subject.values.length]
        // an update is noted in the first words two times in three, else in the other phrasing
        const wording = v === 0 || rand() < 0.67 ? first : (first + 1) % subject.say.length
        const content = subject.say[wording].replace('{v}', value)
        ids.push(items.length)
        items.push({at: t, content, type: 'heuristic', subject: sid, version: v, wording})
        t += (5 + Math.floor(rand() * 25)) * DAY
      }
      facts.push({sid, ask: pick(subject.ask), versions: ids})
    }
    // the distractors: this history's share of the own set, at times over the same months
    for (let d = h; d < distractors.length; d += HISTORIES) {
      const m = distractors[d]
      items.push({at: start + Math.floor(rand() * 120) * DAY + Math.floor(rand() * DAY), content: m.content, type: m.type, tags: m.tags ?? [], importance: m.importance})
    }
    const order = items.map((it, i) => ({it, i})).sort((a, b) => a.it.at - b.it.at || a.i - b.i)
    const position = new Map(order.map((o, k) => [o.i, k]))
    histories.push({
      name: `history-${h}`,
      items: order.map((o) => o.it),
      facts: facts.map((f) => ({...f, versions: f.versions.map((i) => position.get(i))})),
    })
  }
  return histories
}
