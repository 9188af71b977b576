// Currency's rules and guards (src/engines/currency), one part at a time: each rule finds a pair no
// other rule finds, and each guard refuses a pair that only it refuses — so removing any one of them
// alone fails a test here (test/engines/currency/remove-each.mjs removes each in turn and checks).
import {describe, expect, it} from 'vitest'
import {factShape} from '../../../src/text/values.js'
import {PAIR_GUARDS, RESTATEMENT_RULES, UPDATE_RULES, restates, updateRelation} from '../../../src/engines/currency/rules.js'
import * as guards from '../../../src/engines/currency/guards.js'

const update = (older: string, newer: string) => updateRelation(factShape(newer), factShape(older))
const restated = (older: string, newer: string) => restates(factShape(newer), factShape(older))

/** Pairs (older, newer) each rule finds and no other does, with what changed. */
const RULE_CASES: Record<string, Array<[string, string, string]>> = {
  'same-words': [
    ['The linter is ESLint', 'The linter is Biome', 'ESLint → Biome'],
    ['Indent with 2 spaces', 'Indent with tabs', '2, spaces → tabs'],
    // a bare "only" says "and nothing else": the rule changed, not an exception beside it (namedException)
    ['Releases are cut from main', 'Releases are cut only from release branches', 'main → branches'],
    // a handle and a decorator are values (values.ts), and a handle never names what the sentence is about (nameOfSubject)
    ['Release manager this quarter is @dana.', 'Release manager this quarter is @priya.', '@dana → @priya'],
    ['Every function must carry the @retry decorator.', 'Every function must carry the @trace decorator.', '@retry → @trace'],
    ['Code owners for `payments/` are the @billing team.', 'Code owners for `payments/` are the @checkout-platform team.', '@billing → @checkout-platform'],
    // a pattern with placeholders is a value
    ['Kafka topics are named <domain>.<entity>.<event>', 'Kafka topics are named <team>-<service>-<event>', 'domain>.<entity>.<event → team>-<service>-<event'],
    ['Unit test functions are named like test_<unit>_<case>.', 'Unit test functions are named like given_<state>_when_<action>.', 'test_<unit>_<case → given_<state>_when_<action'],
  ],
  wider: [
    ['We use Jest for unit tests', 'Run unit tests with vitest', 'Jest → vitest'],
    ['CI runs the tests on Node 18', 'Our CI pipeline runs the tests on Node 20', '18 → 20'],
  ],
  reworded: [
    ['Convention: class names end with _K', 'Always suffix class names with _T', '_K → _T'],
    // a command that adds a word to the other's (not two tasks of one program: otherTaskOfProgram)
    ['Seed local data with `bin/rails db:seed`', 'Seed local data with `bin/rails db:seed:replant` so stale rows go first', '`bin/rails db:seed` → `bin/rails db:seed:replant`'],
    ['The max upload size is 10 MB', 'Uploads are limited to 25 MB', '10 → 25'],
  ],
  'same-frame': [
    ['Format the code with Biome on save', 'Format the code with dprint on save', 'Biome → dprint'],
    ['Write commit messages in gitmoji style', 'Write commit messages in the Linux kernel style', 'gitmoji → the Linux kernel'],
    // a word of instruction before the slot is not one of content (slotAfterContentWord)
    ['Money values in the ledger use integer cents.', 'Money values in the ledger use int64 micros.', 'integer cents → int64 micros'],
    ['String literals use double quotes.', 'String literals use single quotes.', 'double → single'],
  ],
  // one tool of a role for another (roles.ts), in words that share little
  'same-role': [
    ['Errors are reported to Sentry', 'Production errors go to Rollbar', 'Sentry → Rollbar'],
    ['Lint with ESLint before pushing', 'The linter is Biome', 'ESLint → Biome'],
    ['Background jobs run on BullMQ', 'The job queue is pg-boss', 'BullMQ → pg-boss'],
    // roles added on 2026-11-28 (component tests, Android HTTP clients, …)
    ['Component tests use Enzyme', 'React components are tested with Testing Library', 'Enzyme → Testing Library'],
    ['Networking in the Android app goes through Retrofit', 'The Android app talks to the API with Ktor', 'Retrofit → Ktor'],
    // no word of the subject shared, but each text holds a word of what the role does (text/roles.ts ROLE_WORDS)
    ['Request bodies are validated with yup', 'Payload schemas are written in valibot', 'yup → valibot'],
    ['Client state lives in MobX', 'Use Jotai atoms for state', 'MobX → Jotai'],
    ['Python requirements are installed with pip', 'uv locks the Python environment', 'pip → uv'],
    ['The REST server runs on Express', 'Routes are Fastify handlers', 'Express → Fastify'],
    // tools of the roles added then (Moment in js-dates, the css-styling role); "the app" names no scope
    ['Timestamps are formatted with Moment', 'Use date-fns for date formatting', 'Moment → date-fns'],
    ['Styles live in Sass partials', 'We style with styled-components now', 'Sass → styled-components'],
    ['The app keeps its state in Redux', 'Client state lives in Zustand', 'Redux → Zustand'],
    // a tool a command runs (not its program) is the role's: toolsInCommands leaves it
    ['End-to-end tests use `npx cypress run`', 'The e2e suite is started by `npx playwright test` these days', 'cypress → playwright'],
    // roles of documents, media and embedded pieces (charts, PDFs, images, migrations, hooks), and a Go router written with its path
    ['Charts on the admin pages use Chart.js', 'Graphs in the admin are drawn with Apache ECharts', 'Chart.js → ECharts'],
    ['Database migrations are Flyway SQL scripts', 'Schema changes are Liquibase changelogs', 'Flyway → Liquibase'],
    ['Git hooks are installed by husky', 'Pre-commit checks run through lefthook', 'husky → lefthook'],
    ['Routing in the Go API is done with gorilla/mux', 'We register handlers on a chi router', 'gorilla/mux → chi'],
    // a package path names its package last; names of two words joined; more roles of Go, .NET and secrets
    ['We log with logrus and its JSON formatter', 'Structured logging uses the standard log/slog package', 'logrus → log/slog'],
    ['The C# services serialize payloads with Newtonsoft.Json', 'JSON in the .NET projects is handled by System.Text.Json', 'Newtonsoft.Json → System.Text.Json'],
    ['CI credentials are kept in HashiCorp Vault', 'Pipelines fetch their credentials from AWS Secrets Manager', 'Vault → Secrets Manager'],
    // "packages" is a word of what the package managers do; React Native navigation is a role
    ['Manage Python packages with pipenv', 'Poetry owns the dependency list now', 'pipenv → Poetry'],
    ['The mobile app navigates with react-navigation stacks', 'Screens are routed by file name through expo-router', 'react-navigation → expo-router'],
  ],
  // one amount of one thing for another, in other units and words (text/quantities.ts)
  'same-quantity': [
    ['Logs are kept for 30 days', 'We retain log data for a week', '30 days → a week'],
    ['Indent with two spaces', 'Use four-space indentation', 'two spaces → four-space'],
    ['Keep functions under 50 lines', 'A function longer than thirty lines should be split', '50 lines → thirty lines'],
    ['The HTTP client timeout is 30000 ms', 'Outbound HTTP calls time out after 5s', '30000 ms → 5s'],
  ],
  // one runtime required at another version, in other words (text/versions.ts)
  'same-version': [
    ['Node 18 is the minimum supported runtime', 'Requires Node.js 20 or newer', 'Node 18 → Node.js 20'],
    ['We target Python 3.9', 'The codebase needs CPython 3.12 or later', 'Python 3.9 → CPython 3.12'],
    // words after the version that say how it is had or where it is written are no subject of its own (ownSubjects)
    ['Ruby 3.1 is required, see `.ruby-version`', 'We run Ruby 3.3 with YJIT enabled for every app', 'Ruby 3.1 → Ruby 3.3'],
    // a word naming the runtime's own kind is no subject of its own either (ownSubjects: namesRoleOf)
    ['The database is Postgres 15', 'Production runs Postgres 16', 'Postgres 15 → Postgres 16'],
    // words of a requirement between the runtime and its version, and a version joined to its runtime (text/versions.ts)
    ['The Ruby toolchain is pinned at 3.1', 'Build with Ruby 3.3', 'Ruby 3.1 → Ruby 3.3'],
    ['Functions use the nodejs18.x runtime', 'Functions are deployed on nodejs22.x', 'nodejs18.x → nodejs22.x'],
    // a stack upgraded at once: the same runtimes, each at another version
    ['Builds need Ruby 3.1 and Rails 7.0', 'The app is on Ruby 3.3 with Rails 7.2', 'Ruby 3.1, Rails 7.0 → Ruby 3.3, Rails 7.2'],
    // the older's version said to be gone, beside the one now used
    ['Builds target iOS 15', 'We dropped iOS 15; builds target iOS 17', 'iOS 15 → iOS 17'],
    // a version pinned "to", the Rust version as MSRV, React Native apart from React
    ['TypeScript is pinned to 5.0', 'Upgrade TypeScript to 5.6 before adding decorators', 'TypeScript 5.0 → TypeScript to 5.6'],
    ['The minimum supported Rust version is 1.74', 'MSRV: 1.80', 'Rust 1.74 → MSRV 1.80'],
  ],
  // another command for one task, in other words (text/commands.ts)
  'same-command': [
    ['Start the dev server with `npm run dev`', 'Local development boots via docker compose up', 'npm run dev → docker compose up'],
    ['Format the Rust code with cargo fmt --all', 'Before committing, run just fmt', 'cargo fmt --all → just fmt'],
    ['Add packages with `yarn install`', 'Set up node_modules by running `pnpm i`', 'yarn install → pnpm i'],
    ['Run the suite with `cargo test`', 'Tests are executed by `cargo nextest run` now', 'cargo test → cargo nextest run'],
  ],
  // another option of one convention (text/choices.ts)
  'same-choice': [
    ['Squash pull requests when merging', 'Land each pull request with a merge commit', 'squash → merge commit'],
    ['Keep tests next to the code they cover', 'All tests live under the top-level `tests/` folder', 'next to the code → under the top-level tests/ folder'],
    ['Use default exports for React components', 'Export every component under its own name', 'default exports → under its own name'],
    // the older's option refused after it in the newer, beside another
    ['Squash-merge pull requests', 'Merge pull requests with a rebase; the squash option is disabled in the repository settings', 'squash → merge pull requests with a rebase'],
    // a choice stated in a short first clause of a longer text (namedInPassing); a commit's message and its subject are one part
    ['Squash-merge all pull requests', 'Merge with a rebase so every commit lands on main as written; squashing is disabled in the repository settings', 'squash → merge with a rebase'],
    ['Write commit messages in Conventional Commits format', 'Commit subjects are plain imperative sentences without feat: or fix: prefixes', 'conventional commits → imperative'],
    // conventions of commit messages, the changelog, API versions and imports
    ['Commit messages follow the format `[JIRA-123] Short summary`', 'Commit messages follow Conventional Commits', 'jira-123 → conventional commits'],
    ['Update CHANGELOG.md by hand in every pull request', 'Add a changeset for each user-facing change', 'changelog.md by hand → changeset'],
    ['Keep the API version in the URL path', 'Clients pick the API version with an Accept header', 'url path → accept header'],
    ['Use relative imports between modules', 'Import through the `@/` alias', 'relative imports → alias'],
  ],
  // the newer's first sentence changes the older's value, and a sentence after it says more (why, since when)
  'first-sentence': [
    ['The iOS app targets `IPHONEOS_DEPLOYMENT_TARGET 15.0`', 'The iOS app targets `IPHONEOS_DEPLOYMENT_TARGET 16.0`; phones older than iOS 16 lose support', '`IPHONEOS_DEPLOYMENT_TARGET 15.0` → `IPHONEOS_DEPLOYMENT_TARGET 16.0`'],
    ['Stub outgoing HTTP in tests with `nock`', 'Stub outgoing HTTP in tests with `msw`. Requests made by fetch never reach nock.', '`nock` → `msw`'],
    // what it states before it says why ("so that", "which", "because")
    ['Name release branches `release-x.y`', 'Name release branches `rel/x.y` so that the `deploy-prod` job can match them', '`release-x.y` → `rel/x.y`'],
    // the first sentence in other words: same-quantity and same-version read it too
    ['Session tokens expire after 30 minutes', 'A session token now lasts 2 hours. The mobile clients asked for it, and the refresh endpoint still rotates them on every call.', '30 minutes → 2 hours'],
    ['The CLI needs Go 1.21 or newer', 'Building the CLI takes Go 1.23 at least. Older toolchains cannot compile the generics in `internal/iter`, and CI checks it on every push.', 'Go 1.21 → Go 1.23'],
    // against the older's own first sentence, when it says more too
    ['The API listens on port 8080; the admin UI on 8081.', 'The API listens on port 9000; health checks hit /healthz.', '8080 → 9000'],
    // an aside in brackets says why, naming the old value ("too" before a word says how much: no addition)
    ['Lint the shell scripts with shellcheck', 'Lint the shell scripts with shfmt (shellcheck warnings were too noisy)', 'shellcheck → shfmt'],
  ],
  // the newer says a thing the older names is gone (named before "removed", "no longer", "legacy"; right after "instead of")
  retired: [
    ['The ORM is TypeORM; entities live in their own folder', 'Database access goes through Drizzle now, and TypeORM has been removed', 'TypeORM → Drizzle'],
    ['Use Black to format Python code', 'Python code is formatted by `ruff format`; Black is no longer installed', 'Black → ruff'],
    ['Put new Python modules under `app/old/`', 'Put new Python modules under `app/core/`; `app/old/` is legacy and frozen', 'app/old/ → app/core/'],
    ['Install dependencies with npm', 'Use pnpm instead of npm for every install', 'npm → pnpm'],
    // a runtime at a version is a thing named too; "decommissioned", "anymore" say it is gone
    ['Builds target Kotlin 1.9.', 'Builds use the Gradle toolchain resolver now; Kotlin 1.9 is no longer produced.', 'Kotlin 1.9 → Gradle'],
    ['Jobs are queued in RabbitMQ.', 'Jobs go through Amazon SQS; the RabbitMQ cluster was decommissioned.', 'RabbitMQ → SQS'],
    // a thing that grows no more, or is moved off
    ['Use Sequelize for database access', 'Database access goes through Drizzle; do not add new Sequelize models', 'Sequelize → Drizzle'],
    ['Client state lives in Redux', 'Client state lives in Zustand stores; add no new Redux slices', 'Redux → Zustand'],
    ['Previews are hosted on Heroku', 'Previews moved off Heroku and now run on Fly.io', 'Heroku → Fly.io'],
    // what replaced it is the new thing of its role, not the first new thing named
    ['Frontend component tests are written with Enzyme', 'React components are tested with Testing Library; Enzyme is no longer used', 'Enzyme → Testing Library'],
    ['Local secrets live in `.env.local`.', 'Local secrets come from Doppler via `doppler run`; there is no `.env.local` anymore.', '.env.local → Doppler'],
    // a name no list holds, written as a name (a capital inside the sentence), is a thing too
    ['Release notes are compiled by Chronicle from the merged pull requests.', 'Release notes now come from the `changeset version` step; Chronicle was retired.', 'Chronicle → changeset version'],
    // so is the program a quoted command runs
    ['Run the smoke suite with `mage smoke`.', 'Smoke tests now live behind a pytest marker: run them with `pytest -m smoke`, the mage recipe is gone.', 'mage → pytest'],
    // an active "replaced" names what is gone after it
    ['Package the desktop app with Squirrel.', 'Desktop installers are built by `electron-builder`, which replaced Squirrel last year.', 'Squirrel → electron-builder'],
  ],
}

