// Blind pairs for update detection (issue 30 item 4).
//
// Written by a helper session for issue 30 on 2026-11-27, blind: before any update rule was measured on
// these pairs, and without opening the currency engine, the gates, the thesaurus, the other currency
// benchmark files, docs/currency.md or any bench output. The texts are written in the style of rules found
// in projects' AGENTS.md / CLAUDE.md / README files; they are not copied from any one project, and every
// tool, number and path in them is public and generic (no secrets, no company-internal names).
//
// If a rule is tuned on it, say so: once a rule or threshold has been chosen or adjusted while looking at
// how it scores here, this file is no longer held out, and the commit that does so must say that it was
// tuned on these pairs (a fresh blind set is then needed to check the next change).
//
// BLIND_UPDATES: [older, newer] pairs. Both texts state ONE project rule or fact, and the newer replaces the
//   older: the value changed (a different tool, number, command or policy) AND it is said in other words,
//   often sharing only one or two words with the older text, sometimes none. A detector should link each
//   newer text to its older one as an update. Mix: 27 tool swaps, 16 numbers/versions/limits, 10 commands,
//   10 policies or conventions that flipped (63 pairs).
//
// BLIND_OTHERS: [a, b] pairs of facts that one repository holds SIDE BY SIDE, both true at once, written in
//   like words and often in the same sentence shape: the same kind of tool for different scopes,
//   neighbouring roles, two tools used together, different environments or services, different numbers for
//   different things. Neither is an update of the other; a detector that links them hides a valid rule.
//   Sections: same kind of tool for different scopes 21, neighbouring roles 13, two tools used together 15,
//   different numbers for different things 16, different commands 5, conventions that hold together 11
//   (81 pairs; dev/staging/production pairs are spread among them).
//
// Every text is a single sentence under 120 characters.

