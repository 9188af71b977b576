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

/** Scores a build's `factShape` / `updateRelation` on the pairs. */
export function scorePairs({factShape, updateRelation}) {
  const found = PAIR_UPDATES.filter(([older, newer]) => updateRelation(factShape(newer), factShape(older))).length
  let grouped = 0
  for (const [a, b] of PAIR_OTHERS) for (const [x, y] of [[a, b], [b, a]]) if (updateRelation(factShape(y), factShape(x))) grouped++
  return {found, updates: PAIR_UPDATES.length, grouped, others: PAIR_OTHERS.length * 2}
}