/** Pairs each restatement rule finds. */
const RESTATEMENT_CASES: Record<string, Array<[string, string]>> = {
  restates: [
    ['Indent with tabs', 'Indentation is tabs'],
    ['Errors are reported to Honeybadger', 'Production errors go to Honeybadger'],
  ],
}

/**
 * Pairs (older, newer) that a rule would find but that one guard alone refuses: no update (and, for
 * the restatement's guards, no restatement). Keyed by the guard's export name.
 */
const GUARD_CASES: Record<string, {updates?: Array<[string, string]>; restates?: Array<[string, string]>}> = {
  question: {
    updates: [['Does CI run on Node 18?', 'Does CI run on Node 20?']],
    restates: [['CI runs on Node 18', 'Does CI run on Node 18?']],
  },
  nameOfSubject: {
    updates: [
      ['Deploy the Go service with ko', 'Deploy the Rust service with cargo'],
      ['The EU cluster runs in eu-west-1', 'The US cluster runs in us-east-1'],
      // wider finds it
      ['Install Python packages with uv', 'Install JavaScript packages with uv'],
      // each word rule finds it (Python / JavaScript above are two scopes too, which every rule refuses since 2026-11-27)
      ['Install Terraform modules with uv', 'Install Ansible modules with uv'],
    ],
  },
  oneWordNoLikeValue: {updates: [['Staging uses Postgres 15', 'Staging is at https://stg.shop.example']]},
  anotherKind: {
    updates: [
      ['We use Jest for unit tests', 'To run unit tests: `npm test`'],
      // reworded finds these: a prefix is not a suffix, a case style not a suffix
      ['Always prefix class names with T_', 'Class names end with _K'],
      ['Class names are written in CamelCase', 'Class names end with _K'],
    ],
  },
  fewShared: {updates: [['The linter is Biome', 'Run the linter with npm run lint']]},
  // a rule of AGENTS.md and the procedure intake seeds from package.json: two things said of one command (first-sentence finds them by same-words)
  softBesideSameValue: {
    updates: [
      ['Run `pnpm test` before pushing; CI runs the same.', 'To run the tests, run `pnpm test` (package.json script "test": vitest run)'],
      ['Run `pnpm test` before pushing', 'To run the tests, run `pnpm test`'],
      // the word gained names what the command both quote does
      ['Always run `pnpm typecheck` after changing types.', 'To type-check, run `pnpm typecheck` (package.json script "typecheck": tsc --noEmit).'],
    ],
  },
  fewWordsShared: {
    updates: [
      ['Secrets are stored in Vault', 'Use the Jest runner'],
      ['Unit tests run with Vitest', 'Use the Jest runner'],
    ],
  },
  addressed: {
    updates: [['Great news, Mel: the mobile app now ships every Friday', 'The mobile app ships every Friday now, Melanie']],
  },
  otherLabel: {updates: [['Postgres runs locally on port 5432', 'Staging runs Postgres 15'], ['Postgres runs on port 5432', 'The team runs Postgres 15']]},
  commandAndName: {updates: [['We use Mocha for unit tests', 'To run unit tests: `npx vitest run`']]},
  // same-role finds it (yarn and pnpm run two commands; paraphrase set 5's wrong links were of this kind)
  toolsInCommands: {updates: [['`yarn build:example` builds the demo package', 'Type-check the demo with `pnpm --filter=demo typecheck`']]},
  noSharedSubject: {
    updates: [
      ['Incidents are announced in Slack', 'Design reviews happen on Discord'],
      // retired finds it: a thing said to be gone in a text about something else
      ['Run the unit tests with `npm test`', 'Release notes go in `CHANGES.md`; npm is no longer used in this repo'],
    ],
  },
  otherScope: {
    updates: [
      ['The frontend is deployed to Vercel', 'The backend is deployed to Netlify'],
      // two scopes of two kinds (a part of the product, a side of the stack)
      ['The admin panel is deployed to Vercel', 'The API is deployed to Netlify'],
      // two languages of one project (same-words finds it)
      ['Format Python with `black`', 'Format SQL with `sqlfluff fix`'],
      // inside a unit and across units (same-choice finds it)
      ['Never use relative imports across packages', 'Always use relative imports inside a package'],
      // a scope in a hyphenated word (reworded finds it)
      ['Run `just test-unit` for the fast tests', 'Run `just test-integration` for the tests that need a database'],
      // same-quantity finds it
      ['Frontend builds must finish within 10 minutes', 'Builds of the backend are allowed 30 minutes'],
      // same-command finds it
      ['Start the dev server with `npm run dev`', 'Serve production with `npm start`'],
      // same-choice finds it
      ['Squash-merge frontend pull requests', 'Backend pull requests keep a merge commit'],
      // same-words and reworded find it: a value and a scope changed together (a guard of every rule since blind set 8's wrong links)
      ['Backups are kept for 7 days in staging', 'Backups are kept for 35 days in production'],
      ['Keep lines under 100 characters in Python', 'Keep lines under 120 characters in Ruby'],
    ],
  },
  ownWordBeforeShared: {
    updates: [
      ['The Docker base image is node:22-slim', 'Build images FROM node:22-slim'],
      // same-role finds it
      ['Product emails are sent through SendGrid', 'Billing emails are sent through Postmark'],
    ],
    restates: [
      ['Production runs Postgres 15', 'Staging runs Postgres 15'],
      ['Releases go out on Tuesday', 'Deploys go out on Tuesday'],
    ],
  },
  ownWordsBetweenSame: {
    updates: [
      ['Redis runs on port 6379 locally', 'The web app now runs on port 5173'],
      // without a scope word (local / web are two scopes, which every rule refuses since 2026-11-27)
      ['Redis runs on port 6379 in docker', 'The mail catcher now runs on port 1025'],
    ],
  },
  littleBeforeSlot: {
    updates: [
      ['Use the staging database for demos', 'Use the production database for demos'],
      ['Always run the smoke suite before merging', 'Always run the full suite before merging'],
    ],
  },
  slotStatesNothing: {updates: [['The deploy job runs on merge to main', 'The deploy job runs on merge to it']]},
  negationInSlot: {updates: [['Feature flags are read from the config service', 'Feature flags are read from no local service']]},
  slotAfterContentWord: {updates: [['Production logs at level info by default', 'Production logs at level warn by default']]},
  valueOutsideSlot: {
    updates: [
      ['Fixtures in test/fixtures are loaded by the api suite', 'Fixtures in test/fixtures are loaded by the web suite'],
      ['Fixtures in test/fixtures are loaded by the billing suite', 'Fixtures in test/fixtures are loaded by the search suite'],
    ],
  },
  // the own recall set's one wrong link by meaning before this guard (two notes of several rules each)
  toolInPassing: {
    updates: [
      // same-quantity finds it: 19 words against 6
      ['Logs are kept for 30 days', 'We retain log data for a week, but audit trails, billing exports and security events follow their own schedules'],
      // same-command finds it: 21 words against 6
      ['Run the tests with `npm test`', 'When you change the schema or the fixtures, rerun the suite with `pnpm vitest run` and paste its summary in the PR'],
    ],
  },
  // named in a later clause of a text over 15 words: same-role finds the first, same-version the second, same-choice the last two
  namedInPassing: {
    updates: [
      ['Tax ids are encrypted at rest; never put them in log lines, exception messages or Sentry breadcrumbs', 'Production errors go to Rollbar with release tags attached'],
      ['Requires Node.js 20 or newer', 'The docs site is built by a separate job, which still runs on Node 18 for its plugins'],
      ['Squash pull requests when merging', 'Our merge queue has been flaky all month, so until it is fixed land every pull request with a merge commit'],
      // 20 words in one clause
      ['Squash pull requests when merging', 'Land each pull request with a merge commit so that the history of every branch stays readable in git log'],
    ],
  },
  // quantities of two dimensions: a time and a count, two things measured (reworded finds each)
  otherDimension: {
    updates: [
      ['The session cache keeps entries for 10 minutes', 'The session cache holds at most 5,000 entries'],
      ['Retry failed webhook deliveries up to 5 times', 'Stop retrying failed webhook deliveries after 24 hours'],
    ],
  },
  // one program, a word of its own in each command naming tasks they do not share (same-words, wider and reworded find each)
  otherTaskOfProgram: {
    updates: [
      ['Run `make lint` locally before pushing a branch', 'Run `make test` locally before pushing a branch'],
      ['Run `npx prisma migrate dev` after editing the schema', 'Run `npx prisma generate` after editing the schema'],
    ],
  },
  // one frame said of two things, each named by a value of its own (a path, an identifier) besides the value changed
  otherThingNamed: {
    updates: [
      // same-words and same-frame find it (with paths, "for `packages/core`", it is two parts named too: otherNamedPart)
      ['Coverage must stay above 80% for `core`', 'Coverage must stay above 60% for `cli`'],
      ['Android `minSdkVersion` is 24', 'Android `targetSdkVersion` is 34'],
      // same-quantity finds it
      ['API responses from `/search` must come back within 300 ms', 'API responses from `/export` may take up to 30 seconds'],
      // same-choice finds it
      ['Strings use double quotes in `packages/web`', 'Prefer single quotes for string literals in `packages/api`'],
    ],
  },
  // same-quantity finds each of these
  noSharedMeasured: {updates: [['Sessions expire after 30 minutes', 'Uploaded files are deleted after 7 days']]},
  otherThingMeasured: {
    updates: [
      ['The Postgres connection pool holds 20 connections', 'Open at most 50 connections from the Redis connection pool'],
      // the same without names (which otherThingNamed refuses too)
      ['The upload queue holds 500 items', 'Keep at most 100 items in the retry queue'],
    ],
  },
  oneSlotApart: {updates: [['Coverage must stay above 80% in the core library', 'Coverage must stay above 60% in the CLI']]},
  // same-version finds each of these
  ownSubjects: {
    updates: [
      ['The web app builds on Node 20', 'The Lambda functions run on Node 18'],
      ['Python 3.12 runs the services', 'Python 3.9 is the oldest version the SDK supports'],
    ],
  },
  inAddition: {
    updates: [
      ['Supports Node 18 and newer', 'CI also tests Node 22'],
      // same-command finds it
      ['Run the tests with `make test`', 'The specs also run through `just spec`'],
      // same-choice finds it
      ['Squash pull requests when merging', 'Release pull requests also keep a merge commit'],
      // same-words, wider and reworded find it; same-role finds the second (a guard of every rule)
      ['Releases ship on Tuesday', 'Releases also ship on Thursday'],
      ['Docs are built with Sphinx', 'Docs are also built with MkDocs'],
    ],
  },
  // same-choice finds each of these
  noSharedSubjectOfChoice: {updates: [['Name variables in camelCase', 'Database tables use snake_case']]},
  // same-choice finds it: the convention of another thing named (tables, columns)
  otherThingNamedByConvention: {updates: [['Database table names use PascalCase', 'Write database column names in snake_case']]},
  exceptionToBan: {
    updates: [
      ['Never use default exports', 'Storybook stories keep a default export'],
      // someone the ban lets through
      ['Never commit straight to `main`', 'Maintainers may commit typo fixes directly to `main`'],
    ],
  },
  otherUse: {
    updates: [['Interfaces model the public API', 'Type aliases model internal unions']]},
  otherPlaces: {updates: [['Shared modules use named exports', 'Storybook stories export their component as the default']]},
  otherBranches: {updates: [['Pull requests to main are squash-merged', 'Merges from the release branch keep a merge commit']]},
  // same-command finds each of these
  otherEcosystem: {
    updates: [
      ['Format with `cargo fmt`', 'Before pushing, run `terraform fmt -recursive`'],
      ['Run `cmake --build --target format` before committing', 'Format PHP with `composer format`'],
      // reworded finds it (paraphrase set 4's wrong links of 2026-11-27 were of this kind)
      ['Python tests run through `tox -e py312`', 'The test suite runs with `npm test`'],
      // wrappers in bin/ are their tool's (commands.ts ecosystemOf)
      ['Run the specs with `bin/rspec`', 'The tests run with `bin/qunit`'],
    ],
  },
  oneOfMany: {
    // same-command finds it
    updates: [['Run the whole suite with `make test`', 'Run one test file with `pytest path/to/test_x.py`']],
  },
  tasksOfItsOwn: {
    // (two programs, which otherTarget leaves; otherThingFor refuses these said "for the unit suite" / "for the types")
    updates: [['Lint and test the package with `make check`', 'Builds and tests run through `just ci`']]},
  otherTarget: {
    updates: [
      ['Run the core tests with `cargo test -p core`', 'Run the CLI tests with `cargo test -p cli`'],
      ['Start the API with `pnpm dev:api`', 'Start the worker with `pnpm dev:worker`'],
      ['Run the volox tests with `make test-volox`', 'Run the vomix suite through `just test-vomix`'],
      ['Start the local stack with `docker compose up`', 'Reset the local stack with `docker compose down -v`'],
      ['Create migrations with `alembic revision --autogenerate`', 'Apply migrations with `alembic upgrade head`'],
    ],
  },
  // one more thing logged, cached or kept out: same-words finds the first two, wider the third, reworded the second, same-frame the fourth
  addedObject: {
    updates: [
      ['Never commit .pem files.', 'Never commit .p12 files.'],
      ['We never commit `.npmrc` with tokens in it.', 'Never commit `.pypirc` with tokens in it, ever.'],
      ['Never log response payloads.', 'Always log response codes.'],
      ['Never log the full JWT in request handlers.', 'Never log the raw cookie header in request handlers.'],
    ],
  },
  // same-command finds each of these: one verb of the task, each text naming its own thing to do it to
  otherObjectOfVerb: {
    updates: [
      ['Type-check the Lambda handlers with `tsc --noEmit`', 'Type-check the Vue components with `vue-tsc --noEmit`'],
      // same-quantity finds it
      ['Cache rendered pages in Redis for 10 minutes', 'Cache exchange rates in memory for 60 seconds'],
    ],
  },
  // same-quantity finds it: one measure, "for" two things
  otherThingFor: {
    updates: [
      ['Timeouts for calls to the search cluster are 5 seconds', 'Timeouts for database queries are 30 seconds'],
      // same-command finds it: two commands, each for its own thing
      ['Run `bundle exec rspec` for the Rails app', 'Run `bundle exec rake test` for the billing gem'],
      // the kind of part both name ("crate", "module") says nothing of which one
      ['Run `cargo test -p server` for the server crate', 'Run `cargo nextest run -p parser` for the parser crate'],
      ['Run `./gradlew :app:testDebugUnitTest` for the app module', 'Run `./gradlew :domain:test` for the plain domain module'],
    ],
  },
  // a step that goes on from another text: same-command finds it
  nextStep: {
    updates: [
      ['Create the migration with `bin/rails generate migration AddUsers`', 'Then apply it with `bin/rails db:migrate`'],
      // a first clause on how the step before ended
      ['To release, run `npm publish --dry-run` first', 'If the dry run passes, run `npm publish` from the release tag'],
      ['Build the image with `docker build -t app .`', 'Once the image build finishes, push it with `docker push`'],
    ],
  },
  // same-choice finds it (a choice stated in a short first clause of a longer text)
  otherPartOfMessage: {updates: [['Commit messages start with a capitalized imperative verb', 'PR titles follow Conventional Commits with a scope in parentheses; the release tool reads them to write notes']]},
  otherNamedPart: {
    updates: [
      // same-role finds each
      ['In the `api` package, request bodies are validated with zod', 'In the `worker` package, queue messages are validated with ajv'],
      ['In `services/api`, use pino for logging', 'In `services/worker`, log with winston'],
      // same-words finds it
      ['The `orders` service owns the `carts` table', 'The `catalog` service owns the `products` table'],
      // reworded finds it
      ['The `release` branch deploys to production', 'The `canary` branch deploys to the canary cluster'],
      // a path after "on" (wider and reworded find it)
      ['Run mypy with `--strict` on `app/`', 'Run mypy without `--strict` on `scripts/`'],
    ],
  },
  // same-version finds it
  buildBesideSupport: {updates: [['The minimum supported Android version is 8', 'Build with the Android 14 SDK']]},
  // same-words and reworded find it
  otherTargetSaidOtherwise: {updates: [['Run `cargo test -p lexer` to test the lexer', 'Run `cargo test -p runtime` to test the interpreter']]},
  otherBound: {

    updates: [
      ['Node 18 is the minimum', 'Node 22 is the maximum we test'],
      ['The API keeps at least 2 replicas in every region', 'Never scale the API past a maximum of 10 replicas'],
      // same-words, same-frame, and wider, reworded and same-quantity each find these (the first two of blind set 3's wrong links by older rules were of this kind)
      ['Node: 18 minimum', 'Node: 22 maximum'],
      ['The cache holds a minimum of 100 entries', 'The cache holds a maximum of 5000 entries'],
      ['Usernames must be at least 3 characters long', 'Usernames may be at most 32 characters long'],
      // a ceiling said by a verb: limited, beyond, exceed, truncated
      ['Titles need at least 5 characters', 'Titles are limited to 120 characters'],
      ['The worker pool keeps at least 2 processes', 'The worker pool never grows beyond 16 processes'],
      // bounds of two words ("and newer", "up to"), and a value a thing starts with beside a bound
      ['The SDK supports Node 18 and newer', 'The SDK is tested up to Node 22'],
      ['Python 3.10 or later is required', 'Python 3.13 or older is what the wheels are built for'],
      ['Search returns 25 results by default', 'A caller may ask for up to 200 results'],
      ['Connection pools start with 4 connections', 'Connection pools grow to at most 40 connections'],
      // a bound said by a comparison: held above a number, or refused beyond it
      ['Passwords need at least 10 characters', 'Passwords longer than 64 characters are rejected'],
      ['Search terms shorter than 3 characters return nothing', 'Search terms are truncated to 100 characters'],
      ['Autoscaling keeps at least 3 workers', 'Autoscaling caps the workers at 20'],
    ],
  },
  // same-frame finds it (and reworded, as blind sets 1-3 showed: a linter beside a formatter)
  otherCodeCheck: {updates: [['Lua code is linted with luacheck', 'Lua code is formatted with StyLua']]},
  namedException: {
    updates: [
      // same-words finds it
      ['Ship on Tuesday', 'Ship on Thursday, docs-only changes any day'],
      // wider finds it
      ['The release branch is main', 'The release branch is trunk unless a hotfix is open'],
      // reworded finds it
      ['Releases ship on Tuesday', 'Releases ship on Thursday unless a holiday falls then'],
    ],
  },
  carvedOut: {
    updates: [
      ['Pull requests need two approvals', 'Docs-only pull requests need one approval'],
      // a case the rule lets through
      ['Deploys need two approvals', 'During an emergency a deploy can go out with one approval'],
      // same-version finds it
      ['Use Ruby 3.1', 'Only the legacy scripts still need Ruby 2.7'],
      // same-command finds it
      ['Run the tests with `make test`', 'Except for the browser suite, the specs are started by `just spec`'],
      // same-choice finds it
      ['Squash pull requests when merging', 'Only dependency bumps keep a merge commit'],
    ],
  },
  // the first paraphrase set's one link by same-quantity before this guard ("… OOM-killed the 4 GB worker twice" → "… 128 MB row groups")
  otherNounMeasured: {updates: [['The importer runs on 4 GB workers', 'Each import is split into 128 MB chunks']]},
  otherValues: {restates: [['The iOS app targets iOS 16', 'The iOS app is built with Xcode']]},
  fewWordsRestated: {restates: [['Name constants in camelCase', 'CamelCase']]},
}

