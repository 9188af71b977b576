// Blind pair set 4 for update detection (issue 30 item 4).
//
// Written by a helper session for issue 30 on 2026-11-27 ("updset4"), blind: before any update rule was
// measured on these pairs, without reading the currency engine, its rules or guards, the other blind sets or
// any bench output. No rule is tuned on it. If a rule is ever tuned on this set, say so here and in the commit
// that does it, and stop reporting its figures as held-out.
//
// BLIND4_UPDATES: [older, newer] — two versions of ONE project rule or fact, as a repo's AGENTS.md, CLAUDE.md or
//   README history might hold them; the newer replaces the older. The value changed AND it is said in other
//   words. About 60% are versions of a runtime, language, toolchain, database, framework or OS image the
//   project requires or targets; about 40% are commands for one task that changed along with the sentence.
//   A detector should link each pair as an update (newer supersedes older).
// BLIND4_OTHERS: [a, b] — two facts a repo holds side by side, both true at once, in like words: two runtimes,
//   one runtime in two places, a minimum beside a maximum or tested range, a language beside a framework, a
//   database server beside its client library, two commands for two tasks, one command for two packages, a
//   dev command beside a prod one. A detector should NOT link any of these as an update.
//
// Every text is one sentence under 120 characters, with no secrets and no real company-internal names.

export const BLIND4_UPDATES = [
  // Versions of a runtime, language, toolchain, database, framework or OS image (34).
  ['The server needs at least Node 18 to start.', 'Node.js v20 is now the oldest runtime we support.'],
  ['Our Java bytecode targets release 11.', 'Compile everything against JDK 17.'],
  ['Python 3.9 is the interpreter used in development.', 'Use python3.12 for local work on this repo.'],
  ['The Go module declares go 1.20.', 'Build with the Go 1.22 toolchain.'],
  ['rust-toolchain.toml pins stable 1.70.', 'The crate now needs rustc 1.78 or later to compile.'],
  ['The library targets netcoreapp3.1.', 'All projects now build for net8.0.'],
  ['Database migrations assume PostgreSQL 13.', 'We run PG 16 in every environment now.'],
  ['Redis 6.2 backs the session cache.', 'Sessions are kept in a Redis 7 server.'],
  ['CI jobs run on ubuntu-20.04 runners.', 'Workflows use the ubuntu-24.04 image.'],
  ['Kotlin 1.8 compiles the Android app.', 'The mobile client is written against Kotlin 2.0.'],
  ['The package is built with Swift 5.7.', 'Package.swift now declares swift-tools-version 5.10.'],
  ['Open the iOS project in Xcode 14.', 'Xcode 15.4 is needed to build the app target.'],
  ['compileSdk is set to API level 33.', 'Build the Android module against SDK 34.'],
  ['The frontend still uses React 17.', 'UI components are written for React 18 with concurrent rendering.'],
  ['The backend is a Rails 6.1 application.', 'We upgraded the web framework to Rails 7.1.'],
  ['Django 3.2 LTS powers the admin site.', 'The admin runs on Django 4.2.'],
  ['Ruby 2.7 is required for the gem.', 'The gemspec sets required_ruby_version to >= 3.1.'],
  ['PHP 7.4 is the lowest version the plugin supports.', 'The plugin needs PHP 8.1 at minimum.'],
  ['TypeScript 4.9 checks the codebase.', 'Type-checking uses tsc from TypeScript 5.4.'],
  ['Develop with Node 16 LTS.', 'The .nvmrc file now says 20.11.'],
  ['Docker images are based on debian:bullseye.', 'Containers now start FROM debian:bookworm-slim.'],
  ['The Python wheels support CPython 3.8 through 3.11.', 'Supported interpreters are now 3.10 to 3.13.'],
  ['Angular 15 is the framework for the dashboard.', 'The dashboard was migrated to Angular 17.'],
  ['Our MySQL server version is 5.7.', 'Production databases run MySQL 8.0.'],
  ['Elixir 1.14 with OTP 25 is required.', 'Use Elixir 1.16 on Erlang/OTP 26.'],
  ['Tests are written for JUnit 4.', 'The test framework is JUnit Jupiter 5.10.'],
  ['Gradle 7.6 builds the project.', 'Use the 8.7 wrapper of Gradle for all builds.'],
  ['The .NET SDK version in global.json is 6.0.400.', 'Install the dotnet 8.0 SDK before building.'],
  ['Lambda functions use the nodejs16.x runtime.', 'Serverless handlers are deployed on nodejs20.x.'],
  ['Spring Boot 2.7 is the service framework.', 'Services are built on Spring Boot 3.2 now.'],
  ['Vue 2 renders the settings page.', 'The settings screen is a Vue 3 app.'],
  ['We deploy on Amazon Linux 2 hosts.', 'Servers run the AL2023 image.'],
  ['Next.js 13 serves the marketing site.', 'The marketing pages moved to Next 14.'],
  ['Scala 2.13 is the compiler version.', 'Code is written in Scala 3.3.'],

  // Commands for one task, the command changed and the sentence too (22).
  ['Install dependencies with npm install.', 'Use pnpm install --frozen-lockfile to fetch packages.'],
  ['Run the unit tests with pytest -q.', 'The test suite is started through tox -e py.'],
  ['Lint the code using flake8.', 'Style checks run through ruff check.'],
  ['Format Go code with gofmt -w.', 'Before committing, run goimports over changed files.'],
  ['Start the dev server with npm start.', 'Local development is served by running vite.'],
  ['Build the release binary with cargo build --release.', 'Release artifacts come from cargo dist build.'],
  ['Migrations are applied with knex migrate:latest.', 'Run prisma migrate deploy to update the schema.'],
  ['Generate API docs with jsdoc.', 'Documentation is produced by running typedoc.'],
  ['Bump the version with npm version patch.', 'Version bumps go through npx changeset version.'],
  ['Type-check with mypy src.', 'Static typing is verified by pyright.'],
  ['Run the end-to-end suite with cypress run.', 'Browser tests now execute under playwright test.'],
  ['Bring up local services with docker-compose up.', 'Start the stack via tilt up.'],
  ['Lock Python dependencies with pip-compile requirements.in.', 'Regenerate the lockfile by running uv lock.'],
  ['Compile the assets with webpack --mode production.', 'Production bundles are built using esbuild.'],
  ['Run make check before opening a pull request.', 'Pull requests need a clean ./scripts/ci.sh run first.'],
  ['Deploy with cap production deploy.', 'Shipping to prod is done by kamal deploy.'],
  ['Regenerate protobuf stubs with protoc.', 'Code generation for the .proto files uses buf generate.'],
  ['Format code with prettier --write.', 'Formatting is handled by biome format --write.'],
  ['Snapshot tests are updated with jest -u.', 'Refresh stored snapshots through vitest --update.'],
  ['Seed the local database using npm run seed.', 'Sample data is loaded by make fixtures.'],
  ['Build the docs site with mkdocs build.', 'The documentation is generated by sphinx-build docs out.'],
  ['Install the Ruby gems using bundle install.', 'Gems are set up by running bin/setup.'],
]

