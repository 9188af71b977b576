// A second blind set of update pairs for issue 30 item 4 (update detection with meaning).
//
// Written by a helper session for issue 30 on 2026-11-27 ("updset2"), blind: before any rule was measured
// on it, and without opening the currency engine, the gates, the thesaurus, the other currency bench files
// (including the first blind set, blind-pairs.mjs), docs/currency.md or any bench output. It is a check on
// pairs nobody tuned on. If a rule is ever tuned on it (a rule or guard written or changed after reading
// these pairs or their results), say so in that commit and in every figure measured on it afterwards: from
// then on it is no longer held out.
//
// BLIND2_UPDATES: [older, newer] pairs. Both texts state ONE project rule or fact, as it could appear in a
// real project's AGENTS.md / CLAUDE.md / README history, and the newer text replaces the older: the value
// changed (a tool, a number or version, a command, a policy) AND it is said in other words, so the two often
// share only one or two words, some none. An update detector should link every pair, newer over older.
// The mix, in order: tool swaps across ecosystems, numbers/versions/limits, commands, flipped policies.
//
// BLIND2_OTHERS: [a, b] pairs that a repo holds SIDE BY SIDE, both true at once, written in like words and
// the same sentence shapes on purpose: the same kind of tool for different scopes, neighbouring roles, tools
// used together, different numbers for different things, different commands, conventions that hold together.
// Neither text updates the other: an update detector should link none of them.
//
// Every text is one sentence under 120 characters; no secrets, no company-internal names.