describe('currency rules: each finds what no other rule finds', () => {
  for (const [kind, cases] of Object.entries(RULE_CASES)) {
    it(`${kind}`, () => {
      for (const [older, newer, reason] of cases) expect(update(older, newer), `${older} → ${newer}`).toEqual({kind, reason})
    })
  }
  for (const [kind, cases] of Object.entries(RESTATEMENT_CASES)) {
    it(`${kind}`, () => {
      for (const [older, newer] of cases) expect(restated(older, newer), `${older} ≡ ${newer}`).toBe(true)
    })
  }
  it('every rule the engine tries has its cases (the table and the tests agree)', () => {
    expect(Object.keys(RULE_CASES).sort()).toEqual(UPDATE_RULES.map((r) => r.kind).sort())
    expect(Object.keys(RESTATEMENT_CASES).sort()).toEqual(RESTATEMENT_RULES.map((r) => r.kind).sort())
  })
})

describe('the first sentence of a text (FactShape lead)', () => {
  it('is the sentence before the next, without its asides in brackets', () => {
    expect(factShape('Write unit tests with JUnit 5 (Jupiter); do not add new JUnit 4 imports').lead).toBe('Write unit tests with JUnit 5')
    expect(factShape('Use pnpm (not npm) for installs').lead).toBe('Use pnpm for installs')
    expect(factShape('Use GHC 9.8 (see `cabal.project`).').lead).toBe('Use GHC 9.8.')
  })
  it('is absent for one sentence with no aside; the brackets of a call or an unclosed one are no aside', () => {
    expect(factShape('Log through the `log()` helper').lead).toBeUndefined()
    expect(factShape('Deploy (staging only').lead).toBeUndefined()
    expect(factShape('Run `go vet ./...` before pushing').lead).toBeUndefined()
  })
})