export const BLIND4_OTHERS = [
  // Two runtimes' versions (8).
  ['The API runs on Node 20.', 'The ML service runs on Python 3.11.'],
  ['The backend is compiled with Go 1.22.', 'The browser extension is written in TypeScript 5.4.'],
  ['Android builds use Kotlin 1.9.', 'The iOS app is built with Swift 5.9.'],
  ['The ingestion workers need Java 21.', 'The reporting scripts need Ruby 3.2.'],
  ['The CLI requires Rust 1.75 or later.', 'The Python bindings require Python 3.9 or later.'],
  ['Our data pipeline runs on Scala 2.13.', 'The notebook tooling runs on Python 3.10.'],
  ['The admin panel is a PHP 8.2 application.', 'The public site is a Node 18 application.'],
  ['Build the desktop app with .NET 8.', 'Build the web client with Node.js 20.'],

  // One runtime in two places (9).
  ['The web app builds on Node 20.', 'The Lambda functions run on Node 18.'],
  ['The main service uses Python 3.12.', 'The legacy importer is stuck on Python 3.8.'],
  ['CI runs on ubuntu-22.04 runners.', 'Production hosts run Ubuntu 20.04.'],
  ['The API container image is based on node:20-alpine.', 'The docs site is built with Node 18 on Netlify.'],
  ['The primary database is PostgreSQL 15.', 'The analytics replica still runs Postgres 13.'],
  ['The server module targets Java 17.', 'The Android module compiles against Java 11.'],
  ['The core crate compiles with Rust 1.70.', 'The benchmark harness needs nightly Rust.'],
  ['The Go service uses Go 1.21.', 'The code generator is built with Go 1.22.'],
  ['The web frontend uses React 18.', 'The React Native app is still on React 17.'],

  // A minimum beside a maximum or tested range (9).
  ['The package supports Node 18 and above.', 'The CI matrix also covers Node 22.'],
  ['Python 3.9 is the oldest interpreter we support.', 'We test up to Python 3.13.'],
  ['The minimum supported Rust version is 1.70.', 'Releases are also checked against the latest stable Rust.'],
  ['The extension needs VS Code 1.80 or later.', 'It has been tested up to VS Code 1.90.'],
  ['The gem supports Ruby 3.0 and newer.', 'Nightly CI runs the suite on Ruby head.'],
  ['Our lowest supported PostgreSQL is 12.', 'The newest PostgreSQL we test against is 16.'],
  ['Android minSdk is 24.', 'Android targetSdk is 34.'],
  ['The iOS deployment target is iOS 15.', 'The app is built with the iOS 17 SDK.'],
  ['Terraform 1.5 is the minimum version.', 'The modules are known to work with Terraform 1.8.'],

  // A language version beside a framework version (8).
  ['The backend is written in Python 3.12.', 'The web layer is Django 5.0.'],
  ['The service runs on Ruby 3.3.', 'The app framework is Rails 7.1.'],
  ['The frontend uses TypeScript 5.3.', 'The UI library is React 18.'],
  ['Code is compiled with Java 21.', 'The service is built on Spring Boot 3.2.'],
  ['The site needs PHP 8.2.', 'The site runs on Laravel 11.'],
  ['Kotlin 2.0 is the language version.', 'Jetpack Compose 1.6 draws the screens.'],
  ['Node 20 runs the server.', 'The HTTP layer is Fastify 4.'],
  ['The library is compatible with Django 4.2 through 5.0.', 'The minimum Python for the library is 3.10.'],

  // A database server version beside its client library version (6).
  ['The database server is PostgreSQL 16.', 'The app connects through node-postgres 8.11.'],
  ['Redis 7.2 holds the job queue.', 'Workers use the redis-py 5.0 client.'],
  ['MongoDB 7.0 stores the documents.', 'The service uses the Mongo Java driver 4.11.'],
  ['Production runs MySQL 8.0.', 'The ORM layer is SQLAlchemy 2.0.'],
  ['Elasticsearch 8.11 is the search cluster.', 'The indexer uses the elasticsearch-js client 8.10.'],
  ['The local dev database is PostgreSQL 15 in Docker.', 'Database access goes through psycopg 3.1.'],

  // Two commands for two tasks (11).
  ['Run the unit tests with npm test.', 'Run the linter with npm run lint.'],
  ['Build the project with cargo build.', 'Check formatting with cargo fmt --check.'],
  ['Start the tests with pytest.', 'Type-check the code with mypy.'],
  ['Apply migrations with alembic upgrade head.', 'Create a new migration with alembic revision --autogenerate.'],
  ['Install dependencies with bundle install.', 'Run the specs with bundle exec rspec.'],
  ['Compile the app with go build ./...', 'Run the tests with go test ./...'],
  ['Generate the client code with npm run codegen.', 'Build the production bundle with npm run build.'],
  ['Format the sources with gofmt.', 'Vet the sources with go vet.'],
  ['Run the Android unit tests with ./gradlew test.', 'Run the instrumented tests with ./gradlew connectedAndroidTest.'],
  ['Serve the docs locally with mkdocs serve.', 'Publish the docs with mkdocs gh-deploy.'],
  ['Run the end-to-end tests with playwright test.', 'Run the component tests with vitest.'],

  // The same command for two packages (6).
  ['Test the server with pnpm --filter server test.', 'Test the client with pnpm --filter client test.'],
  ['Build the API image with docker build -f api/Dockerfile.', 'Build the worker image with docker build -f worker/Dockerfile.'],
  ['In packages/core, run npm test to check changes.', 'In packages/cli, run npm test to check changes.'],
  ['The backend tests run with cargo test -p backend.', 'The parser crate is tested with cargo test -p parser.'],
  ['Lint the web app with yarn workspace web lint.', 'Lint the mobile app with yarn workspace mobile lint.'],
  ['Run go test ./api/... for the API module.', 'Run go test ./store/... for the storage module.'],

  // A dev command beside a prod one (7).
  ['Start the dev server with npm run dev.', 'Start production with npm start.'],
  ['Locally, run the app with flask run --debug.', 'In production, the app runs under gunicorn.'],
  ['Use docker compose up for local development.', 'Production is deployed with helm upgrade.'],
  ['Run rails server for local development.', 'Production runs Puma behind nginx.'],
  ['Debug builds use cargo build.', 'Release builds use cargo build --release.'],
  ['The dev build is made with vite build --mode development.', 'The prod build is made with vite build.'],
  ['During development, run uvicorn with --reload.', 'In production, uvicorn runs with four workers.'],

  // Other side-by-side facts in like words (5).
  ['Node 20 is required for development.', 'Deployed containers run Node 20 too.'],
  ['The Python SDK supports Python 3.8 and newer.', 'The Go SDK supports Go 1.20 and newer.'],
  ['The web app uses Next.js 14.', 'The docs site uses Docusaurus 3.'],
  ['Local tests run against SQLite.', 'CI tests also run against PostgreSQL 16.'],
  ['The Docker base image is python:3.12-slim.', 'The build stage uses node:20 to compile the frontend.'],
]