export const BLIND2_UPDATES = [
  // tool swaps: JavaScript / TypeScript
  ['Unit tests run under Jest with the ts-jest transform.', 'We moved the whole suite over to Vitest.'],
  ['Format code with Prettier before you commit.', 'Biome now owns formatting for every package.'],
  ['Install dependencies with Yarn classic.', 'This monorepo is a pnpm workspace.'],
  ['The database layer is built on TypeORM entities.', 'Models are declared in prisma/schema.prisma and queried through Prisma Client.'],
  ['Background work is queued with Bull on Redis.', 'Async jobs are now Inngest functions.'],
  ['The frontend is bundled by webpack.', 'Vite builds the client app.'],
  ['End-to-end tests are written in Cypress.', 'Browser flows are covered by Playwright specs under e2e/.'],
  ['The marketing site is hosted on Netlify.', 'Our landing pages are served from Cloudflare Pages.'],
  ['Global state lives in Redux Toolkit slices.', 'Client state is kept in small Zustand stores.'],
  ['Request bodies are validated with Joi schemas.', 'Every route parses its input through a zod object.'],
  ['Transactional email is sent through SendGrid.', 'Outgoing mail uses the Postmark API.'],
  ['Crash reports from the web app land in Bugsnag.', 'Client-side exceptions are captured by Sentry.'],
  ['The HTTP server is an Express app.', 'Handlers are written as Fastify plugins.'],
  ['Feature flags come from LaunchDarkly.', 'Toggles are defined in our self-hosted Unleash.'],
  // tool swaps: Python
  ['Lint the Python code with flake8 and isort.', 'Ruff is the only linter the backend runs.'],
  ['Dependencies are pinned with pip-tools in requirements.txt.', 'Poetry manages the virtualenv and the lockfile.'],
  ['Celery workers process the background tasks.', 'Deferred work runs on Dramatiq actors.'],
  ['Type-check with mypy in CI.', 'Static types are verified by Pyright.'],
  ['Django errors are reported to Rollbar.', 'Backend exceptions are sent to our GlitchTip instance.'],
  // tool swaps: Ruby
  ['Background jobs are Sidekiq workers.', 'We enqueue work with GoodJob, backed by Postgres.'],
  ['Tests are written with Minitest.', 'The Rails app is specified in RSpec.'],
  // tool swaps: Go
  ['Go packages are checked with golint.', 'Run golangci-lint before opening a pull request.'],
  ['Logging uses logrus.', 'Structured log lines are emitted through zap.'],
  // tool swaps: Java / Kotlin / .NET
  ['The Java services build with Maven.', 'Gradle with the Kotlin DSL compiles every module.'],
  ['Database migrations are Liquibase changelogs.', 'Schema changes ship as Flyway SQL scripts.'],
  ['Data access goes through Dapper.', 'The API queries the database with Entity Framework Core.'],
  ['Unit tests use MSTest.', 'C# tests are xUnit facts and theories.'],
  // tool swaps: mobile
  ['iOS dependencies are managed by CocoaPods.', 'Swift packages are resolved with SPM and there is no Podfile anymore.'],
  ['Android dependency injection uses Dagger components.', 'Inject dependencies with Hilt modules.'],
  // tool swaps: Rust, PHP
  ['The async runtime is async-std.', 'Our crates run on tokio.'],
  ['PHP code style is enforced by PHP_CodeSniffer.', 'Run php-cs-fixer to fix formatting.'],
  // tool swaps: infrastructure
  ['Infrastructure is defined in CloudFormation templates.', 'All cloud resources are provisioned with Terraform.'],
  ['CI runs on Travis.', 'Pipelines live in .github/workflows.'],
  ['Metrics are scraped by Prometheus.', 'We ship service metrics to Datadog.'],

  // numbers, versions, limits
  ['Node 18 is the minimum supported runtime.', 'Requires Node.js 20 or newer.'],
  ['Keep functions under 50 lines.', 'A function longer than thirty lines should be split.'],
  ['The line length limit is 80 characters.', 'Wrap code at 100 columns.'],
  ['Coverage must stay above 80%.', 'CI fails when test coverage drops below 90 percent.'],
  ['The public API allows 100 requests per minute per key.', 'Clients are throttled at ten calls a second.'],
  ['Python 3.8 is the oldest version we support.', 'Nothing older than 3.11 is supported.'],
  ['Access tokens expire after one hour.', 'JWTs are valid for 15 minutes.'],
  ['Uploads are capped at 10 MB.', 'The maximum attachment size is 25 megabytes.'],
  ['A pull request needs one approving review.', 'Two approvals are required before merging.'],
  ['Logs are kept for 30 days.', 'We retain log data for a week.'],
  ['Indent with two spaces.', 'Use four-space indentation.'],
  ['The Go toolchain is pinned at 1.20.', 'Build with Go 1.22.'],
  ['The database connection pool size is 10.', 'Each service opens at most 25 Postgres connections.'],
  ['We release every two weeks.', 'A new version ships on the first Monday of each month.'],
  ['Page size defaults to 20 items.', 'List endpoints return 50 results unless a limit is passed.'],
  ['Retry failed webhooks three times.', 'Webhook deliveries are attempted up to five times with backoff.'],
  ['The Java target is 11.', 'Compile against JDK 17.'],
  ['The request timeout is 30 seconds.', 'Upstream calls give up after 5s.'],

  // commands
  ['Start the dev server with npm run dev.', 'Local development boots via docker compose up.'],
  ['Run migrations with rake db:migrate.', 'Apply schema changes using bin/rails db:migrate.'],
  ['Build the docs with mkdocs build.', 'Documentation is generated by running make docs.'],
  ['Regenerate the API client with ./scripts/gen-client.sh.', 'Call npm run codegen after changing the OpenAPI spec.'],
  ['Seed the database with python manage.py loaddata fixtures.json.', 'Populate local data by running make seed.'],
  ['Format everything with cargo fmt --all.', 'Before committing, run just fmt.'],
  ['Install the hooks with ./scripts/install-hooks.sh.', 'Git hooks are set up by pre-commit install.'],
  ['Deploy by running cap production deploy.', 'Ship to prod with kamal deploy.'],
  ['Tests are executed with go test ./... from the repo root.', 'Use make check to lint and test the module.'],
  ['Release with npm version and npm publish.', 'Publishing is done by changeset publish in CI.'],
  ['Clear caches with bin/clear-cache.', 'To reset local state, run make clean.'],

  // policies and conventions that flipped
  ['Squash commits when merging.', 'Keep every commit: merge with a merge commit.'],
  ['Commit directly to main.', 'All changes land through pull requests; main is protected.'],
  ['Use default exports for React components.', 'Components are exported by name only.'],
  ['Document every function with a JSDoc block.', 'Prefer self-explanatory code; doc comments are only for the public API.'],
  ['Tests live next to the source files.', 'Put all specs under the top-level tests/ directory.'],
  ['Branch names follow feature/<ticket>.', 'Name branches after the author, like alice/short-topic.'],
  ['Commit the lockfile.', 'Do not check package-lock.json into git; this is a library.'],
  ['Use snake_case for JSON fields.', 'API payload keys are camelCase.'],
  ['Errors are returned as values, never thrown.', 'Throw exceptions for failures and catch them at the route boundary.'],
  ['Write the changelog by hand in CHANGELOG.md.', 'Release notes are generated from conventional commit messages.'],
  ['Mock the database in unit tests.', 'Tests hit a real Postgres; no DB mocks.'],
]