describe("intake's label (where a seed came from) is not read as its words", () => {
  it('reads a seed without its file and section', () => {
    expect(factShape('apps/web/AGENTS.md › Testing › Unit: Use Vitest.').sequence).toEqual(factShape('Use Vitest.').sequence)
    // no › before the first colon: no label ("Note: …", a time)
    expect(factShape('Note: deploys stop at 17:00').sequence[0]).toBe('Note')
  })
  it('links no two seeds of one file for their labels, and still links a seed changed', () => {
    // read with the label, the first sentence ended at its colon, and the section named there had changed
    expect(update('worker/AGENTS.md › Agent guide › Testing: Run the Go tests with `go test ./...`.', 'worker/AGENTS.md › Agent guide › Git workflow: Autoscaling keeps at least 2 replicas of the API running.')).toBeNull()
    expect(update('AGENTS.md › Setup: Use Node 18 for the build.', 'AGENTS.md › Setup: Use Node 20 for the build.')?.kind).toBe('same-words')
  })
})

describe('the first-sentence rule: one value of the first sentence changed', () => {
  it("reads the guards of every pair on the sentences it compares: two tasks of one program (intake's package.json procedures quote the script in an aside)", () => {
    expect(update('Run `pnpm test` before pushing; CI runs the same.', 'To build, run `pnpm build` (package.json script "build": tsc -b && vite build).')).toBeNull()
    expect(update('To lint, run `pnpm lint` (package.json script "lint": eslint .).', 'Always run `pnpm typecheck` after changing types. CI fails otherwise.')).toBeNull()
    // a command of one task changed in the first sentence is still linked
    expect(update('Run `pnpm test` before pushing; CI runs the same.', 'Run `pnpm vitest run` before pushing; CI runs the same.')).not.toBeNull()
  })
  it('links a tool changed in a first sentence whose subject is a name both state (softBesideSameValue reads only what both quote)', () => {
    expect(update('Install Ruby gems with Bundler.', 'Install Ruby gems with pixi (`pixi add`, `pixi install`).')).toMatchObject({kind: 'first-sentence', reason: 'Bundler → pixi'})
  })
  it('does not link a first sentence that states other values than the older (a short sentence shares few words)', () => {
    // the older's first sentence and the newer's share only "sets": three values on each side differ
    expect(update('JDK 21 (Temurin) is required; set it with `sdk env` from `.sdkmanrc`.', 'Each DAG sets `catchup=False` and `max_active_runs=1`; backfills are run by hand with `airflow dags backfill`.')).toBeNull()
  })
})

