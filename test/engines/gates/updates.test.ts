import {describe, expect, it} from 'vitest'
import {store} from '../../../src/operations/store.js'
import {recall} from '../../../src/operations/recall.js'
import {context} from '../../../src/operations/session-context.js'
import {edit} from '../../../src/operations/edit.js'
import {forget} from '../../../src/operations/forget.js'
import {get} from '../../../src/operations/get.js'
import {linkMemory, unlinkMemory} from '../../../src/operations/links.js'
import {factShape} from '../../../src/text/values.js'
import {restates, sayTheSame, updateRelation} from '../../../src/engines/currency/rules.js'
import {maintain} from '../../../src/operations/maintain.js'
import {history} from '../../../src/operations/history.js'
import {quality} from '../../../src/operations/quality.js'
import {heuristicOneLiner} from '../../../src/engines/enrichment/heuristic.js'
import {memRepo, storedId} from '../../helpers/mem.js'

const ARG = (v: string) => `Convention: always start function argument names with '${v}'`

describe('an update is not a duplicate', () => {
  // each pair: the older text, the newer, what the outcome says changed
  const UPDATES: Array<[string, string, RegExp]> = [
    [ARG('e_'), ARG('j_'), /'e_' → 'j_'/],
    ['Method names end with _a', 'Method names end with _x', /_a → _x/],
    ['The API dev server listens on port 3000', 'The API dev server listens on port 3100', /3000 → 3100/],
    ['CI runs on Node 18', 'CI runs on Node 20', /18 → 20/],
    ['always use CamelCase for class names', 'always use snake_case for class names', /CamelCase → snake_case/],
    ['always use snake_case for class names', 'always use all UPPERCASE for class names', /snake_case → UPPERCASE/],
    ['Fixtures live in test/fixtures/api', 'Fixtures live in test/fixtures/http', /test\/fixtures\/api → test\/fixtures\/http/],
    ['Run the e2e suite with --headed', 'Run the e2e suite with --headless', /--headed → --headless/],
    ['The payments service is owned by Alice', 'The payments service is owned by Bob', /Alice → Bob/],
    ['Bump the version to 2.4.1 before tagging', 'Bump the version to 2.4.2 before tagging', /2\.4\.1 → 2\.4\.2/],
    ['we use `jest` for unit tests in the web app', 'we use `vitest` for unit tests in the web app', /`jest` → `vitest`/],
    ['CI runs the tests on Node 18', 'Our CI pipeline runs the tests on Node 20', /18 → 20/],
    ['Install the dependencies with yarn; its lockfile is committed', 'Install the dependencies with npm; its lockfile is committed', /yarn → npm/],
    ['The default log level in production is warn', 'The default log level in production is info', /warn → info/],
    // other wordings: words of instruction ("use", "need", "always", "written", "done") added or dropped
    ['The data scripts need Python 3.11', 'Use Python 3.12 for the data scripts', /3\.11 → 3\.12/],
    ['We use Jest for unit tests', 'Unit tests are written with Vitest', /Jest → Vitest/],
    ['always use CamelCase for class names', 'Class names are written in snake_case', /CamelCase → snake_case/],
    ['Deploy to staging with `make deploy-staging`', 'Staging deploys are done with `fly deploy`', /`make deploy-staging` → `fly deploy`/],
    // one slot of one sentence changed, even to a word no rule reads as a value
    ['Write commit messages in Conventional Commits style', 'Write commit messages in gitmoji style', /Conventional Commits → gitmoji/],
    ['Format the code with Biome on save', 'Format the code with dprint on save', /Biome → dprint/],
    // the sentence's last word is what it states, even a short word
    ['Convention: boolean variables start with is', 'Convention: boolean variables start with has', /is → has/],
    // reworded: most words shared, one value changed for one of its kind, no word in the place of another
    ['Convention: class names end with _K', 'Always suffix class names with _T', /_K → _T/],
    ['Postgres runs locally on port 5432', 'The local Postgres container is exposed on port 6543', /5432 → 6543/],
    ['Every pull request needs 2 approvals', 'Pull requests merge after 3 approvals', /2 → 3/],
    // what is said of the subject after "is" / "are" is not a word naming another subject
    ['Max line length is 100 characters', 'Lines are wrapped at 120 characters', /100 → 120/],
    // a handle, a decorator and a pattern with placeholders are values: their change was a duplicate once (the update lost)
    ['Release manager this quarter is @dana.', 'Release manager this quarter is @priya.', /@dana → @priya/],
    ['Put @trace directly above each def.', 'Put @retry directly above each def.', /@trace → @retry/],
    ['Hotfix branches are named hotfix/<ticket>.', 'Hotfix branches are named hotfix-<version>.', /hotfix\/<ticket → hotfix-<version/],
  ]
  for (const [older, newer, reason] of UPDATES) {
    it(`stores "${newer}" after "${older}" and names the update`, async () => {
      const {ctx, repo, clock} = memRepo()
      const a = storedId(await store(ctx, {repo, content: older, type: 'heuristic'}))
      clock.advance(60_000)
      const r = await store(ctx, {repo, content: newer, type: 'heuristic'})
      expect(r.success).toBe(true)
      if (!r.success) return
      expect(r.updates).toEqual([{id: a, reason: expect.stringMatching(reason)}])
      // both stay live and readable
      expect((await get(ctx, {id: a})).supersededBy).toBeNull()
    })
  }

  it('finds the update among many memories that share its words (the newest candidates first)', async () => {
    const {ctx, repo, clock} = memRepo()
    const syllables = ['ka', 'lo', 'mi', 'nu', 'pe', 'ra', 'si', 'tu', 'vo']
    const words = syllables.flatMap((a) => syllables.map((b) => `${a}${b}x`)).slice(0, 75)
    let last = ''
    for (const w of words) {
      last = storedId(await store(ctx, {repo, content: `Run the ${w} tests with \`npm run test:${w}\``, type: 'procedure'}))
      clock.advance(60_000)
    }
    const w = words.at(-1)!
    const r = await store(ctx, {repo, content: `Run the ${w} tests with \`pnpm test:${w}\``, type: 'procedure'})
    expect(r).toMatchObject({success: true, updates: [{id: last}]})
  })

  it('finds another tool of the same role in other words (the role keys of the band table), among memories naming other tools', async () => {
    const {ctx, repo, clock} = memRepo()
    const sentry = storedId(await store(ctx, {repo, content: 'Errors are reported to Sentry', type: 'heuristic'}))
    clock.advance(60_000)
    // others naming tools of other roles, and of this role for another scope, stored since
    for (const content of ['The user database is Postgres 16', 'Cache sessions in Redis', 'Unit tests use Vitest', 'Backend errors also page the on-call through PagerDuty']) {
      await store(ctx, {repo, content, type: 'heuristic'})
      clock.advance(60_000)
    }
    const r = await store(ctx, {repo, content: 'Production errors go to Rollbar', type: 'heuristic'})
    expect(r).toMatchObject({success: true, updates: [{id: sentry, reason: 'Sentry → Rollbar'}]})
    // the context shows the newer only
    const shown = (await context(ctx, {repo})).context
    expect(shown).toContain('Rollbar')
    expect(shown).not.toContain('Sentry')
  })

  it('finds the memory whose tool a newer one says is gone, sharing no other word with it (the retired rule), and not one that only mentions it in passing', async () => {
    const {ctx, repo, clock} = memRepo()
    const typeorm = storedId(await store(ctx, {repo, content: 'The ORM is TypeORM; entities live in their own folder', type: 'heuristic'}))
    clock.advance(60_000)
    const history = storedId(await store(ctx, {repo, content: 'Run the unit tests with `npm test`', type: 'procedure'}))
    clock.advance(60_000)
    const r = await store(ctx, {repo, content: 'Database access goes through Drizzle now, and TypeORM has been removed', type: 'heuristic'})
    expect(r).toMatchObject({success: true, updates: [{id: typeorm, reason: 'TypeORM → Drizzle'}]})
    // a text about something else that says npm is gone is no update of the npm command (noSharedSubject)
    clock.advance(60_000)
    const other = await store(ctx, {repo, content: 'Release notes go in `CHANGES.md`; npm is no longer used in this repo', type: 'procedure'})
    expect(other).toMatchObject({success: true})
    expect(JSON.stringify(other)).not.toContain(history)
    const shown = (await context(ctx, {repo})).context
    expect(shown).toContain('Drizzle')
    expect(shown).not.toContain('entities live')
  })

  it('finds another command for the same task in other words (the task keys of the band table), among memories giving commands for other tasks', async () => {
    const {ctx, repo, clock} = memRepo()
    const rake = storedId(await store(ctx, {repo, content: 'Apply migrations with `rake db:migrate`', type: 'procedure'}))
    clock.advance(60_000)
    // commands for other tasks, and a text naming the task with no command, stored since
    for (const content of ['Run the unit tests with `bundle exec rspec`', 'Lint Ruby with `bundle exec rubocop`', 'Seed the local database with `bin/rails db:seed`', 'Migrations must be reversible']) {
      await store(ctx, {repo, content, type: 'procedure'})
      clock.advance(60_000)
    }
    const r = await store(ctx, {repo, content: 'Schema changes are applied by running bin/rails db:migrate', type: 'procedure'})
    expect(r).toMatchObject({success: true, updates: [{id: rake, reason: 'rake db:migrate → bin/rails db:migrate'}]})
    const shown = (await context(ctx, {repo})).context
    expect(shown).toContain('bin/rails db:migrate')
    expect(shown).not.toContain('rake db:migrate')
  })

  it('finds another option of one convention in other words (the convention keys of the band table), among memories choosing in other conventions', async () => {
    const {ctx, repo, clock} = memRepo()
    const squash = storedId(await store(ctx, {repo, content: 'Squash pull requests when merging', type: 'heuristic'}))
    clock.advance(60_000)
    for (const content of ['Use named exports everywhere', 'Commit messages follow Conventional Commits', 'No semicolons', 'Keep tests next to the code they cover']) {
      await store(ctx, {repo, content, type: 'heuristic'})
      clock.advance(60_000)
    }
    const r = await store(ctx, {repo, content: 'Every branch lands with a merge commit', type: 'heuristic'})
    expect(r).toMatchObject({success: true, updates: [{id: squash, reason: 'squash → merge commit'}]})
    const shown = (await context(ctx, {repo})).context
    expect(shown).toContain('merge commit')
    expect(shown).not.toContain('Squash')
  })

  it('a true restatement (same values; case, punctuation, spacing) is still a duplicate', async () => {
    const {ctx, repo} = memRepo()
    const a = storedId(await store(ctx, {repo, content: ARG('e_'), type: 'heuristic'}))
    for (const again of [ARG('e_'), `${ARG('e_')}.`, ARG('e_').toUpperCase().replace("'E_'", "'e_'"), `  convention:   always start function argument names with 'e_'  `]) {
      expect(await store(ctx, {repo, content: again, type: 'heuristic'})).toEqual({success: false, duplicateId: a, reason: 'duplicate'})
    }
    // the whole text in capitals, names with brackets included (it was stored as a new memory)
    const dark = 'Dark mode toggles the `dark` class on <html> through useTheme() in packages/ui'
    const b = storedId(await store(ctx, {repo, content: dark, type: 'heuristic'}))
    expect(await store(ctx, {repo, content: `${dark.toUpperCase()}!`, type: 'heuristic'})).toEqual({success: false, duplicateId: b, reason: 'duplicate'})
  })

  it('a value that differs by punctuation only inside it is another value (e_ vs e)', async () => {
    const {ctx, repo} = memRepo()
    storedId(await store(ctx, {repo, content: ARG('e_'), type: 'heuristic'}))
    expect((await store(ctx, {repo, content: ARG('e'), type: 'heuristic'})).success).toBe(true)
  })

  it('two observations that differ by a value are two events: both stored, neither outdated', async () => {
    const {ctx, repo, clock} = memRepo()
    const a = await store(ctx, {repo, content: 'The deploy job 41 failed on step 3', type: 'observation'})
    clock.advance(60_000)
    const b = await store(ctx, {repo, content: 'The deploy job 42 failed on step 5', type: 'observation'})
    expect(a.success && b.success).toBe(true)
    expect(b).not.toHaveProperty('updates')
    const {results} = await recall(ctx, {repo, q: 'deploy job failed'})
    expect(results).toHaveLength(2)
    expect(results.every((r) => r.stalenessWarning === null)).toBe(true)
  })

  it('texts about other subjects are not updates of each other', () => {
    const pairs = [
      ['The API listens on port 3000', 'The admin UI listens on port 3100'],
      ['Run unit tests with npm test', 'Run the linter with npm run lint'],
      ['Deploys go out on Tuesday', 'Postgres 16 runs in docker compose'],
      // one slot changed, but it is what the sentence is about, not its value
      ['The API dev server listens on port 3000', 'The admin dev server listens on port 3000'],
      ['Run unit tests with vitest', 'Run integration tests with vitest'],
      ["Always use 'e_' for class names", "Always use 'e_' for method names"],
      // reworded, but the words of one stand where the other's stand, or the value is another
      ['Convention: method names end with _a', 'Always suffix class names with _K'],
      ['Always suffix method names with _a', 'Always suffix class names with _K'],
      ['Postgres runs locally on port 5432', 'Production runs Postgres 16'],
      // a slot after a word of content is what is done, not a value: two rules
      ['The carts module: handlers retry with backoff', 'The carts module: handlers use idempotency keys'],
      // a pronoun in the last word's place states nothing
      ['The deploy job runs on merge to main', 'The deploy job runs on merge to it'],
      // a quoted value at the end does not make the word before it the clause's value
      ['Run migrations with `npm run migrate`', 'Run seeds with `npm run seed`'],
      ['Always prefix class names with T_', 'Convention: class names end with _K'],
      ['The API listens on port 3000', 'Start the worker locally; it listens on port 3100'],
      // a name right before a word of the subject, beside another value: what the sentence is about
      ['Install Python packages with uv', 'Install JavaScript packages with uv'],
      ['Install Python packages with uv', 'Install JavaScript packages with pnpm'],
      ['The Go services are built with Bazel', 'The Rust services are built with Cargo'],
      ['Deploy the Go service with ko', 'Deploy the Rust service with cargo'],
      ['The Redis container listens on port 6379', 'The Postgres container listens on port 5432'],
      ['Use the eu-central-1 region for EU customers', 'Use the us-west-2 region for US customers'],
    ]
    for (const [a, b] of pairs) expect(updateRelation(factShape(b), factShape(a)), `${a} / ${b}`).toBeNull()
    // a name that is the sentence's only value, or one that changed alone, is what it states
    const updates = [
      ['Use the Jest runner', 'Use the Vitest runner'],
      ['Payments go through the Stripe API', 'Payments go through the Adyen API'],
      ['Install Python packages with pip', 'Install Python packages with uv'],
      ['The Stripe webhook secret lives in Vault', 'The Stripe webhook secret lives in Doppler'],
      // a name after a word of instruction or of means is what is used; a value after it is no subject word
      ['Use the Jest runner for unit tests', 'Use the Vitest runner for unit tests'],
      ['Use the Stripe SDK for payments', 'Use the Adyen SDK for payments'],
      ['Deploy with the Fly CLI to production', 'Deploy with the Render CLI to production'],
      // words that say the fact changed are not what it is about
      ['The GraphQL gateway listens on port 4000', 'The GraphQL gateway moved to port 4100'],
      ['The mobile app is written in React Native', 'The mobile app is now written in Flutter'],
      ['Staging runs Postgres 15', 'Staging was upgraded to Postgres 16'],
    ]
    for (const [a, b] of updates) expect(updateRelation(factShape(b), factShape(a)), `${a} / ${b}`).not.toBeNull()
  })

  it('a text written in capitals has words, not names: its subject is compared as any other', () => {
    // in capitals, every word would be a name, and two texts of one template (a consolidation's
    // "— 12 observations, …") were one subject with other values; found by the maintenance bench
    const other = (what: string, since: string) => `${what} — 12 observations, ${since} – 28 Feb 2026.\n- (note 15593)`
    const pairs = [
      [other('LOAD TESTS RUN WITH K6 AGAINST STAGING ONLY', '11 Dec 2025'), other('WEBHOOK SIGNATURES ARE CHECKED AGAINST THE IP RANGES', '17 Sep 2025')],
      ['NEVER PUSH TO MAIN ON FRIDAYS', 'NEVER RUN MIGRATIONS ON PROD'],
    ]
    for (const [a, b] of pairs) {
      expect(updateRelation(factShape(b), factShape(a)), `${a} / ${b}`).toBeNull()
      expect(restates(factShape(b), factShape(a)), `${a} / ${b}`).toBe(false)
    }
    // and an update in capitals is still one
    expect(updateRelation(factShape("CONVENTION: ALWAYS START FUNCTION ARGUMENT NAMES WITH 'J_'"), factShape("CONVENTION: ALWAYS START FUNCTION ARGUMENT NAMES WITH 'E_'"))?.reason).toBe("'E_' → 'J_'")
    expect(updateRelation(factShape('THE API DEV SERVER LISTENS ON PORT 3100'), factShape('THE API DEV SERVER LISTENS ON PORT 3000'))?.reason).toBe('3000 → 3100')
    // a constant's name in capitals in an ordinary sentence is a value
    expect(updateRelation(factShape('Set MAX_RETRY_COUNT to 5 for outbound webhooks'), factShape('Set MAX_RETRY_COUNT to 3 for outbound webhooks'))?.reason).toBe('3 → 5')
    expect(updateRelation(factShape('Errors are reported to ROLLBAR'), factShape('Errors are reported to SENTRY'))).not.toBeNull()
    // a text and its copy in capitals say the same, names with brackets included (`useTheme(` / `USETHEME(`)
    for (const text of ['Dark mode toggles the `dark` class on <html> through useTheme() in packages/ui', 'Tenant queries go through scopedDb(orgId), which adds org_id to every insert']) {
      expect(sayTheSame(factShape(`${text.toUpperCase()}!`), factShape(text)), text).toBe(true)
    }
  })

  it('a case style and a suffix of the same names are two conventions', () => {
    const pairs = [
      ['always use CamelCase for class names', 'Convention: class names end with _K'],
      ['Class names are written in snake_case', 'Class names end with _K'],
      ['Always suffix class names with _T', 'Class names are written in all UPPERCASE'],
    ]
    for (const [a, b] of pairs) {
      expect(updateRelation(factShape(b), factShape(a)), `${a} / ${b}`).toBeNull()
      expect(updateRelation(factShape(a), factShape(b)), `${b} / ${a}`).toBeNull()
    }
  })

  it('one template, another subject: two conventions, not one and its update', () => {
    const things = ['function argument', 'variable', 'method', 'class', 'constant', 'private field']
    const templates = [
      'Convention: always start {t} names with {v}',
      '{t} names must start with {v}',
      'Convention: {t} names end with {v}',
      'Always suffix {t} names with {v}',
      'Always use {v} for {t} names',
      'Prefix {t} names with {v}',
    ]
    // every template against every other (other wordings too), for every pair of subjects
    for (const tpl of templates) {
      for (const other of templates) {
        for (const a of things) {
          for (const b of things) {
            if (a === b) continue
            const older = factShape(tpl.replace('{t}', a).replace('{v}', "'e_'"))
            for (const v of ["'j_'", "'e_'"]) {
              const newer = other.replace('{t}', b).replace('{v}', v)
              expect(updateRelation(factShape(newer), older), `${tpl.replace('{t}', a)} → ${newer}`).toBeNull()
              // nor does one restate the other (a revert across wordings would then update the wrong fact)
              expect(restates(factShape(newer), older), `${tpl.replace('{t}', a)} ≡ ${newer}`).toBe(false)
            }
          }
        }
      }
    }
  })
})

