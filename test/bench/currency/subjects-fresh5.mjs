// Fresh currency subjects, set 5 (issue 30): written blind on 2026-11-28 by a helper session, without reading mem's rules, tests, docs or other subject files. Not to be tuned on.

export const SUBJECTS_FRESH5 = [
  {say: ['Production deploys go out through {v}', 'We ship prod releases using {v}.'], ask: ['how does a new build get pushed live?', 'deploy target'], values: ['Heroku pipelines', 'ArgoCD', 'Fly.io', 'a GitHub Actions workflow']},
  {say: ['Monetary amounts are stored as {v}', 'Represent currency values using {v} in the ledger code.'], ask: ['how should prices be typed so we avoid float rounding bugs?'], values: ['integer cents', 'Decimal(19,4)', 'BigInt minor units', 'a Money value object']},
  {say: ['The mobile app supports iOS down to {v}', 'Minimum iOS deployment target for the app: {v}'], ask: ['oldest iPhone OS release we still run on?'], values: ['iOS 14', 'iOS 15', 'iOS 16', 'iOS 17']},
  // same words, other subject
  {say: ['The mobile app supports Android down to {v}', 'Minimum Android SDK level for the app: {v}'], ask: ['lowest Google phone OS version we still handle?'], values: ['API 23', 'API 24', 'API 26', 'API 28']},
  {say: ['Service functions signal failure by {v}', 'Domain-layer errors are surfaced by {v}.'], ask: ['what is the convention when a business operation goes wrong?'], values: ['throwing typed exceptions', 'returning a Result<T, E>', 'returning [err, value] tuples', 'rejecting with an AppError']},
  {say: ['The backend runs on Node {v}', 'Our server runtime is pinned to Node.js {v} in .nvmrc'], ask: ['what runtime release should I install locally to work on the API?'], values: ['18.19', '20.11', '22.4', '24.1']},
  {say: ['Our commit messages follow the {v} convention', 'Format commit subjects the {v} way.'], ask: ['how should I describe my changes when saving them to version control?'], values: ['Conventional Commits', 'gitmoji', 'Angular', 'Linux kernel']},
  {say: ['{v} is on pager duty for the checkout service this rotation', 'Checkout incidents get escalated to {v} right now.'], ask: ['who do I wake up if purchasing breaks at 3am?'], values: ['@maria.k', '@dtran', '@oluwaseun', '@jbeck']},
  {say: ['The payments gateway client times out after {v}', 'HTTP timeout on calls to the payments gateway is {v}.'], ask: ['how long do we wait on the card processor before giving up?'], values: ['5s', '10s', '15s', '30s']},
  // same words, other subject
  {say: ['The fraud scoring client times out after {v}', 'HTTP timeout on calls to the fraud scoring service is {v}.'], ask: ['how long before a risk check request is abandoned?'], values: ['300ms', '500ms', '800ms', '2s']},
  {say: ['React component files use {v}', 'Name each UI component file in {v}.'], ask: ['how should I name a new .tsx file for a widget?'], values: ['PascalCase', 'kebab-case', 'camelCase', 'snake_case']},
  {say: ['Local Postgres listens on port {v}', 'docker-compose maps the database to host port {v}'], ask: ['what port does my SQL client connect to on my machine?', 'local db port'], values: ['5432', '5433', '6543', '15432']},
  {say: ['Client-exposed environment variables must start with {v}', 'Anything the browser bundle reads from env needs the {v} prefix.'], ask: ['what do config keys visible on the frontend have to be called?'], values: ['REACT_APP_', 'VITE_', 'NEXT_PUBLIC_', 'PUBLIC_']},
  {say: ['Hotfixes are cut from the {v} branch', 'Emergency patches should branch off {v}.'], ask: ['where do I start an urgent fix from?'], values: ['main', 'release/stable', 'prod', 'hotfix-base']},
  {say: ['Max line length is {v} characters', 'The formatter wraps code at {v} columns.'], ask: ['how wide can a row of source get before it must break?'], values: ['80', '88', '100', '120']},
  {say: ['Nightly warehouse ETL kicks off at {v}', 'The batch load into Snowflake is scheduled for {v} each night.'], ask: ['when does the analytics data pipeline run?'], values: ['01:00 UTC', '02:30 UTC', '03:00 UTC', '23:45 UTC']},
  // same words, other subject
  {say: ['Nightly cache warmup kicks off at {v}', 'The batch job that pre-fills Redis is scheduled for {v} each night.'], ask: ['what time do we prime the in-memory store?'], values: ['04:00 UTC', '05:15 UTC', '00:30 UTC', '06:00 UTC']},
  {say: ['Python code is indented with {v}', 'Our Python style uses {v} per nesting level'], ask: ['spaces or tabs in .py files?'], values: ['4 spaces', '2 spaces', 'a single tab', '8 spaces']},
  {say: ['The public API allows {v} per API key', 'Each API key is throttled above {v}.'], ask: ['how many calls can a client make before getting 429s?'], values: ['100 requests/minute', '600 requests/minute', '60 requests/second', '5000 requests/hour']},
  {say: ['TODO comments must include {v}', 'Every leftover-work marker in the code needs {v} attached.'], ask: ['rules for FIXME annotations'], values: ['the author handle', 'a Jira ticket key', 'a GitHub issue link', 'a due date']},
  {say: ['Firmware is built with {v}', 'The STM32 board image compiles under {v}.'], ask: ['which compiler produces the microcontroller binary?'], values: ['arm-none-eabi-gcc 10.3', 'arm-none-eabi-gcc 12.2', 'LLVM Embedded Toolchain 17', 'IAR EWARM 9.40']},
  {say: ['Unit tests must keep line coverage at or above {v}', 'CI fails the build if coverage drops below {v}.'], ask: ['minimum percentage of code exercised by the suite?'], values: ['70%', '80%', '85%', '90%']},
  // same words, other subject
  {say: ['Unit tests must each finish in under {v}', 'CI fails the build if a single unit test takes longer than {v}.'], ask: ['how slow is one spec allowed to be?'], values: ['100ms', '250ms', '1s', '2s']},
  {say: ['New unit tests are written with {v}', 'Use {v} as the runner for fresh specs.'], ask: ['which testing tool should a newly added check use?'], values: ['Jest', 'Vitest', 'Mocha + Chai', 'node:test']},
  {say: ['The recommendation endpoint serves model {v}', 'Currently live ranking checkpoint: {v}'], ask: ['which trained weights are behind the suggestions feature?'], values: ['recsys-v3.2', 'recsys-v4.0', 'recsys-v4.1-distilled', 'two-tower-2026-09']},
  {say: ['Tests are kept in {v}.', 'Put spec files in {v}'], ask: ['where does a new test go relative to the module it covers?'], values: ['a top-level tests/ folder', '__tests__ folders next to the code', 'the same directory as the source file', 'test/ mirroring src/']},
  {say: ['The game client is built on Unity {v}', 'Everyone must open the project in Unity {v}.'], ask: ['which engine release do I install to work on the game?'], values: ['2021.3 LTS', '2022.3 LTS', '6000.0 LTS', '6000.1']},
  {say: ['Database tables are named in {v}', 'Use {v} for table names in migrations.'], ask: ['convention for naming new relations in the schema'], values: ['plural snake_case', 'singular snake_case', 'PascalCase singular', 'plural camelCase']},
  {say: ['Primary region for the API cluster is {v}', 'The main Kubernetes cluster serving API traffic lives in {v}.'], ask: ['which AWS region hosts the backend?'], values: ['us-east-1', 'us-west-2', 'eu-west-1', 'eu-central-1']},
  // same words, other subject
  {say: ['Primary region for the ML training cluster is {v}', 'The main GPU cluster for training jobs lives in {v}.'], ask: ['where do model fitting jobs run geographically?'], values: ['us-east-2', 'us-west-2', 'eu-north-1', 'ap-northeast-1']},
  {say: ['Private fields in C# are written as {v}', 'Name class-private members like {v}'], ask: ['how are non-public instance variables spelled in the .NET code?'], values: ['_camelCase', 'm_camelCase', 'camelCase', 'mPascalCase']},
  {say: ['Internal npm packages are published to {v}', 'Our private packages live on the {v} registry'], ask: ['where do shared company libraries get uploaded?'], values: ['GitHub Packages', 'Verdaccio', 'JFrog Artifactory', 'AWS CodeArtifact']},
  {say: ['Application logs are emitted as {v}', 'Every log line should be {v}.'], ask: ['what shape do our diagnostic messages take?'], values: ['JSON', 'logfmt', 'plain text with a timestamp prefix', 'ECS-formatted JSON']},
  {say: ['Schema migrations need sign-off from {v}', '{v} has to approve any change under db/migrations.'], ask: ['who reviews changes to table structure?'], values: ['@priya', '@leo.m', '@data-platform', '@db-guild']},
  {say: ['Boolean variables should start with {v}', 'Name true/false locals with the {v} prefix.'], ask: ['naming for flag-style variables in code'], values: ["'is'", "'is' or 'has'", "'should'", "'b' (Hungarian)"]},
  // same words, other subject
  {say: ['Boolean columns should start with {v}', 'Name true/false table columns with the {v} prefix.'], ask: ['how should a yes/no field in a SQL table be called?'], values: ["'is_'", "'has_'", "'flag_'", "'f_'"]},
  {say: ['API timestamps are serialized as {v}', 'Return dates in response bodies as {v}.'], ask: ['how should time fields look in payloads we send out?'], values: ['ISO 8601 strings in UTC', 'Unix epoch seconds', 'epoch milliseconds', 'RFC 3339 with offset']},
  {say: ['Audit logs for PHI access are kept for {v}', 'Retention on the HIPAA access trail is {v}.'], ask: ['how long do we store records of who viewed patient data?'], values: ['6 years', '7 years', '90 days hot + 6 years cold', '10 years']},
  {say: ['Import statements in each file are ordered {v}', 'Sort the import block {v}.'], ask: ['how should the require/use lines at the top of a module be arranged?'], values: ['alphabetically', 'stdlib, third-party, then local', 'by line length', "with isort's black profile"]},
  {say: ['Frontend errors are reported to {v}', 'We send browser exceptions to {v} for triage.'], ask: ['where can I see crashes from the web app?'], values: ['Sentry', 'Bugsnag', 'Datadog RUM', 'Rollbar']},
  {say: ['Test files are named with the suffix {v}', 'Give every test module a {v} ending.'], ask: ['what filename pattern do specs use?'], values: ['.test.ts', '.spec.ts', '_test.ts', '.unit.ts']},
  // same words, other subject
  {say: ['Storybook files are named with the suffix {v}', 'Give every component story module a {v} ending.'], ask: ['how do I name a new component showcase file?'], values: ['.stories.tsx', '.story.tsx', '.stories.mdx', '.sb.tsx']},
  {say: ['Android view IDs follow {v}', 'Name layout widget IDs using {v}.'], ask: ['what naming do R.id entries use?'], values: ['snake_case like btn_submit', 'camelCase like submitButton', 'the type_screen_name pattern', 'lowerCamel with a type suffix']},
  {say: ['We submit a new app store build every {v}', 'The mobile release train leaves every {v}.'], ask: ['how often do phone app versions go out?'], values: ['week', 'two weeks', 'three weeks', 'month']},
  {say: ['Feature flags are named {v}', 'Toggle keys in LaunchDarkly should look like {v}.'], ask: ['how do I call a new rollout switch?'], values: ['ff_<team>_<feature>', '<team>.<feature>.enabled', 'release-<feature>', 'FEATURE_<NAME>']},
  {say: ['Max upload size for patient documents is {v}', 'The clinical records upload endpoint rejects files over {v}.'], ask: ['how big can a scanned lab report be?'], values: ['10 MB', '25 MB', '50 MB', '100 MB']},
  // same words, other subject
  {say: ['Max upload size for profile avatars is {v}', 'The avatar upload endpoint rejects files over {v}.'], ask: ['largest allowed user picture'], values: ['512 KB', '1 MB', '2 MB', '5 MB']},
  {say: ['Before committing a notebook, {v}', 'Policy for .ipynb files in PRs: {v}'], ask: ['what do I do with cell results in data analysis files?'], values: ['clear all outputs', 'strip with nbstripout', 'pair and commit the jupytext .py only', 'keep outputs under 1 MB']},
]
