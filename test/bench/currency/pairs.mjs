// A second currency set, of pairs: reworded updates of one fact (older → newer) and pairs of texts
// about other subjects in like words. Written after the update rules of values.ts were set and not
// tuned on. The currency bench reports, per build, how many updates its rules find and how many
// pairs of other subjects they group (both directions).

export const PAIR_UPDATES = [
  ['The frontend is deployed to Vercel', 'We now deploy the frontend on Netlify'],
  ['Redis runs on port 6379 locally', 'The local Redis listens on port 6380'],
  ['Use Node 18 for the Lambda functions', 'Lambda functions run on Node 20'],
  ['The Go services are built with Go 1.21', 'Build the Go services with Go 1.22'],
  ['API keys rotate every 90 days', 'We rotate API keys every 30 days'],
  ['The mobile app is written in React Native', 'The mobile app is now written in Flutter'],
  ['Feature branches are merged with squash merges', 'Merge feature branches with rebase merges'],
  ['The design system lives in packages/ui', 'Design system components live in packages/design'],
  ['Session cookies expire after 24 hours', 'Session cookies now expire after 12 hours'],
  ['The cron job for reports runs at 02:00', 'The reports cron job runs at 03:30'],
  ['Translations are managed in Crowdin', 'We manage translations in Lokalise'],
  ['The staging database is refreshed every Sunday', 'Refresh the staging database every Saturday'],
  ['Secrets are stored in Vault', 'Store secrets in AWS Secrets Manager'],
  ['The max upload size is 10 MB', 'Uploads are limited to 25 MB'],
  ['Image thumbnails are 200px wide', 'Thumbnails are generated 320px wide'],
  ['The on-call rotation is managed in PagerDuty', 'On-call rotation lives in Opsgenie'],
  ['Use the --frozen-lockfile flag in CI installs', 'CI installs use the --immutable flag'],
  ['Docs are built with Docusaurus', 'Build the docs with VitePress'],
  ["Test files end with '.spec.ts'", "Test files must end with '.test.ts'"],
  ['Logs are shipped to Datadog', 'We ship logs to Grafana Loki'],
  ['The GraphQL endpoint is /graphql', 'Serve the GraphQL endpoint at /api/graphql'],
  ['The worker concurrency is 4', 'Worker concurrency is set to 8'],
  ['Rate limit: 100 requests per minute per user', 'Each user may make 60 requests per minute'],
  ['The default branch is master', 'The default branch is called main'],
  ['Database backups are kept for 7 days', 'Keep database backups for 30 days'],
]
export const PAIR_OTHERS = [
  ['The frontend is deployed to Vercel', 'The backend is deployed to Fly.io'],
  ['Redis runs on port 6379 locally', 'Postgres runs on port 5432 locally'],
  ['Use Node 18 for the Lambda functions', 'Use Python 3.11 for the Lambda functions'],
  ['API keys rotate every 90 days', 'Database passwords rotate every 30 days'],
  ['Session cookies expire after 24 hours', 'Password reset links expire after 1 hours'],
  ['The max upload size is 10 MB', 'The max request body size is 1 MB'],
  ['Image thumbnails are 200px wide', 'Avatars are 64px wide'],
  ["Test files end with '.spec.ts'", "Story files end with '.stories.tsx'"],
  ['Logs are shipped to Datadog', 'Metrics are shipped to Prometheus'],
  ['The worker concurrency is 4', 'The web server concurrency is 16'],
  ['Database backups are kept for 7 days', 'Audit logs are kept for 365 days'],
  ['The staging database is refreshed every Sunday', 'The search index is rebuilt every Sunday'],
  ['Unit tests run with Vitest', 'E2E tests run with Playwright'],
  ['Method names end with _a', 'Field names end with _f'],
  ['Always prefix interface names with I', 'Always prefix type names with T'],
  ['The admin app listens on port 4000', 'The public app listens on port 3000'],
  ['Errors from checkout go to Sentry', 'Errors from search go to Rollbar'],
  ['The iOS app targets iOS 16', 'The Android app targets API level 33'],
  ['Use snake_case for database columns', 'Use camelCase for JSON fields'],
  ['The billing service is owned by Alice', 'The search service is owned by Bob'],
  ['Release notes are written in CHANGELOG.md', 'Architecture decisions are written in docs/adr'],
  ['The API timeout is 30 seconds', 'The job timeout is 600 seconds'],
  ['Deploys to production need 2 approvals', 'Deploys to staging need 1 approvals'],
  ['Install Python packages with uv', 'Install JavaScript packages with pnpm'],
  ['Run migrations with `npm run migrate`', 'Run seeds with `npm run seed`'],
]