export const BLIND_UPDATES = [
  // tool swaps (27)
  ['We lint JavaScript with ESLint using the Airbnb config.', 'All JavaScript is now checked and formatted by Biome.'],
  ['Python code is formatted with Black before every commit.', 'Run `ruff format` on the Python files before you push.'],
  ['Unit tests use Jest with the ts-jest transformer.', 'Unit specs are run by Vitest, configured in vitest.config.ts.'],
  ['Database access goes through TypeORM entities in src/entities.', 'Queries are written with Drizzle; the schema lives in src/db/schema.ts.'],
  ['Background jobs are enqueued to Sidekiq.', 'Background work is handled by GoodJob on Postgres, so Redis is no longer needed.'],
  ['Celery workers consume tasks from a RabbitMQ broker.', 'Deferred work is processed by Dramatiq actors backed by Redis.'],
  ['The app is hosted on Heroku.', 'Production now runs on Render after the migration.'],
  ['Crash reports from the iOS app are collected by Crashlytics.', 'Sentry captures crash reports on both mobile platforms.'],
  ['Travis CI builds every pull request.', 'Each PR is verified by the workflow in .github/workflows/ci.yml.'],
  ['Install packages with Yarn 1 and commit yarn.lock.', 'pnpm installs our packages; the lockfile is pnpm-lock.yaml.'],
  ['Go dependencies are vendored with dep and Gopkg.toml.', 'Modules are declared in go.mod; the vendor directory was removed.'],
  ['Java builds use Maven, with the POM at the repository root.', 'The project compiles with Gradle and its Kotlin DSL scripts.'],
  ['Our .NET tests are written with MSTest.', 'Write C# unit tests in xUnit, one test project per assembly.'],
  ['Android dependency injection is done with Dagger 2 components.', 'Hilt wires up the object graph in the Android app.'],
  ['iOS libraries are pulled in through CocoaPods.', 'Swift Package Manager resolves every Apple dependency; there is no Podfile anymore.'],
  ['Cloud resources are described in CloudFormation templates under infra/.', 'All AWS infrastructure is defined as Terraform modules in deploy/.'],
  ['Local secrets are read from a .env file by dotenv.', 'Developer credentials are injected from 1Password with `op run`.'],
  ['Python requirements are pinned in requirements.txt and installed with pip.', 'uv manages the Python environment and locks versions in uv.lock.'],
  ['Feature flags are managed in LaunchDarkly.', 'Feature toggles are served by a self-hosted Unleash.'],
  ['Application logs are shipped to Papertrail.', 'Grafana Loki now collects the logs of every service.'],
  ['Outgoing email is delivered through SendGrid.', 'Transactional email goes out through Postmark.'],
  ['The frontend bundle is built by webpack.', 'Vite produces the production bundle of the web client.'],
  ['End-to-end tests are written in Cypress.', 'Browser flows are exercised by Playwright across Chromium, Firefox and WebKit.'],
  ['Rust error types are built with the failure crate.', 'Derive library errors with thiserror and use anyhow in binaries.'],
  ['Docs are generated by Sphinx from reStructuredText.', 'The documentation site is written in Markdown and built with MkDocs Material.'],
  ['Static typing in Python is checked by mypy.', 'Pyright in strict mode is the type checker for the backend.'],
  ['Full-text search is powered by Elasticsearch.', 'Search queries are answered by a Meilisearch instance.'],

  // numbers, versions and limits said differently (16)
  ['The supported Node.js version is 16.', 'The engines field requires Node 20 or newer.'],
  ['Python 3.8 is the minimum supported interpreter.', 'Anything older than 3.11 is no longer supported.'],
  ['Keep lines at most 80 characters long.', 'The formatter wraps lines at a width of 100.'],
  ['Code coverage must stay above 80%.', 'A pull request fails if total coverage drops below ninety percent.'],
  ['API requests are rate limited to 100 per minute per key.', 'Each key may make at most 1,000 calls an hour.'],
  ['Access tokens expire after one hour.', 'An access token is valid for 15 minutes before it must be refreshed.'],
  ['Pull requests need one approving review.', 'Two approvals are required before a pull request merges.'],
  ['Uploads are capped at 10 MB.', 'The largest upload a user may send is 25 megabytes.'],
  ['targetSdkVersion is set to 33.', 'We target Android 14 (API level 34) in build.gradle.'],
  ['The minimum iOS version is 14.', 'The app supports iPhones on iOS 16 and later only.'],
  ['Go 1.19 is required to build the project.', 'go.mod declares go 1.22, so install that toolchain or newer.'],
  ['The database connection pool size is 10.', 'Each service instance keeps up to 25 Postgres connections in its pool.'],
  ['Backups are retained for 7 days.', 'We keep database snapshots for a month before deleting them.'],
  ['Calls to the payments API time out after 30 seconds.', 'Abort a payment-provider request once it has taken 10 s.'],
  ['Functions should be no longer than 50 lines.', 'Keep each function short: thirty lines is the ceiling.'],
  ['The Java baseline is JDK 11.', 'Build and run everything on Java 21 LTS.'],

  // commands (10)
  ['Run `make check` before opening a PR.', 'Before you ask for review, `just ci` must pass locally.'],
  ['Start the dev server with `npm start`.', 'For local development launch `pnpm dev` and open localhost:5173.'],
  ['Apply database migrations with `rake db:migrate`.', 'Schema changes are rolled out by running bin/rails db:migrate.'],
  ['Run the Python tests with `python -m unittest discover`.', 'Use `pytest -q` to execute the Python suite.'],
  ['Regenerate the API client with ./scripts/gen-client.sh.', 'The OpenAPI bindings are rebuilt by `npm run codegen`.'],
  ['Format everything by running ./format.sh.', 'Code style is applied with `cargo fmt --all`.'],
  ['Seed the local database with `node scripts/seed.js`.', 'Sample data is loaded by `docker compose run app seed`.'],
  ['Publish a release by tagging it and running `npm publish`.', 'Releases go out through `changeset publish` after the version PR merges.'],
  ['Bring up the stack with `docker-compose up`.', 'Local services are started by `tilt up`.'],
  ['Type-check with `tsc --noEmit`.', '`vue-tsc -b` is how we verify the types.'],

  // policies and conventions that flipped (10)
  ['Small fixes may be committed directly to main.', 'Every change, however small, goes through a pull request; main is protected.'],
  ['Use tabs for indentation.', 'Indent with two spaces and never a tab character.'],
  ['Squash commits when merging a branch.', 'Merge with a merge commit so the branch history is preserved.'],
  ['Do not use TypeScript enums; prefer string unions.', 'Enums are fine for a fixed set of values.'],
  ['Generated files are committed to the repository.', 'Keep generated build output out of git; CI produces it.'],
  ['Write commit messages in Conventional Commits format.', 'Commit subjects are plain imperative sentences without feat: or fix: prefixes.'],
  ['Default exports are preferred for React components.', 'Always use named exports; the linter bans default ones.'],
  ['Tests live next to the code they cover.', 'Put every test under the top-level tests/ directory, mirroring src/.'],
  ['Mock the database in unit tests.', 'Tests hit a real Postgres in a container; never fake the DB.'],
  ['Use snake_case for JSON fields in API responses.', 'API responses use camelCase keys.'],
]