describe('the newest wins, visibly', () => {
  it('a revert said in other words updates the version that replaced it', async () => {
    const {ctx, repo, clock} = memRepo()
    const first = storedId(await store(ctx, {repo, content: 'Mount new public routes under /api/v1', type: 'heuristic'}))
    clock.advance(86_400_000)
    const v3 = await store(ctx, {repo, content: 'Mount new public routes under /v3', type: 'heuristic'})
    expect(v3).toMatchObject({success: true, updates: [{id: first}]})
    clock.advance(86_400_000)
    // the first value again, in other words: it is current, /v3 is outdated
    const back = await store(ctx, {repo, content: 'Public API routes live under /api/v1', type: 'heuristic'})
    expect(back).toMatchObject({success: true, updates: [{id: storedId(v3), reason: '/v3 → /api/v1'}]})
    const {results} = await recall(ctx, {repo, q: 'Where do new public routes go?'})
    expect(results[0].id).toBe(storedId(back))
    expect(results.find((r) => r.id === storedId(v3))?.stalenessWarning).toContain(storedId(back))
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('Public API routes live under /api/v1')
    expect(text).not.toContain('/v3')
  })

  it('a value that names one thing carries a revert with fewer words shared', async () => {
    const {ctx, repo, clock} = memRepo()
    storedId(await store(ctx, {repo, content: 'Production errors go to Honeybadger', type: 'heuristic'}))
    clock.advance(86_400_000)
    const sentry = storedId(await store(ctx, {repo, content: 'Production errors go to Sentry', type: 'heuristic'}))
    clock.advance(86_400_000)
    expect(await store(ctx, {repo, content: 'Errors are reported to Honeybadger', type: 'heuristic'})).toMatchObject({success: true, updates: [{id: sentry, reason: 'Sentry → Honeybadger'}]})
    // a number is weaker evidence: one word of two shared is not enough
    storedId(await store(ctx, {repo, content: 'Workers retry 3 times', type: 'heuristic'}))
    clock.advance(86_400_000)
    storedId(await store(ctx, {repo, content: 'Workers retry 5 times', type: 'heuristic'}))
    clock.advance(86_400_000)
    expect(await store(ctx, {repo, content: 'Webhook deliveries are attempted 3 times', type: 'heuristic'})).toEqual({success: true, id: expect.any(String)})
  })

  it('the same value in a text about another fact reverts nothing', async () => {
    const {ctx, repo, clock} = memRepo()
    storedId(await store(ctx, {repo, content: 'Run the unit tests with `npx vitest run`', type: 'procedure'}))
    clock.advance(86_400_000)
    const make = await store(ctx, {repo, content: 'To run unit tests: `make test`', type: 'procedure'})
    expect(make).toMatchObject({success: true, updates: [expect.anything()]})
    clock.advance(86_400_000)
    // the test runner is another fact than the command, though both name vitest
    const runner = await store(ctx, {repo, content: 'We use Vitest for unit tests', type: 'heuristic'})
    expect(runner).toEqual({success: true, id: expect.any(String)})
    // nor does a text that says more than the value again: no revert of the Prettier note (the
    // same-role rule reads it as the formatter changed again, an update of the dprint note only)
    storedId(await store(ctx, {repo, content: 'Code is formatted with Prettier', type: 'heuristic'}))
    clock.advance(86_400_000)
    const dprint = await store(ctx, {repo, content: 'Format the code with dprint on save', type: 'heuristic'})
    expect(dprint).toMatchObject({success: true, updates: [expect.anything()]})
    clock.advance(86_400_000)
    expect(await store(ctx, {repo, content: 'Formatting is Prettier with printWidth 100 and singleQuote.', type: 'heuristic'})).toEqual({
      success: true,
      id: expect.any(String),
      updates: [{id: storedId(dprint), reason: 'dprint → Prettier'}],
    })
    // a revert of a fact that never changed updates nothing either
    const port = await store(ctx, {repo, content: 'The admin UI listens on port 3000', type: 'heuristic'})
    expect(port).toEqual({success: true, id: expect.any(String)})
  })

  it('recall ranks the newest version first and warns on the older ones, naming the newer', async () => {
    const {ctx, repo, clock} = memRepo()
    const ids: string[] = []
    for (const v of ['e_', 'f_', 'g_', 'j_']) {
      ids.push(storedId(await store(ctx, {repo, content: ARG(v), type: 'heuristic', importance: v === 'e_' ? 0.9 : 0.5})))
      clock.advance(86_400_000)
    }
    const {results} = await recall(ctx, {repo, q: 'What is the convention for function argument names?'})
    expect(results[0].id).toBe(ids[3])
    expect(results[0].stalenessWarning).toBeNull()
    const older = results.filter((r) => r.id !== ids[3])
    expect(older.map((r) => r.id).sort()).toEqual(ids.slice(0, 3).sort())
    for (const r of older) expect(r.stalenessWarning).toContain(ids[3])
  })

  it('the session context holds only the newest of each subject', async () => {
    const {ctx, repo, clock} = memRepo()
    for (const style of ['CamelCase', 'snake_case', 'all UPPERCASE']) {
      storedId(await store(ctx, {repo, content: `always use ${style} for class names`, type: 'heuristic'}))
      clock.advance(60_000)
    }
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('always use all UPPERCASE for class names')
    expect(text).not.toContain('CamelCase')
    expect(text).not.toContain('snake_case')
  })

  it('the current version of a changed fact is in the context before more important memories that never changed', async () => {
    const {ctx, repo, clock} = memRepo()
    const things = ['invoices', 'refunds', 'carts', 'coupons', 'reviews', 'shipments', 'payouts', 'webhooks', 'sessions', 'exports']
    const rules = ['are validated before they reach the queue', 'keep an audit trail', 'never block the request thread', 'retry with backoff', 'log a correlation id', 'are covered by contract tests']
    for (const thing of things) {
      for (const rule of rules) {
        await store(ctx, {repo, content: `The ${thing} module: handlers ${rule}`, type: 'heuristic', importance: 0.9})
        clock.advance(60_000)
      }
    }
    await store(ctx, {repo, content: 'CI runs on Node 18', type: 'heuristic'})
    clock.advance(60_000)
    await store(ctx, {repo, content: 'CI runs on Node 20', type: 'heuristic'})
    const text = (await context(ctx, {repo})).context
    expect(text.split('\n')[1]).toMatch(/^\[H\] CI runs on Node 20 \[/)
    expect(text).not.toContain('Node 18')
    // the rest of the budget still goes to the most important memories
    expect(text.split('\n').filter((l) => l.includes(' module: handlers ')).length).toBeGreaterThan(10)
  })

  it('the current version of a changed fact leads the context in a repo of any size (not only among its best-ranked memories)', async () => {
    const {ctx, repo, clock} = memRepo()
    // more important memories than the context reads as its pool (~170 for 600 tokens)
    const things = ['invoices', 'refunds', 'carts', 'coupons', 'reviews', 'shipments', 'payouts', 'webhooks', 'sessions', 'exports', 'imports', 'tenants', 'quotas', 'reports', 'alerts', 'audits', 'billing', 'search', 'profiles', 'avatars']
    const rules = ['are validated before they reach the queue', 'keep an audit trail', 'never block the request thread', 'retry with backoff', 'log a correlation id', 'are covered by contract tests', 'emit metrics per tenant', 'use idempotency keys', 'read from the replica', 'cache for one minute']
    for (const thing of things) {
      for (const rule of rules) {
        await store(ctx, {repo, content: `The ${thing} module: handlers ${rule}`, type: 'heuristic', importance: 0.95})
        clock.advance(60_000)
      }
    }
    await store(ctx, {repo, content: 'CI runs on Node 18', type: 'heuristic', importance: 0.2})
    clock.advance(60_000)
    await store(ctx, {repo, content: 'CI runs on Node 20', type: 'heuristic', importance: 0.2})
    const text = (await context(ctx, {repo})).context
    expect(text.split('\n')[1]).toMatch(/^\[H\] CI runs on Node 20 \[/)
    expect(text).not.toContain('Node 18')
  })

  it('forgetting the newer makes the older current again; a wrong grouping is undone with distinct', async () => {
    const {ctx, repo, clock} = memRepo()
    const a = storedId(await store(ctx, {repo, content: 'CI runs on Node 18', type: 'heuristic'}))
    clock.advance(60_000)
    const b = storedId(await store(ctx, {repo, content: 'CI runs on Node 20', type: 'heuristic'}))
    expect((await context(ctx, {repo})).context).not.toContain('Node 18')

    // a person says these are two facts: both show again, no warning
    await linkMemory(ctx, {id: b, targetId: a, relation: 'distinct'})
    expect((await get(ctx, {id: a})).links).toEqual([{targetId: b, relation: 'distinct'}])
    expect((await context(ctx, {repo})).context).toContain('Node 18')
    const {results} = await recall(ctx, {repo, q: 'which node version does CI run on'})
    expect(results.every((r) => r.stalenessWarning === null)).toBe(true)

    // relinking as an update restores the pair; removing the link removes both directions
    await linkMemory(ctx, {id: b, targetId: a, relation: 'updates'})
    expect((await get(ctx, {id: a})).links).toEqual([{targetId: b, relation: 'updated-by'}])
    await unlinkMemory(ctx, {id: b, targetId: a})
    expect((await get(ctx, {id: a})).links).toEqual([])

    await linkMemory(ctx, {id: b, targetId: a, relation: 'updates'})
    await forget(ctx, {id: b})
    expect((await context(ctx, {repo})).context).toContain('Node 18')
  })

  it('an edit of the newer keeps it current: the older stays outdated', async () => {
    const {ctx, repo, clock} = memRepo()
    const a = storedId(await store(ctx, {repo, content: 'The API dev server listens on port 3000', type: 'procedure'}))
    clock.advance(60_000)
    const b = storedId(await store(ctx, {repo, content: 'The API dev server listens on port 3100', type: 'procedure'}))
    clock.advance(60_000)
    const edited = storedId(await edit(ctx, {id: b, content: 'The API dev server listens on port 3100 (set PORT to change it)'}))
    const {results} = await recall(ctx, {repo, q: 'api dev server port'})
    expect(results[0].id).toBe(edited)
    const old = results.find((r) => r.id === a)
    expect(old?.stalenessWarning).toContain(edited)
  })
})

describe('one-liners keep identifiers whole', () => {
  it('underscores, dots and dashes inside names stay; emphasis at word edges goes', () => {
    expect(heuristicOneLiner('Set STRIPE_WEBHOOK_SECRET in the env')).toBe('Set STRIPE_WEBHOOK_SECRET in the env')
    expect(heuristicOneLiner('Prefix env vars with ACME_CHECKOUT_ always')).toBe('Prefix env vars with ACME_CHECKOUT_ always')
    expect(heuristicOneLiner('methods end with _a, then _x')).toBe('methods end with _a, then _x')
    expect(heuristicOneLiner('Use **pnpm**, not _npm_, in my-app.config.ts')).toBe('Use pnpm, not npm, in my-app.config.ts')
  })
})

describe('maintenance and quality keep every fact and name the conflicts', () => {
  it('dedup forgets no update (one-character values, same folded text); it links pairs no store linked, and leaves distinct ones', async () => {
    const {ctx, repo, clock} = memRepo()
    const a = storedId(await store(ctx, {repo, content: ARG('e_'), type: 'heuristic'}))
    clock.advance(60_000)
    const b = storedId(await store(ctx, {repo, content: ARG('e'), type: 'heuristic'}))
    clock.advance(60_000)
    const c = storedId(await store(ctx, {repo, content: 'CI runs on Node 18', type: 'heuristic'}))
    clock.advance(60_000)
    const d = storedId(await store(ctx, {repo, content: 'CI runs on Node 20', type: 'heuristic'}))
    await unlinkMemory(ctx, {id: d, targetId: c})
    expect((await get(ctx, {id: c})).links).toEqual([])

    await maintain(ctx, {repo, stages: ['dedup']})
    for (const id of [a, b, c, d]) expect((await get(ctx, {id})).forgottenAt).toBeNull()
    expect((await get(ctx, {id: d})).links).toEqual([{targetId: c, relation: 'updates'}])
    expect((await get(ctx, {id: c})).links).toEqual([{targetId: d, relation: 'updated-by'}])

    // a person's `distinct` holds against the next pass
    await linkMemory(ctx, {id: d, targetId: c, relation: 'distinct'})
    await maintain(ctx, {repo, stages: ['dedup']})
    expect((await get(ctx, {id: c})).links).toEqual([{targetId: d, relation: 'distinct'}])
  })

  it('dedup links a revert said in other words that no store linked', async () => {
    const {ctx, repo, clock} = memRepo()
    storedId(await store(ctx, {repo, content: 'Mount new public routes under /api/v1', type: 'heuristic'}))
    clock.advance(60_000)
    const v3 = storedId(await store(ctx, {repo, content: 'Mount new public routes under /v3', type: 'heuristic'}))
    clock.advance(60_000)
    const back = storedId(await store(ctx, {repo, content: 'Public API routes live under /api/v1', type: 'heuristic'}))
    // as if stored before the rule (or imported): the revert is not linked
    await unlinkMemory(ctx, {id: back, targetId: v3})
    expect((await get(ctx, {id: back})).links).toEqual([])
    await maintain(ctx, {repo, stages: ['dedup']})
    expect((await get(ctx, {id: back})).links).toEqual([{targetId: v3, relation: 'updates'}])
    expect((await get(ctx, {id: v3})).links).toContainEqual({targetId: back, relation: 'updated-by'})
    // both stay live: a revert in other words is linked, never resolved
    for (const id of [back, v3]) expect((await get(ctx, {id})).supersededBy).toBeNull()
  })

  it('dedup never forgets a revert (18 → 20 → 18) as a duplicate of the outdated 18', async () => {
    const {ctx, repo, clock} = memRepo()
    // another wording in between: linked, but not a pair maintenance is sure of
    storedId(await store(ctx, {repo, content: 'CI runs the tests on Node 18', type: 'heuristic'}))
    clock.advance(60_000)
    storedId(await store(ctx, {repo, content: 'Our CI pipeline runs the tests on Node 20', type: 'heuristic'}))
    clock.advance(60_000)
    const c = storedId(await store(ctx, {repo, content: 'CI runs the tests on Node 18', type: 'heuristic'}))
    await maintain(ctx, {repo, stages: ['dedup']})
    expect((await get(ctx, {id: c})).forgottenAt).toBeNull()
    const {results} = await recall(ctx, {repo, q: 'which node version does CI run the tests on'})
    expect(results[0].id).toBe(c)
    expect(results[0].stalenessWarning).toBeNull()
  })

  it('dedup resolves what it is sure of (one sentence, one slot changed): the older is superseded, with the reason; distinct undoes it', async () => {
    const {ctx, repo, clock} = memRepo()
    const ids: string[] = []
    for (const v of ['e_', 'f_', 'j_']) {
      ids.push(storedId(await store(ctx, {repo, content: ARG(v), type: 'heuristic'})))
      clock.advance(60_000)
    }
    // reworded: linked, not sure, stays live
    const py = storedId(await store(ctx, {repo, content: 'The data scripts need Python 3.11', type: 'heuristic'}))
    clock.advance(60_000)
    const py2 = storedId(await store(ctx, {repo, content: 'Use Python 3.12 for the data scripts', type: 'heuristic'}))
    const r = await maintain(ctx, {repo, stages: ['dedup']})
    expect(r.stages[0].affected).toBe(2)
    const [e, f, j] = await Promise.all(ids.map((id) => get(ctx, {id})))
    expect(e.supersededBy).toBe(f.id)
    expect(f.supersededBy).toBe(j.id)
    expect(j.supersededBy).toBeNull()
    expect(e.forgetReason).toBe("maintenance: the same sentence with another value, 'e_' → 'f_'")
    expect(e.forgottenAt).toBeNull()
    expect((await history(ctx, {id: j.id})).chain.map((m) => m.id)).toEqual([j.id, f.id, e.id])
    expect((await get(ctx, {id: py})).supersededBy).toBeNull()
    expect((await get(ctx, {id: py2})).links).toEqual([{targetId: py, relation: 'updates'}])
    const {results} = await recall(ctx, {repo, q: 'What is the convention for function argument names?'})
    expect(results.map((m) => m.id)).toEqual([j.id])
    // a second pass changes nothing
    expect((await maintain(ctx, {repo, stages: ['dedup']})).stages[0].affected).toBe(0)

    // a person says f_ and j_ are two facts: f_ is live again, both show, nothing groups them again
    await linkMemory(ctx, {id: j.id, targetId: f.id, relation: 'distinct'})
    const f2 = await get(ctx, {id: f.id})
    expect(f2.supersededBy).toBeNull()
    expect(f2.forgetReason).toBeNull()
    expect(f2.links).toEqual([{targetId: e.id, relation: 'updates'}, {targetId: j.id, relation: 'distinct'}])
    expect((await get(ctx, {id: j.id})).supersedes).toBeNull()
    expect((await recall(ctx, {repo, q: 'What is the convention for function argument names?'})).results.map((m) => m.id).sort()).toEqual([f.id, j.id].sort())
    await maintain(ctx, {repo, stages: ['dedup']})
    expect((await get(ctx, {id: f.id})).supersededBy).toBeNull()
  })

  it('the quality report names outdated memories as conflicts, with example ids and advice', async () => {
    const {ctx, repo, clock} = memRepo()
    const old = storedId(await store(ctx, {repo, content: 'The API dev server listens on port 3000', type: 'procedure'}))
    clock.advance(60_000)
    storedId(await store(ctx, {repo, content: 'The API dev server listens on port 3100', type: 'procedure'}))
    const report = await quality(ctx, {repo})
    const conflict = report.issues.find((i) => i.kind === 'conflict')
    expect(conflict).toMatchObject({count: 1, exampleIds: [old]})
    expect(conflict?.advice).toContain('--supersedes')
    expect(conflict?.advice).toContain('distinct')
    await forget(ctx, {id: old})
    expect((await quality(ctx, {repo})).issues.some((i) => i.kind === 'conflict')).toBe(false)
  })
})