// A third set, written on 2026-11-24 after the first form of the rule on a name before a word of
// the subject (values.ts modifierChanged): facts a repo holds side by side in like words (never
// updates of each other, both ways), and updates. Its one missed update ("… moved to port 4100")
// led to the words that say a fact changed (values.ts INSTRUCTION_WORDS): no longer untouched.
export const SIDE_BY_SIDE = [
 ['The web app runs on port 3000', 'The docs site runs on port 3001'],
 ['Staging uses Postgres 15', 'Production uses Postgres 16'],
 ['The frontend uses React 18', 'The admin panel uses React 17'],
 ['Unit tests run with Vitest', 'Integration tests run with Jest'],
 ['Backend logs go to Loki', 'Frontend errors go to Sentry'],
 ['The orders table is partitioned by month', 'The events table is partitioned by day'],
 ['The api package is published as @acme/api', 'The ui package is published as @acme/ui'],
 ['Workers poll the queue every 5 seconds', 'The scheduler polls the queue every 60 seconds'],
 ['Use Node 20 for the API', 'Use Node 18 for the legacy billing service'],
 ['Images are stored in S3 bucket acme-images', 'Invoices are stored in S3 bucket acme-invoices'],
 ['The mobile app talks to /api/mobile', 'The web app talks to /api/web'],
 ['Feature flags come from LaunchDarkly', 'Remote config comes from Firebase'],
 ['The EU cluster runs in eu-west-1', 'The US cluster runs in us-east-1'],
 ['Emails are sent through Postmark', 'SMS messages are sent through Twilio'],
 ['Search is powered by Meilisearch', 'Analytics is powered by ClickHouse'],
 ['The checkout service is written in Go', 'The catalog service is written in Kotlin'],
 ['Run the API locally with pnpm dev:api', 'Run the worker locally with pnpm dev:worker'],
 ['JWT access tokens expire after 15 minutes', 'Refresh tokens expire after 30 days'],
 ['The Android app is built with Gradle', 'The iOS app is built with Xcode'],
 ['Python services are linted with Ruff', 'TypeScript packages are linted with ESLint'],
 ['The main database is Postgres', 'The cache is Redis'],
 ['Customer PII lives in the vault schema', 'Audit events live in the audit schema'],
 ['Nightly backups run at 02:00 UTC', 'Weekly restores are tested at 04:00 UTC on Sundays'],
 ['The GraphQL gateway listens on port 4000', 'The REST gateway listens on port 8080'],
 ['Storybook is deployed to Chromatic', 'The docs site is deployed to Netlify'],
 ['Use the eu-central-1 region for EU customers', 'Use the us-west-2 region for US customers'],
 ['The rate limit for anonymous users is 60 requests per minute', 'The rate limit for signed-in users is 600 requests per minute'],
 ['Cron jobs are defined in infra/cron.yaml', 'Alerts are defined in infra/alerts.yaml'],
 ['The Rust CLI is released with cargo-dist', 'The Node SDK is released with changesets'],
 ['Docker images for the API are tagged api-<sha>', 'Docker images for the worker are tagged worker-<sha>'],
]
export const SIDE_UPDATES = [
 ['The web app runs on port 3000', 'The web app now runs on port 5173'],
 ['Staging uses Postgres 15', 'Staging was upgraded to Postgres 16'],
 ['Unit tests run with Jest', 'Unit tests run with Vitest now'],
 ['Emails are sent through SendGrid', 'Emails are sent through Postmark'],
 ['The checkout service is written in Node', 'The checkout service was rewritten in Go'],
 ['JWT access tokens expire after 15 minutes', 'JWT access tokens expire after 5 minutes'],
 ['Nightly backups run at 02:00 UTC', 'Nightly backups run at 03:00 UTC'],
 ['The GraphQL gateway listens on port 4000', 'The GraphQL gateway moved to port 4100'],
 ['Storybook is deployed to Chromatic', 'Storybook is deployed to Vercel'],
 ['Cron jobs are defined in infra/cron.yaml', 'Cron jobs are defined in deploy/cron.yaml'],
]

/** Scores a build's `factShape` / `updateRelation` on a set of pairs (the pair set by default). */
export function scorePairs({factShape, updateRelation}, {updates = PAIR_UPDATES, others = PAIR_OTHERS} = {}) {
  const found = updates.filter(([older, newer]) => updateRelation(factShape(newer), factShape(older))).length
  let grouped = 0
  for (const [a, b] of others) for (const [x, y] of [[a, b], [b, a]]) if (updateRelation(factShape(y), factShape(x))) grouped++
  return {found, updates: updates.length, grouped, others: others.length * 2}
}
