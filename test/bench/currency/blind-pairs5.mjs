// Blind pair set 5 for update detection (issue 30 item 4).
//
// Written by a helper session for issue 30 on 2026-11-27 ("updset5"), blind: before any update rule was
// measured on it, without reading the currency, gates, text or search engines, their tests, the other blind
// sets or any bench output. If a rule is ever tuned on this set (a rule or guard added or changed because of
// what it does on these pairs), say so in docs/currency.md and in the commit, and stop calling it blind.
//
// No text holds a number or a version: every value here is a command, a tool, a convention or a policy.
// Every text is one sentence under 120 characters, as a real AGENTS.md, CLAUDE.md, CONTRIBUTING.md or
// .cursorrules might hold it.
//
// BLIND5_UPDATES: [older, newer] — two versions of ONE project rule or fact; the newer replaces the older
//   (a repo never holds both as true at once). Grouped by kind: (a) commands for one task changed,
//   (b) the tool filling one role swapped, (c) conventions and policies changed, (d) the same kind of rule
//   said in other words with a different choice. Pairs marked "few" share almost no words beyond tool names.
// BLIND5_OTHERS: [a, b] — two facts a repo holds SIDE BY SIDE, both true at once, in like words: two
//   commands for two tasks, one tool in two roles, two tools for two roles, a rule and its exception, two
//   folders for two kinds of file, dev vs prod, frontend vs backend, one command for two packages, a tool and
//   its plugin, a policy for main vs for release branches. None is an update of the other.