export const BLIND2_OTHERS = [
  // the same kind of tool for different scopes
  ['The React app is unit-tested with Jest.', 'The Python workers are tested with pytest.'],
  ['The iOS app reports crashes to Crashlytics.', 'The backend reports exceptions to Sentry.'],
  ['Frontend code is linted with ESLint.', 'Backend code is linted with Ruff.'],
  ['The admin dashboard is deployed to Vercel.', 'The API is deployed to Fly.io.'],
  ['The staging database is a single small RDS instance.', 'The production database runs on Aurora Postgres.'],
  ['Android builds run on Bitrise.', 'Web builds run on GitHub Actions.'],
  ['Python dependencies are managed with uv.', 'JavaScript dependencies are managed with pnpm.'],
  ['Rust crates are formatted with rustfmt.', 'TypeScript files are formatted with Prettier.'],
  ['The mobile app stores data in SQLite.', 'The server stores data in PostgreSQL.'],
  ['Model specs use RSpec.', 'Browser specs use Capybara with Selenium.'],
  ['Local development uses MinIO for object storage.', 'Production uses S3 for object storage.'],
  ['The public API is documented with OpenAPI.', 'Internal services are documented in their protobuf comments.'],
  ['Go services log with zerolog.', 'Node services log with pino.'],
  ['The Kotlin app uses Room for persistence.', 'The Swift app uses Core Data for persistence.'],
  ['Short jobs go to the default Sidekiq queue.', 'Long exports go to the low-priority Sidekiq queue.'],
  ['Java modules build with Gradle.', 'The C++ extension builds with CMake.'],
  ['Unit tests run with xUnit in memory.', 'Integration tests run with xUnit against a Testcontainers database.'],
  ['Customer emails are sent through Postmark.', 'Internal alerts are sent through Slack webhooks.'],
  ['Staging deploys on every merge to main.', 'Production deploys when a version tag is pushed.'],
  ['The CLI is written in Go.', 'The web UI is written in TypeScript.'],
  ['E2E tests for the web run in Playwright.', 'E2E tests for iOS run in XCUITest.'],
  ['Python code is type-checked with mypy.', 'TypeScript code is type-checked with tsc --noEmit.'],

  // neighbouring roles
  ['Exceptions go to Honeybadger.', 'Application logs go to Papertrail.'],
  ['Metrics are collected by Prometheus.', 'Traces are collected by Jaeger.'],
  ['Uptime is monitored by Pingdom.', 'Incidents page the on-call engineer through PagerDuty.'],
  ['Payments are handled by Stripe.', 'Sales tax is calculated by TaxJar.'],
  ['Feature flags live in LaunchDarkly.', 'Product analytics live in PostHog.'],
  ['Authentication is handled by Auth0.', 'Authorization policies are written in OPA Rego.'],
  ['Secrets are stored in Vault.', 'Service configuration is stored in Consul.'],
  ['Caching uses Redis.', 'Full-text search uses Elasticsearch.'],
  ['Static assets are served through the Cloudflare CDN.', 'DNS is managed in Route 53.'],
  ['Container images are pushed to GHCR.', 'Helm charts are published to ChartMuseum.'],
  ['Dependency updates come from Renovate.', 'Vulnerability alerts come from Snyk.'],
  ['Commands between services travel over RabbitMQ.', 'Domain events are appended to Kafka topics.'],
  ['User sessions are kept in Redis.', 'File uploads are kept in S3.'],
  ['The docs are hosted on Read the Docs.', 'The status page is hosted on Statuspage.'],
  ['Code coverage is reported to Codecov.', 'Code quality is reported to SonarCloud.'],

  // tools used together
  ['Ruff formats the Python code.', 'Pyright checks the Python types.'],
  ['ESLint catches bugs in the TypeScript.', 'Prettier owns the layout of the TypeScript.'],
  ['Mock outgoing HTTP calls with nock.', 'Assert on our own HTTP responses with supertest.'],
  ['Unit tests use Jest.', 'Component tests use React Testing Library.'],
  ['The database schema is defined with Drizzle.', 'Migrations are generated with drizzle-kit.'],
  ['Containers are built with Docker.', 'Clusters are orchestrated with Kubernetes.'],
  ['Terraform creates the cloud resources.', 'Ansible configures the servers.'],
  ['RuboCop enforces Ruby style.', 'Brakeman scans the Ruby code for security issues.'],
  ['Go code is formatted with gofmt.', 'Go code is vetted with staticcheck.'],
  ['Tests run under pytest.', 'Coverage is measured with coverage.py.'],
  ['Java tests use JUnit 5.', 'Mocks in Java tests use Mockito.'],
  ['C# code is analysed by the Roslyn analyzers.', 'C# code is formatted by dotnet format.'],
  ['Swift code is linted with SwiftLint.', 'Swift code is formatted with SwiftFormat.'],
  ['Husky runs the git hooks.', 'lint-staged decides which files the pre-commit hook checks.'],
  ['Kotlin is linted by ktlint.', 'Kotlin static analysis runs with detekt.'],
  ['Clippy warnings fail the Rust build.', 'Rustfmt differences fail the Rust build.'],
  ['Celery workers run the background tasks.', 'Celery beat triggers the scheduled tasks.'],

  // different numbers for different things
  ['Access tokens expire after 15 minutes.', 'Refresh tokens expire after 30 days.'],
  ['The maximum line length is 100 characters.', 'The maximum file length is 400 lines.'],
  ['Line coverage must stay above 90%.', 'Branch coverage must stay above 75%.'],
  ['The API rate limit is 100 requests per minute.', 'The login rate limit is 5 attempts per minute.'],
  ['Uploads are limited to 10 MB.', 'Avatars are limited to 1 MB.'],
  ['Node 20 runs the server.', 'Node 18 is the minimum for the published CLI.'],
  ['Logs are retained for 14 days.', 'Audit events are retained for 7 years.'],
  ['HTTP requests time out after 30 seconds.', 'Database queries time out after 5 seconds.'],
  ['The web worker pool has 4 processes.', 'The job worker pool has 8 processes.'],
  ['Python 3.12 runs the services.', 'Python 3.9 is the oldest version the SDK supports.'],
  ['Pull requests need two approvals.', 'Docs-only pull requests need one approval.'],
  ['List endpoints return 20 items per page.', 'Search endpoints return at most 100 hits.'],
  ['Webhooks are retried 5 times.', 'Emails are retried 3 times.'],
  ['The staging database keeps 7 days of backups.', 'The production database keeps 35 days of backups.'],
  ['Indent YAML with two spaces.', 'Indent Python with four spaces.'],
  ['The minimum iOS version is 15.', 'The minimum Android SDK level is 26.'],
  ['Passwords need at least 12 characters.', 'Usernames may have at most 32 characters.'],

  // different commands
  ['Run the unit tests with make test.', 'Run the integration tests with make itest.'],
  ['Start the API with npm run dev:api.', 'Start the web app with npm run dev:web.'],
  ['Lint with npm run lint.', 'Type-check with npm run typecheck.'],
  ['Apply migrations with alembic upgrade head.', 'Create a migration with alembic revision --autogenerate.'],
  ['Build the release binary with cargo build --release.', 'Run the benchmarks with cargo bench.'],
  ['Deploy staging with ./deploy.sh staging.', 'Deploy production with ./deploy.sh production.'],
  ['Regenerate the protobuf code with buf generate.', 'Check protobuf changes for breakage with buf breaking.'],
  ['Start the local stack with docker compose up.', 'Reset the local stack and its volumes with docker compose down -v.'],

  // conventions that hold together
  ['Use camelCase for variables.', 'Use PascalCase for types.'],
  ['Commit messages follow Conventional Commits.', 'Pull request titles start with the ticket number.'],
  ['Squash-merge feature branches.', 'Rebase release branches onto main.'],
  ['Tests live next to the code they test.', 'Shared fixtures live in test/fixtures.'],
  ['Never commit .env files.', 'Never commit generated build output.'],
  ['Database tables use plural snake_case names.', 'JSON fields use camelCase.'],
  ['Exported functions need a JSDoc comment.', 'Exported functions need an explicit return type.'],
  ['Prefer named exports.', 'Prefer async/await over promise chains.'],
  ['Feature branches are deleted after merge.', 'Release branches are kept for a year.'],
  ['Every migration must be reversible.', 'Every endpoint must have an integration test.'],
  ['Write error messages in sentence case.', 'Write log messages in lowercase.'],
]