describe('bounds said by comparisons, and what a verb acts on: what the guards still leave linked', () => {
  it('links one end of a range changed, whether a text holds the value or refuses what lies beyond it', () => {
    // a ceiling both: held under a number, refused above one
    expect(update('Keep functions under 50 lines', 'A function longer than 30 lines should be split')?.kind).toBe('reworded')
    // a floor both: held above a number, refused below one
    expect(update('Coverage must stay above 80%', 'CI fails when coverage drops below 90 percent')?.kind).toBe('same-quantity')
  })
  it('links a value changed where it is not what a verb of a list acts on', () => {
    // where errors are logged to, and which action caches, are one value each
    expect(update('Log errors to Sentry', 'Log errors to Rollbar')).not.toBeNull()
    expect(update('Cache dependencies with `actions/cache@v3`', 'Cache dependencies with `actions/cache@v4`')).not.toBeNull()
    // a noun, not the verb: "Commit messages follow …" (the currency set's history of commit styles)
    expect(update('Commit messages follow Conventional Commits', 'Commit messages follow gitmoji')).not.toBeNull()
  })
  it('links a tool or a version changed in the first clause of a text that goes on to say why', () => {
    expect(update('The marketing site is hosted on Netlify', 'We moved the marketing site to Cloudflare Pages; every push to main still triggers a production deploy')?.kind).toBe('same-role')
    expect(update('Node 18 is the minimum supported runtime; older releases lack fetch, structuredClone and the test runner we rely on', 'Requires Node.js 20 or newer')?.kind).toBe('same-version')
  })
  it('does not read React Native as React', () => {
    expect(update('The website uses React 18', 'The mobile app uses React Native 0.74')).toBeNull()
  })
  it('links a part of the codebase or a command target changed where the text says the same of it', () => {
    // the table moved to another service; the same test command for another crate
    expect(update('The `orders` service owns the `carts` table', 'The `checkout` service owns the `carts` table')).not.toBeNull()
    expect(update('Run `cargo test -p lexer` to test the lexer', 'Run `cargo test -p tokens` to test the lexer')).not.toBeNull()
    // the command changed for one target, said otherwise
    expect(update('Test the lexer with `cargo test -p lexer`', 'Test the lexer crate with `cargo nextest run -p lexer`')).not.toBeNull()
  })
  it('links a command changed for one verb when an object is any code at all, or the same thing', () => {
    expect(update('Format the code with `prettier --write .`', 'Format everything with `biome format --write`')?.kind).toBe('same-command')
    expect(update('Type-check the frontend with `tsc --noEmit`', 'Type-check the frontend code with `vue-tsc --build`')).not.toBeNull()
  })
})

describe('currency guards: each refuses what only it refuses', () => {
  const all = Object.entries(guards).filter((e): e is [string, guards.Guard] => typeof e[1] === 'object' && e[1] !== null && 'refuses' in e[1])
  for (const [name, cases] of Object.entries(GUARD_CASES)) {
    it(`${name}`, () => {
      for (const [older, newer] of cases.updates ?? []) expect(update(older, newer), `${older} → ${newer}`).toBeNull()
      for (const [older, newer] of cases.restates ?? []) expect(restated(older, newer), `${older} ≡ ${newer}`).toBe(false)
    })
  }
  it('every guard is in use and has its cases', () => {
    const used = new Set([...PAIR_GUARDS, ...UPDATE_RULES.flatMap((r) => r.guards), ...RESTATEMENT_RULES.flatMap((r) => r.guards)])
    for (const [name, guard] of all) expect(used.has(guard), `${name} is a guard of no rule`).toBe(true)
    expect(Object.keys(GUARD_CASES).sort()).toEqual(all.map(([name]) => name).sort())
  })
})