export const BLIND5_UPDATES = [
  // (a) commands: the command for one task changed
  ['Run the tests with `npm test` before pushing.', 'Use `pnpm vitest run` for the test suite.'],
  ['Build everything with `make build`.', 'The whole project now builds through `just build`.'],
  ['Install dependencies with `yarn install`.', 'Install dependencies with `pnpm install --frozen-lockfile`.'],
  ['Run the Rust unit tests with `cargo test`.', 'We use `cargo nextest run` as the test runner for all crates.'],
  ['Run the Python tests with `python -m pytest`.', 'Invoke the suite through `uv run pytest` so the locked env is used.'],
  ['Start the dev server with `npm run dev`.', 'Start the dev server with `npm run start:dev`.'],
  ['Lint the codebase with `eslint .` before committing.', 'Before committing, run `eslint . --cache` on the codebase.'],
  ['Regenerate the API client with `npm run codegen`.', 'The typed client is rebuilt from the schema by `npm run generate:api`.'],
  ['Apply database migrations with `rake db:migrate`.', 'Migrations are applied by `bin/rails db:migrate` from the repo root.'],
  ['Format Go code with `gofmt -w .`.', 'Run `goimports -w .` so formatting and import grouping are fixed together.'],
  ['Bring up the local stack with `docker-compose up`.', 'Use `docker compose up --wait` to start local services.'],
  ['Seed the local database with `npm run seed`.', 'Sample data is loaded by `npm run db:seed`.'],
  ['Serve the docs locally with `mkdocs serve`.', 'Preview documentation with `mkdocs serve --strict` so broken links fail.'],
  ['Set up a fresh checkout by running `./scripts/setup.sh`.', 'After cloning, `make bootstrap` installs everything you need.'],
  ['Update snapshots with `jest -u`.', 'Refresh stale snapshots by running `vitest --update`.'],
  ['Run all pre-commit hooks by hand with `pre-commit run --all-files`.', 'To run the hooks manually, use `lefthook run pre-commit`.'],
  ['Check types with `mypy src`.', 'Type checking is done by `pyright` over the whole repository.'],

  // (b) tool swaps: the tool filling one role changed
  ['We format code with Prettier on save.', 'Biome owns all formatting across the repo.'], // few
  ['Lint Python with Pylint.', 'Ruff is the only checker allowed for style problems.'], // few
  ['Sidekiq processes our background jobs.', 'Async work is queued in GoodJob inside Postgres.'], // few
  ['The data layer uses TypeORM entities.', 'Database access goes through Prisma.'],
  ['Use axios for outgoing HTTP requests.', 'Call remote services with ky.'],
  ['Log with winston.', 'Every message printed by services goes through pino.'], // few
  ['The frontend is bundled with webpack.', 'Vite builds and serves the client app.'], // few
  ['Travis runs CI for every pull request.', 'Our pipelines live in GitHub Actions.'], // few
  ['We host the app on Heroku.', 'Render serves production.'], // few
  ['Client state lives in Redux.', 'Use Zustand stores for client-side state.'],
  ['Dates are handled with moment.', 'Do calendar math with date-fns.'], // few
  ['Translations are managed with react-intl.', 'Lingui extracts and compiles the localized strings.'],
  ['Python dependencies are managed with Poetry.', 'uv manages the Python environment and lockfile.'],
  ['Unit tests are written with Mocha and Chai.', 'Write unit tests in Jest.'],
  ['Use Enzyme to test React components.', 'Component tests render with Testing Library and query by role.'],
  ['Crashes are reported to Sentry.', 'Rollbar collects runtime exceptions from all services.'],
  ['Styles are written as Sass modules.', 'Style components with Tailwind utility classes.'],
  ['Feature flags come from LaunchDarkly.', 'Unleash decides what is switched on for whom.'], // few
  ['Memcached sits in front of the database for reads.', 'Redis is the cache.'], // few

  // (c) conventions and policies changed
  ['JSON keys in API responses are camelCase.', 'API payloads use snake_case keys.'],
  ['Merge feature branches with a merge commit to keep history.', 'Squash-merge every pull request.'],
  ['Rebase onto main before asking for review.', 'Merge main into your branch instead of rebasing it.'],
  ['React components live in src/components.', 'Put each component under src/ui next to its story.'],
  ['Commit messages follow Conventional Commits.', 'Write commit subjects in plain imperative English without type prefixes.'],
  ['Throw exceptions for expected failures.', 'Return a Result for expected errors; exceptions are only for bugs.'],
  ['Use relative imports between modules.', 'Import through the @/ alias and never climb with ../ paths.'],
  ['Any maintainer can approve a pull request.', 'Pull requests need sign-off from a code owner before merging.'],
  ['Production is deployed from the release branch.', 'Every merge to main goes straight to production.'],
  ['Tests sit next to the code they cover.', 'Keep all tests under the top-level tests directory.'],
  ['Name source files in PascalCase.', 'File names are kebab-case.'],
  ['Database tables use singular names.', 'Name tables in the plural.'],
  ['Update CHANGELOG.md by hand when you change behaviour.', 'Add a changeset for each user-facing change; the changelog is generated.'],
  ['Use default exports for modules.', 'Prefer named exports everywhere.'],
  ['The tech lead approves schema changes.', 'Schema migrations must be reviewed by the database team.'],
  ['Document new environment variables in the README.', 'Env vars are documented only in .env.example, each with a short comment.'],
  ['Indent with tabs.', 'Use spaces for indentation.'],

  // (d) the same kind of rule said in other words, with a different choice
  ['Prefer interfaces over type aliases.', 'Object shapes are declared with `type`, not `interface`.'],
  ['Write documentation in reStructuredText.', 'Docs pages are authored in Markdown.'],
  ['Timestamps are stored in server local time.', 'Persist every datetime as UTC.'], // few
  ['Primary keys are auto-increment integers.', 'Give every row a UUID as its identifier.'],
  ['Strings use double quotes.', 'Quote strings with single quotes.'],
  ['Errors are logged as plain text lines.', 'Log output is structured JSON.'],
  ['Feature work targets the develop branch.', 'Open every pull request against main.'],
  ['Keep styles in global stylesheets.', 'Scope CSS to the component that uses it.'],
  ['New endpoints are added to the REST API.', 'Expose new data through the GraphQL schema.'],
  ['Settings are read from YAML files in config/.', 'Configuration comes from environment variables only.'],
  ['Store prices as decimal strings.', 'Represent money as integer minor units.'],
  ['The default branch is master.', 'Our trunk is called main.'],
  ['Components are written as classes.', 'Write function components with hooks.'],
  ['Name tests in Given/When/Then form.', 'Each test name is a sentence starting with "should".'],
  ['Each author writes release notes for their own PR.', 'The release manager drafts the notes for every release.'],
  ['Pages are rendered on the server by default.', 'Render pages in the browser unless SEO needs them prerendered.'],
  ['Public functions are documented with JSDoc blocks.', 'Describe exported APIs in the README instead of in comments.'],
];