export const BLIND_OTHERS = [
  // the same kind of tool for different scopes
  ['Frontend unit tests run with Vitest.', 'Backend unit tests run with pytest.'],
  ['The mobile app is built with Expo.', 'The admin dashboard is built with Next.js.'],
  ['Unit tests use Jest.', 'End-to-end tests use Playwright.'],
  ['Python services use Poetry for dependencies.', 'JavaScript packages use pnpm workspaces for dependencies.'],
  ['The Android app uses Kotlin coroutines for async work.', 'The iOS app uses Swift concurrency for async work.'],
  ['Java services are built with Gradle.', 'The Angular frontend is built with the Angular CLI.'],
  ['The PHP backend is tested with PHPUnit.', 'The Vue frontend in the same repo is tested with Jest.'],
  ['The web app is hosted on Vercel.', 'The API is hosted on Fly.io.'],
  ['Transactional email is sent via Postmark.', 'Marketing email is sent via Mailchimp.'],
  ['Card payments are handled by Stripe.', 'Bank transfers are handled by GoCardless.'],
  ['The email queue runs on BullMQ.', 'The video transcoding queue runs on Amazon SQS.'],
  ['Errors from the backend go to Sentry.', 'Errors from the browser go to LogRocket.'],
  ['The public API is documented with OpenAPI.', 'The internal events are documented with AsyncAPI.'],
  ['The .NET API uses Entity Framework Core for writes.', 'The .NET API uses Dapper for read-heavy reports.'],
  ['Terraform manages the cloud network.', 'Ansible configures the build machines.'],
  ['Flutter widgets are tested with flutter_test.', 'Flutter integration flows are tested with patrol.'],
  ['The frontend uses TanStack Query for server state.', 'The frontend uses Zustand for client state.'],
  ['Forms are validated with Zod on the client.', 'Requests are validated with Pydantic on the server.'],
  ['Production is deployed to AWS us-east-1.', 'Staging is deployed to AWS eu-west-1.'],
  ['Local development uses SQLite.', 'Production uses PostgreSQL.'],
  ['CI runs on GitHub Actions.', 'Nightly hardware-in-the-loop builds run on a self-hosted Jenkins.'],

  // neighbouring roles
  ['Errors are reported to Sentry.', 'Metrics are exported to Prometheus.'],
  ['Logs go to Loki.', 'Traces go to Tempo.'],
  ['Session data is cached in Redis.', 'Uploaded files are stored in S3.'],
  ['Crashes on Android are reported by Firebase Crashlytics.', 'Screen views on Android are recorded by Firebase Analytics.'],
  ['SMS login codes are sent with Twilio.', 'Push notifications are sent with Firebase Cloud Messaging.'],
  ['Feature flags live in Unleash.', 'Runtime configuration lives in Consul.'],
  ['The search index is Elasticsearch.', 'The primary database is PostgreSQL.'],
  ['Alerts page the on-call engineer through PagerDuty.', 'Non-urgent alerts are posted to the team chat channel.'],
  ['Images are stored in S3.', 'Images are served through CloudFront.'],
  ['User uploads go to the uploads bucket.', 'Nightly exports go to the archive bucket.'],
  ['The Rails app uses Sidekiq for background jobs.', 'The Rails app uses Action Cable for websockets.'],
  ['The Java API runs on Spring Boot 3.', 'The nightly batch jobs run on Spring Batch.'],
  ['Docs are published to GitHub Pages.', 'Packages are published to npm.'],

  // two tools used together
  ['Lint Python with Ruff.', 'Type-check Python with mypy.'],
  ['Format Go code with gofmt.', 'Vet Go code with staticcheck.'],
  ['Rust code is linted with Clippy.', 'Rust code is formatted with rustfmt.'],
  ['Swift code is linted with SwiftLint.', 'Swift code is formatted with swift-format.'],
  ['Kotlin code is analysed by detekt.', 'Kotlin code is formatted by ktlint.'],
  ['C# style is enforced by StyleCop analyzers.', 'C# whitespace is fixed by dotnet format.'],
  ['PHP tests run with PHPUnit.', 'PHP static analysis runs with PHPStan at level 8.'],
  ['Kubernetes manifests are templated with Helm.', 'Kubernetes manifests are synced to the cluster by Argo CD.'],
  ['Hibernate maps the JPA entities.', 'Flyway runs the schema migrations.'],
  ['JUnit 5 runs the unit tests.', 'Testcontainers provides the databases for integration tests.'],
  ['RSpec covers the models.', 'Capybara system specs cover the user flows.'],
  ['Celery beat schedules the periodic tasks.', 'Celery workers execute the queued tasks.'],
  ['The monorepo is orchestrated with Turborepo.', 'The packages are versioned with Changesets.'],
  ['Ruby gems are installed with Bundler.', 'JavaScript assets are bundled with esbuild through jsbundling-rails.'],
  ['ESLint checks the TypeScript for bugs.', 'Prettier formats the TypeScript.'],

  // different numbers for different things
  ['Avatar images are capped at 2 MB.', 'Document uploads are capped at 20 MB.'],
  ['Access tokens expire after 15 minutes.', 'Refresh tokens expire after 30 days.'],
  ['The API is rate limited to 100 requests per minute per user.', 'The login endpoint allows 5 attempts per minute per IP.'],
  ['The server runs on Node 20.', 'The legacy Lambda functions still run on Node 18.'],
  ['The iOS app supports iOS 16 and up.', 'The Android app supports API 26 and up.'],
  ['Pull requests to main need two approvals.', 'Pull requests that only touch docs need one approval.'],
  ['Coverage must stay above 80% for the core library.', 'Coverage must stay above 60% for the CLI.'],
  ['The Postgres connection pool holds 20 connections.', 'The Redis connection pool holds 50 connections.'],
  ['Database backups are kept for 30 days.', 'Audit logs are kept for seven years.'],
  ['The Docker image ships Python 3.12.', 'The library still supports Python 3.9 as its oldest version.'],
  ['The default page size is 20 items.', 'The maximum page size is 100 items.'],
  ['HTTP requests time out after 30 seconds.', 'Database queries time out after 5 seconds.'],
  ['Workers retry a failed job 5 times.', 'Webhooks are redelivered for up to 3 days.'],
  ['Keep functions under 40 lines.', 'Keep files under 400 lines.'],
  ['The Go service exposes gRPC on port 9090.', 'The Go service exposes metrics on port 9100.'],
  ['The dev server listens on port 3000.', 'The mock API listens on port 4000.'],

  // different commands for different jobs
  ['Run unit tests with `make test`.', 'Run integration tests with `make test-integration`.'],
  ['Start the API with `npm run dev:api`.', 'Start the web app with `npm run dev:web`.'],
  ['Create migrations with `alembic revision --autogenerate`.', 'Apply migrations with `alembic upgrade head`.'],
  ['Run `cargo test` for the unit tests.', 'Run `cargo bench` for the benchmarks.'],
  ['Use `go generate ./...` to rebuild mocks.', 'Use `buf generate` to rebuild the protobuf stubs.'],

  // conventions and policies that hold together
  ['Squash-merge feature branches.', 'Merge release branches with a merge commit.'],
  ['Use camelCase for TypeScript variables.', 'Use snake_case for database columns.'],
  ['Use PascalCase for React component files.', 'Use kebab-case for route folders.'],
  ['Feature branches are named feat/<ticket>.', 'Hotfix branches are named hotfix/<ticket>.'],
  ['Never commit .env files.', 'Always commit the lockfile.'],
  ['Never log request bodies.', 'Always log request IDs.'],
  ['Do not use `any` in TypeScript.', 'Do not use non-null assertions in TypeScript.'],
  ['Tests for the CLI live in test/cli.', 'Tests for the server live in test/server.'],
  ['Releases are tagged with semver.', 'Docker images are tagged with the commit SHA.'],
  ['Production deploys happen from the main branch.', 'Preview deploys happen for every pull request.'],
  ['The staging database is reset every night.', 'The production database is backed up every night.'],
]
