// Fresh currency subjects (issue 30): written blind on 2026-11-28 by a helper session, after the
// update rules were last changed, without reading the rules, their tests, the docs or the tuned
// set's subjects (only the format of three of its lines). Not to be tuned on: if a rule or threshold
// is ever changed because of a miss here, say so and stop calling it fresh.
// Tuned on since 2026-11-28: misses read here drove the handle, placeholder and instruction-word changes
// of values.ts and guards.ts (the 'Handles, decorators and patterns' commit). subjects-fresh4.mjs was the check.

export const SUBJECTS_FRESH = [
  {say: ['GOPROXY is set to {v} in CI', 'Go dependencies are downloaded through {v}; do not bypass it with direct fetches'], ask: ['Where does the build pull Go packages from?', 'which module mirror do we use'], values: ['https://proxy.golang.org', 'https://goproxy.internal.acme.io', 'https://athens.corp.example', 'https://goproxy.cn']},
  {say: ['Kotlin version: {v}', 'The Android app is compiled with the {v} release of the Kotlin compiler'], ask: ['Which Kotlin release does the mobile build use?'], values: ['1.9.24', '2.0.21', '2.1.0', '2.2.10']},
  {say: ['Gradle wrapper is pinned at {v}', 'Always build via ./gradlew, which fetches Gradle {v} for you'], ask: ['What build tool version should I expect for the JVM modules?'], values: ['8.5', '8.7', '8.10.2', '9.0']},
  {say: ['Redis maxmemory-policy is {v}', 'Once the cache is full, keys are dropped according to {v}'], ask: ['What happens to cached entries when memory runs out?', 'cache eviction setting'], values: ['allkeys-lru', 'volatile-lru', 'allkeys-lfu', 'volatile-ttl']},
  {say: ['The orders topic has {v} partitions', 'At most {v} consumers can read order events in parallel, one per partition'], ask: ['How far can the order event consumers scale out?'], values: ['12', '24', '32', '48']},
  {say: ['Build artifacts go to the S3 bucket {v}', 'CI uploads release tarballs into {v}'], ask: ['Where are compiled release packages stored?'], values: ['acme-build-artifacts', 'acme-ci-outputs', 'release-bin-prod', 'acme-artifacts-eu']},
  {say: ['Primary AWS region: {v}', 'Everything in production runs out of {v} unless noted otherwise'], ask: ['Which cloud region hosts the live environment?'], values: ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1', 'ap-southeast-2']},
  {say: ['Terraform state lives in {v}', 'The tf backend is configured as {v}; never keep state on your laptop'], ask: ['Where is the infrastructure state file kept?'], values: ['an S3 bucket with DynamoDB locking', 'Terraform Cloud', 'a GCS bucket', 'Azure Blob Storage']},
  {say: ['On-call shifts are {v} long', 'The pager passes to the next engineer after {v}'], ask: ['How long is each person on call?', 'how often does the pager rotate'], values: ['one week', 'two weeks', '3 days', '24 hours']},
  {say: ['{v} owns the billing module', 'Any change under billing/ needs sign-off from {v}, its CODEOWNER'], ask: ['Who must approve payment code changes?'], values: ['@maria-k', '@payments-team', '@dchen', '@ops-core']},
  {say: ['Release trains depart every {v}', 'The weekly production cut happens on {v}'], ask: ['What day do we ship?', 'when is the next release branch created'], values: ['Tuesday', 'Thursday', 'Monday', 'Wednesday']},
  {say: ['Feature flags are managed in {v}', 'Gate unfinished functionality behind toggles in {v}, not env vars'], ask: ['How do we hide work-in-progress features from users?'], values: ['LaunchDarkly', 'Unleash', 'Flagsmith', 'ConfigCat', 'GrowthBook']},
  {say: ['Application logs are retained for {v}', 'Service log lines are purged after {v}'], ask: ['How far back can I search old log output?'], values: ['7 days', '14 days', '30 days', '90 days']},
  {say: ['Public API rate limit: {v} requests per minute per key', 'Each API key may make at most {v} calls a minute before getting 429s'], ask: ['How many requests can a client send before being throttled?'], values: ['60', '100', '600', '1000']},
  {say: ['Container images are pushed to {v}', 'Deployments pull their Docker images from {v}'], ask: ['Which registry hosts our built images?'], values: ['ghcr.io/acme', '123456789012.dkr.ecr.us-east-1.amazonaws.com', 'registry.gitlab.com/acme', 'acme.azurecr.io']},
  {say: ['Static assets are served via {v}', '{v} sits in front of the frontend as our edge cache'], ask: ['Which CDN delivers the web app files?'], values: ['Cloudflare', 'Fastly', 'CloudFront', 'Akamai', 'Bunny CDN']},
  {say: ['Python tests run with {v}', 'For the Python packages, the suite is driven by {v}'], ask: ['Which test framework do the Python services use?'], values: ['pytest', 'unittest', 'nose2', 'ward']},
  {say: ['Run Rust tests with `{v}`', 'CI checks the Rust crates by calling `{v}`'], ask: ['How do I execute the test suite for the Rust code?'], values: ['cargo test --workspace', 'cargo nextest run', 'cargo test --all-features', 'cargo nextest run --profile ci']},
  {say: ['Java unit tests use {v}', 'Write new JVM test classes against {v}'], ask: ['Which testing library for the Java services?'], values: ['JUnit 4', 'JUnit 5', 'TestNG', 'Spock']},
  // same words, other subject
  {say: ['Production database pool size is {v} connections', 'In prod, each service opens at most {v} DB connections'], ask: ['How many DB connections does a prod instance hold?'], values: ['20', '50', '80', '100']},
  {say: ['Staging database pool size is {v} connections', 'In staging, each service opens at most {v} DB connections'], ask: ['How many DB connections does a staging instance hold?'], values: ['5', '10', '15']},
  {say: ['Nightly backup cron: {v}', 'The database snapshot job is scheduled as `{v}`'], ask: ['What time are the DB dumps taken each night?'], values: ['0 2 * * *', '30 3 * * *', '0 1 * * *', '15 4 * * *']},
  {say: ['Default branch is {v}', 'Open PRs against {v}; it is the trunk everything merges into'], ask: ['Which branch should pull requests target?'], values: ['main', 'master', 'develop', 'trunk']},
  {say: ['Monorepo tasks are orchestrated by {v}', 'Use {v} to build only the packages a change affects'], ask: ['What tool runs builds across the workspace packages?'], values: ['Nx', 'Turborepo', 'Bazel', 'Pants', 'Lerna']},
  {say: ['Current public API version is {v}', 'New clients should call the {v} endpoints'], ask: ['Which REST API revision should integrations target?'], values: ['v2', 'v3', '2024-06-01', 'v4']},
  {say: ['SSO is handled by {v}', 'Employees sign in to internal tools through {v}'], ask: ['Which identity provider do we use for staff login?'], values: ['Okta', 'Azure AD', 'Google Workspace', 'Auth0', 'Keycloak']},
  {say: ['Checkout error budget: {v} of requests per 30 days', 'If more than {v} of checkout calls fail in a month, feature work stops until it recovers'], ask: ['How much unreliability is tolerated for the purchase flow?'], values: ['0.1%', '0.5%', '1%', '0.05%']},
  {say: ['PRs need {v} approving reviews before merge', 'Nothing lands on the main line until {v} teammates have approved it'], ask: ['How many reviewers must sign off on a change?'], values: ['two', 'three', 'four']},
  // same words, other subject
  {say: ['Database table names use {v}', 'Write database table names in {v}'], ask: ['How should I name a new table?'], values: ['snake_case', 'camelCase', 'PascalCase', 'plural snake_case']},
  {say: ['Database column names use {v}', 'Write database column names in {v}'], ask: ['How should I name a new column?'], values: ['snake_case', 'camelCase', 'lowercase with no separators']},
  {say: ['Kafka topics are named {v}', 'Any new event stream must follow the pattern {v}'], ask: ['What naming scheme do message topics follow?'], values: ['<domain>.<entity>.<event>', '<team>-<service>-<event>', '<env>.<domain>.<entity>.v1']},
  {say: ['Migration files are named {v}', 'Name each schema change script like {v}'], ask: ['What filename format does a script that alters the schema take?'], values: ['YYYYMMDDHHMM_description.sql', 'V<n>__description.sql', '0001_description.py']},
  {say: ['The database connection string is read from {v}', 'Set {v} to point the app at Postgres'], ask: ['Which environment variable configures the DB connection?'], values: ['DATABASE_URL', 'PG_DSN', 'POSTGRES_URL', 'DB_CONN']},
  {say: ['Python version: {v}', 'The backend services target CPython {v}'], ask: ['Which interpreter release does the backend need?'], values: ['3.10', '3.11', '3.12', '3.13']},
  {say: ['go.mod declares go {v}', 'CI installs the Go {v} toolchain'], ask: ['What version of Go should I install locally?'], values: ['1.21', '1.22', '1.23', '1.24']},
  {say: ['JDK {v} is required', 'Services are compiled and run on Java {v}'], ask: ['Which Java release do I need to build the backend?'], values: ['11', '17', '21', '25']},
  {say: ['Lint with `{v}` before pushing', 'CI fails the build if `{v}` reports anything'], ask: ['How do I check code style locally?'], values: ['ruff check .', 'golangci-lint run', 'cargo clippy -- -D warnings', 'make lint']},
  {say: ['Staging lives at {v}', 'QA tests pre-release builds on {v}'], ask: ['What is the address of the pre-production environment?'], values: ['https://staging.acme.dev', 'https://stg.acme.io', 'https://acme-staging.fly.dev']},
  {say: ['Secrets are stored in {v}', 'Never commit credentials; the services fetch them from {v} at runtime'], ask: ['Where do API keys and passwords live?'], values: ['AWS Secrets Manager', 'HashiCorp Vault', 'Doppler', '1Password', 'GCP Secret Manager']},
  // same words, other subject
  {say: ['Integration tests time out after {v}', 'Each integration test is killed if it runs longer than {v}'], ask: ['What is the time limit for an integration test?'], values: ['30s', '60s', '120s', '5 minutes']},
  {say: ['Unit tests time out after {v}', 'Each unit test is killed if it runs longer than {v}'], ask: ['What is the time limit for a unit test?'], values: ['2s', '5s', '10s', '500ms']},
  {say: ['Minimum test coverage is {v}', 'PRs that drop line coverage under {v} get blocked'], ask: ['What percentage of code must be exercised by tests?'], values: ['70%', '80%', '85%', '90%']},
  {say: ['PRs are merged with {v}', 'When landing a branch, use {v}'], ask: ['What git history style do we keep on main?'], values: ['squash merge', 'rebase and merge', 'merge commits', 'fast-forward only']},
  {say: ['Dependency updates are automated by {v}', '{v} opens the PRs that bump our libraries'], ask: ['Which bot keeps third-party packages up to date?'], values: ['Renovate', 'Dependabot', 'Snyk', 'Depfu']},
]