export const BLIND5_OTHERS = [
  // two commands for two tasks
  ['Run the test suite with `make test`.', 'Lint everything with `make lint`.'],
  ['Use `just test` to run the test suite.', 'Use `just fmt` to format the code.'],
  ['Run `cargo test` for unit tests.', 'Run `cargo bench` for benchmarks.'],
  ['Run `uv run pytest` for the tests.', 'Run `uv run mypy` for type checks.'],
  ['Run `docker compose up` to start the dependencies.', 'Run `docker compose down -v` to reset their data.'],
  ['Use `npm run dev` to start the frontend.', 'Use `npm run dev:api` to start the backend.'],
  ['Run `terraform plan` before every infrastructure change.', 'Run `terraform fmt` to format the modules.'],
  ['Use `npm ci` in CI.', 'Use `npm install` locally when adding a dependency.'],
  ['Type-check the TypeScript with `tsc --noEmit`.', 'Type-check the Vue files with `vue-tsc --noEmit`.'],
  ['Run `make check` before pushing.', 'Run `make release` only from a clean main checkout.'],
  ['Generate migrations with `npm run db:generate`.', 'Apply migrations with `npm run db:migrate`.'],

  // one tool in two roles
  ['Use pnpm to install packages.', 'Use pnpm to run workspace scripts.'],
  ['Redis caches session lookups.', 'Redis also backs the rate limiter.'],
  ['Use Zod to validate API input.', 'Use Zod to parse environment variables at startup.'],
  ['GitHub Actions runs the tests.', 'GitHub Actions also publishes the package.'],
  ['Use Ruff for linting.', 'Use Ruff for formatting as well.'],
  ['Use Docker for local services.', 'Use Docker to build the production image.'],
  ['Postgres is the main database.', 'Postgres also holds the job queue.'],

  // two tools for two roles, in one sentence shape
  ['Tests are written with Vitest.', 'End-to-end tests are written with Playwright.'],
  ['Format TypeScript with Prettier.', 'Format Rust with rustfmt.'],
  ['The API is built with Fastify.', 'The admin panel is built with Next.js.'],
  ['Postgres stores application data.', 'ClickHouse stores analytics events.'],
  ['ESLint checks JavaScript.', 'Stylelint checks CSS.'],
  ['Vite serves the app in development.', 'Rollup bundles the library for publishing.'],
  ['The app keeps client state in Redux Toolkit.', 'Server data is cached with TanStack Query.'],
  ['Use Vitest for the frontend tests.', 'Use pytest for the backend tests.'],
  ['The mobile app uses React Native.', 'The marketing site uses Astro.'],
  ['Storybook documents the UI components.', 'Chromatic runs visual tests on the stories.'],
  ['Write tests in Jest.', 'Mock HTTP calls with msw.'],
  ['The web app deploys to Vercel.', 'The worker service deploys to Railway.'],
  ['Sentry collects frontend errors.', 'Grafana shows backend metrics.'],

  // a rule and its exception
  ['Use named exports.', 'Route files export a default component because the framework requires it.'],
  ['Do not use default exports.', 'Storybook story files keep their default export.'],
  ['Never commit directly to main.', 'The on-call engineer may push a hotfix straight to a release branch.'],
  ['Every pull request needs a code owner review.', 'Docs-only pull requests can be merged by any maintainer.'],
  ['Rebase your branch on main before review.', 'Never rebase a branch that others have already pulled.'],
  ['Use Prisma for queries.', 'Use raw SQL for the reporting views.'],
  ['Public APIs need doc comments.', 'Internal helpers need no doc comments.'],
  ['Write new modules in TypeScript.', 'Build scripts stay in plain JavaScript.'],
  ['Use Tailwind for layout and spacing.', 'Use CSS modules for complex animations.'],
  ['Interfaces describe public contracts.', 'Type aliases describe unions and mapped types.'],
  ['Mock the network in unit tests.', 'Integration tests hit a real local database.'],
  ['Use async/await for I/O.', 'Use streams for files too large to hold in memory.'],

  // two folders for two kinds of file
  ['Unit tests live next to the code in src/.', 'Integration tests live in tests/integration.'],
  ['Migrations live in db/migrations.', 'Seed data lives in db/seeds.'],
  ['Components go in src/components.', 'Hooks go in src/hooks.'],
  ['API routes live in src/routes.', 'Background workers live in src/workers.'],
  ['Translations live in locales/.', 'Icons live in assets/icons/.'],
  ['Put architecture decisions in docs/adr.', 'Put runbooks in docs/ops.'],

  // dev vs prod
  ['In development the app reads config from .env.local.', 'In production config comes from the platform settings.'],
  ['The dev database is SQLite.', 'Production uses Postgres.'],
  ['Debug logging is on in development.', 'Production logs only warnings and errors.'],
  ['Vite serves unminified code locally.', 'Production bundles are minified and hashed.'],
  ['Emails are captured by Mailpit in development.', 'Production email goes out through Postmark.'],
  ['Deploy staging from the develop branch.', 'Deploy production from main.'],

  // frontend vs backend conventions
  ['Frontend code uses camelCase names.', 'Backend Python code uses snake_case names.'],
  ['Backend errors are returned as problem+json.', 'Frontend errors are shown as toasts.'],
  ['Database columns are snake_case.', 'TypeScript properties are camelCase, mapped by the ORM.'],
  ['The frontend uses pnpm.', 'The backend uses Poetry.'],
  ['Use kebab-case for URL paths.', 'Use camelCase for query parameters.'],
  ['Use snake_case for Python functions.', 'Use PascalCase for Python classes.'],

  // one command for two packages
  ['Run `pnpm --filter web build` to build the web app.', 'Run `pnpm --filter api build` to build the API.'],
  ['Run `pnpm test` in packages/core.', 'Run `pnpm test` in packages/cli.'],
  ['Run `go test ./...` in the server module.', 'Run `go test ./...` in the tools module too.'],

  // a tool and a plugin of it
  ['Lint with ESLint.', 'The ESLint import plugin enforces import order.'],
  ['Format with Prettier.', 'The Prettier Tailwind plugin sorts class names.'],
  ['Dates are formatted with date-fns.', 'Time zones are handled by date-fns-tz.'],
  ['Use pino for application logs.', 'Use pino-http for request logs.'],
  ['Sidekiq runs background jobs.', 'Sidekiq-cron schedules the recurring ones.'],
  ['Use Vitest for unit tests.', 'Coverage comes from the Vitest Istanbul provider.'],

  // a policy for main vs for release branches
  ['Squash-merge pull requests into main.', 'Release branches take cherry-picks only.'],
  ['Main is protected and needs a passing build.', 'Release branches also need approval from the release manager.'],
  ['Pull requests to main are squash-merged.', 'Merges from a release branch back to main keep a merge commit.'],
  ['Tag releases from main.', 'Nightly builds are published from develop.'],

  // other side-by-side facts in like words
  ['Commit subjects follow Conventional Commits.', 'Pull request titles follow Conventional Commits too.'],
  ['Logs go to stdout as JSON.', 'Audit events go to an append-only table.'],
  ['Unit tests run on every push.', 'The slow end-to-end suite runs nightly.'],
  ['Branch names for features start with feat/.', 'Branch names for fixes start with fix/.'],
  ['CI caches node_modules between runs.', 'CI caches the Playwright browsers between runs.'],
  ['Issues are tracked in GitHub Issues.', 'Security reports go through the private advisory form.'],
  ['Log messages are written in English.', 'User-facing messages must be translated.'],
  ['Uploaded files go to the media bucket.', 'Generated reports go to the exports bucket.'],
];
