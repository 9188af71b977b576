/**
 * Roles and the tools that fill them (the same-role rule, engines/currency/rules.ts): a project has one error
 * tracker, one JavaScript test runner, one job queue at a time, so a rule naming another tool of
 * the same role is usually that rule changed — "Errors are reported to Sentry" → "Production
 * errors go to Rollbar" — even when the two share almost no words and a meaning model finds them
 * far apart. Written from the trade's vocabulary, like the thesaurus (engines/search/thesaurus-groups.ts);
 * a role is narrow on purpose (unit test runners and browser test tools are two roles: a repo uses
 * one of each), and a tool may fill more than one role (Biome lints and formats).
 * Query builders and micro-ORMs often used beside an ORM (Dapper, sqlx, sqlc) are not listed.
 * Tools whose name is also a common word are left out (Standard, Solid, Segment, Agenda, Rollup, …),
 * or read only when written as a name (WORD_NAMES: Black, Render, Express, Temporal, Requests, Linear, Spring).
 * Names are matched as the text writes them, lowercased, without dots, dashes or spaces: "pg-boss",
 * "Node.js", "GitHub Actions" are `pgboss`, `nodejs`, `githubactions` (two consecutive words are
 * tried joined).
 */
import {oncePer} from './once.js'
export const ROLES: readonly string[] = [
  // observability
  'error-tracking: sentry rollbar bugsnag honeybadger airbrake raygun crashlytics glitchtip',
  'log-backend: loki splunk papertrail logtail betterstack graylog sumologic logdna datadog',
  'metrics-backend: prometheus victoriametrics graphite influxdb datadog newrelic',
  'tracing: honeycomb jaeger zipkin lightstep newrelic',
  'on-call: pagerduty opsgenie victorops incidentio',
  // product services
  'feature-flags: launchdarkly unleash flagsmith growthbook splitio configcat',
  'email-delivery: sendgrid postmark mailgun ses sparkpost mandrill mailjet',
  'sms: twilio vonage nexmo messagebird plivo',
  'payments: stripe adyen braintree paypal paddle mollie',
  'auth-provider: auth0 clerk okta cognito keycloak workos',
  'analytics: mixpanel amplitude posthog',
  'object-storage: s3 r2 gcs minio backblaze',
  'cdn: cloudflare fastly cloudfront akamai bunnycdn',
  // hosting and delivery
  'app-hosting: vercel netlify heroku flyio render railway cloudflarepages githubpages',
  'container-registry: dockerhub ghcr ecr gcr quay acr',
  'ci: githubactions circleci travis travisci jenkins gitlabci buildkite teamcity',
  'infrastructure-as-code: terraform pulumi cloudformation opentofu',
  'orchestration: kubernetes k8s nomad ecs',
  'gitops: argocd fluxcd',
  'terraform-automation: atlantis spacelift terraformcloud',
  'api-gateway: kong traefik nginx envoy haproxy caddy',
  'secrets-manager: vault doppler infisical 1password sops secretsmanager',
  'service-config: consul etcd zookeeper',
  // data
  'database: postgres postgresql mysql mariadb sqlite mongodb cockroachdb dynamodb',
  'cache: redis memcached valkey keydb dragonfly solidcache',
  'node-job-queue: bullmq beequeue pgboss graphileworker',
  'job-runner: sidekiq resque goodjob solidqueue delayedjob shoryuken celery rq dramatiq huey temporal oban exq',
  'message-broker: kafka rabbitmq nats sqs pubsub redpanda pulsar kinesis',
  'search-engine: elasticsearch opensearch meilisearch typesense algolia solr',
  'vector-store: pinecone weaviate qdrant milvus pgvector',
  'js-orm: prisma drizzle typeorm sequelize knex mikroorm kysely',
  'python-orm: sqlalchemy peewee tortoise sqlmodel',
  // JavaScript and TypeScript tooling
  'js-package-manager: npm pnpm yarn bun',
  'js-unit-tests: jest vitest mocha jasmine ava uvu',
  'browser-tests: playwright cypress selenium puppeteer webdriverio testcafe nightwatch detox',
  'js-linter: eslint biome oxlint tslint jshint',
  'js-formatter: prettier biome dprint',
  'bundler: webpack vite esbuild turbopack rspack tsup',
  'css-styling: sass scss less stylus tailwind tailwindcss styledcomponents emotion vanillaextract unocss',
  'ui-framework: react vue svelte angular preact',
  'web-meta-framework: nextjs nuxt sveltekit remix astro gatsby',
  'state-management: redux zustand mobx recoil jotai pinia vuex',
  'react-component-tests: enzyme testinglibrary reacttestinglibrary',
  'node-web-framework: express fastify koa hapi nestjs hono',
  'node-logger: pino winston bunyan',
  'js-http-client: axios superagent undici',
  'js-validation: zod yup joi valibot ajv superstruct',
  'js-dates: dayjs datefns luxon moment momentjs',
  'monorepo-tool: turborepo nx lerna',
  'node-version-manager: nvm fnm volta asdf mise',
  // Python tooling
  'python-package-manager: pip pipenv poetry uv pdm conda',
  'python-tests: pytest unittest nose2',
  'python-linter: ruff flake8 pylint pyflakes',
  'python-formatter: black ruff yapf autopep8',
  'python-type-checker: mypy pyright pyre pytype',
  'python-web-framework: django flask fastapi starlette',
  'python-app-server: gunicorn uvicorn hypercorn waitress',
  'python-logger: structlog loguru',
  'python-http-client: requests httpx aiohttp',
  // Ruby, Go, JVM, .NET, PHP
  'ruby-tests: rspec minitest',
  'ruby-linter: rubocop standardrb',
  'ruby-app-server: puma unicorn passenger',
  'go-linter: golangcilint golint staticcheck revive',
  'go-web-framework: gin fiber chi gorilla gorillamux',
  'go-orm: gorm ent',
  'go-logger: logrus zap zerolog slog',
  'jvm-build: maven gradle ant sbt',
  'jvm-tests: junit testng spock',
  'jvm-web-framework: spring springboot quarkus micronaut dropwizard',
  'jvm-logging: log4j log4j2 logback',
  'dotnet-tests: mstest xunit nunit',
  'dotnet-orm: entityframework efcore nhibernate',
  'dotnet-json: newtonsoftjson systemtextjson',
  'dotnet-mocking: moq nsubstitute fakeiteasy',
  'dotnet-assertions: fluentassertions shouldly nfluent',
  'jvm-assertions: assertj hamcrest',
  'jvm-mocking: mockito mockk',
  'jvm-json: gson moshi jackson kotlinxserialization',
  'php-tests: phpunit pest codeception',
  'php-framework: laravel symfony cakephp codeigniter',
  'php-static-analysis: phpstan psalm',
  'php-formatter: pint phpcsfixer',
  // mobile
  'ios-dependencies: cocoapods carthage spm swiftpm swiftpackage',
  'android-http-client: retrofit ktor okhttp volley',
  'ios-ui: uikit swiftui',
  'android-di: dagger hilt koin',
  'android-image-loading: glide coil picasso fresco',
  'rn-navigation: reactnavigation exporouter',
  // the team's tools
  'team-chat: slack discord mattermost zulip',
  'issue-tracker: jira linear asana trello clickup youtrack',
  'code-host: github gitlab bitbucket gitea',
  'dependency-bot: dependabot renovate',
  'docs-site: docusaurus vitepress mkdocs sphinx gitbook mintlify nextra jekyll hugo eleventy',
  'release-automation: releaseplease semanticrelease changesets',
  'protobuf-codegen: buf protoc',
  // documents, media and the pieces an app embeds
  'markdown-renderer: markdownit remark showdown commonmark micromark goldmark redcarpet kramdown markdig',
  'pdf-generation: wkhtmltopdf gotenberg weasyprint pdfkit reportlab prawn wickedpdf dompdf',
  'image-processing: imagemagick graphicsmagick libvips vips jimp pillow sharp',
  'charting: chartjs echarts highcharts recharts plotly nivo apexcharts chartist',
  'diagrams: plantuml mermaid graphviz structurizr',
  'rich-text-editor: quill tiptap prosemirror ckeditor tinymce draftjs',
  'web-maps: leaflet maplibre mapbox openlayers cesium',
  'db-migrations: flyway liquibase dbmate goose golangmigrate sqitch',
  'git-hooks: husky lefthook overcommit',
  'http-mocking: nock msw wiremock mirage pretender',
  'rust-errors: thiserror anyhow snafu eyre',
]

/**
 * Tools whose name is also a common word: read as a tool only written as a name, capitalised
 * inside a sentence ("formatted with Black", "runs on Render"), never as the word ("render the
 * page", "express the total in cents", "a black border").
 */
const WORD_NAMES = new Set(['black', 'render', 'express', 'temporal', 'requests', 'linear', 'sharp', 'remark', 'goose', 'mirage', 'pillow', 'quill', 'spring'])

/** The ROLES table read once: role → its tools, and tool → the roles it fills. */
let table: {toolsOf: Map<string, string[]>; rolesOf: Map<string, string[]>} | undefined

function rolesTable(): NonNullable<typeof table> {
  if (table) return table
  const toolsOf = new Map<string, string[]>()
  const rolesOf = new Map<string, string[]>()
  for (const line of ROLES) {
    const [role, tools] = line.split(': ')
    toolsOf.set(role, tools.split(' '))
    for (const t of tools.split(' ')) rolesOf.set(t, [...(rolesOf.get(t) ?? []), role])
  }
  return (table = {toolsOf, rolesOf})
}

/** tool → the roles it fills */
const rolesOf = (): Map<string, string[]> => rolesTable().rolesOf

/**
 * Whether `word` is the name of a role `tool` fills ("database" for postgres, "linter" for eslint):
 * such a word names the tool's kind, not another thing beside it.
 */
export function namesRoleOf(word: string, tool: string): boolean {
  const w = word.toLowerCase()
  return (rolesOf().get(toolKey(tool)) ?? []).some((role) => role === w || role.endsWith(`-${w}`))
}

/** A word as tools are matched: lowercased, without dots, dashes, underscores or slashes. */
export const toolKey = (word: string): string => word.toLowerCase().replace(/[._/-]/g, '')

/**
 * The tools a text names (its words, and each two consecutive words joined), by role, each with the
 * words as written. Read once per sequence (a fact shape's, which the rule, its guards and the band
 * keys all ask about): callers must not modify what they get.
 */
export const toolsIn: (sequence: readonly string[]) => ReadonlyMap<string, ReadonlyMap<string, string>> = oncePer(readTools)

function readTools(sequence: readonly string[]): Map<string, Map<string, string>> {
  const roles = rolesOf()
  const out = new Map<string, Map<string, string>>()
  const add = (key: string, shown: string) => {
    for (const role of roles.get(key) ?? []) {
      let tools = out.get(role)
      if (!tools) out.set(role, (tools = new Map()))
      if (!tools.has(key)) tools.set(key, shown)
    }
  }
  for (let i = 0; i < sequence.length; i++) {
    const key = toolKey(sequence[i])
    if (!WORD_NAMES.has(key) || (i > 0 && /^[A-Z][a-z]/.test(sequence[i]))) add(key, sequence[i])
    // a package path names its package last ("log/slog", "github.com/sirupsen/logrus"); a file's path
    // of more folders ("build/release/test/unittest") names a file
    const parts = sequence[i].split('/')
    if (parts.length > 1 && parts.every((p) => p.length > 0) && (parts.length === 2 || parts[0].includes('.'))) add(toolKey(parts[parts.length - 1]), sequence[i])
    if (i + 1 < sequence.length) add(toolKey(sequence[i] + sequence[i + 1]), `${sequence[i]} ${sequence[i + 1]}`)
  }
  return byCues(out, sequence)
}

/**
 * The words that say which role a tool of several roles has in a text ("The linter is Biome" lints;
 * "Format the code with Biome" formats): such a tool is read only in the roles whose word the text
 * holds, when it holds one. Keyed by role; a word matches at its start (lint, linter, linting).
 */
const ROLE_CUES: Readonly<Record<string, readonly string[]>> = {
  'js-linter': ['lint'],
  'js-formatter': ['format'],
  'python-linter': ['lint'],
  'python-formatter': ['format'],
  'log-backend': ['log'],
  'metrics-backend': ['metric'],
  tracing: ['trac', 'span'],
}

/** A tool of several roles keeps the roles its text names by their words (ROLE_CUES), when it names any. */
function byCues(out: Map<string, Map<string, string>>, sequence: readonly string[]): Map<string, Map<string, string>> {
  const words = sequence.map((w) => w.toLowerCase())
  const cued = (role: string) => (ROLE_CUES[role] ?? []).some((cue) => words.some((w) => w.startsWith(cue)))
  const rolesOfTool = new Map<string, string[]>()
  for (const [role, tools] of out) for (const key of tools.keys()) rolesOfTool.set(key, [...(rolesOfTool.get(key) ?? []), role])
  for (const [key, roles] of rolesOfTool) {
    if (roles.length < 2 || !roles.some(cued)) continue
    for (const role of roles) {
      if (cued(role)) continue
      out.get(role)!.delete(key)
      if (out.get(role)!.size === 0) out.delete(role)
    }
  }
  return out
}

/**
 * Words of what a role does (matched at a word's start, as ROLE_CUES): two texts that each hold one
 * are about the role itself, even in other words — "Background jobs run on Celery" / "Async work is
 * queued with Dramatiq", "Validation of request bodies is done with Joi" / "Schemas for incoming
 * payloads are written in zod" — so naming another tool of it is the rule changed (the same-role
 * rule's noSharedSubject guard reads them beside the thesaurus). Written from the trade's vocabulary
 * for the roles whose tools are named in other words than the role's; a role without them is read as
 * before (its texts must share a word of their subject).
 */
const ROLE_WORDS: Readonly<Record<string, readonly string[]>> = {
  'node-job-queue': ['job', 'queue', 'queuing', 'worker', 'background', 'async'],
  'job-runner': ['job', 'queue', 'queuing', 'worker', 'background', 'async'],
  'message-broker': ['message', 'event', 'stream', 'queue', 'topic'],
  'js-validation': ['validat', 'schema'],
  'js-orm': ['orm', 'database', 'persist', 'quer'],
  'python-orm': ['orm', 'database', 'persist', 'quer'],
  'go-orm': ['orm', 'database', 'persist', 'quer'],
  'dotnet-orm': ['orm', 'database', 'persist', 'quer'],
  'state-management': ['state'],
  'js-dates': ['date', 'time'],
  'error-tracking': ['error', 'exception', 'crash'],
  'js-http-client': ['http', 'request'],
  'python-http-client': ['http', 'request'],
  'node-logger': ['log'],
  'python-logger': ['log'],
  'js-unit-tests': ['test', 'spec'],
  'python-tests': ['test'],
  'browser-tests': ['e2e', 'end-to-end', 'browser'],
  'email-delivery': ['email', 'mail'],
  'feature-flags': ['flag', 'toggle'],
  'secrets-manager': ['secret', 'credential'],
  'search-engine': ['search'],
  'app-hosting': ['host', 'deploy', 'serve', 'served'],
  'android-di': ['inject', 'injection', 'wire', 'wires', 'graph'],
  'infrastructure-as-code': ['infra', 'resource', 'provision', 'cloud'],
  'python-package-manager': ['depend', 'requirement', 'lock', 'environment', 'install', 'packag'],
  'js-package-manager': ['depend', 'install', 'workspace', 'lock', 'packag'],
  'node-web-framework': ['server', 'http', 'handler', 'route', 'plugin', 'middleware'],
  'python-web-framework': ['server', 'http', 'handler', 'route', 'view', 'endpoint'],
  'python-type-checker': ['type', 'typing', 'static'],
  'python-linter': ['lint', 'style', 'check'],
  'go-linter': ['lint', 'style', 'check'],
  'js-linter': ['lint', 'style', 'check'],
  'ruby-linter': ['lint', 'style', 'check'],
  'ruby-tests': ['test', 'spec'],
  'jvm-tests': ['test'],
  'dotnet-tests': ['test'],
  'php-tests': ['test'],
  'jvm-build': ['build'],
  'bundler': ['bundl', 'build'],
  ci: ['ci', 'pipeline', 'workflow'],
  'on-call': ['on-call', 'oncall', 'page', 'paging', 'alert', 'incident'],
  'metrics-backend': ['metric', 'dashboard'],
  'log-backend': ['log'],
  tracing: ['trac', 'span'],
  cache: ['cache', 'caching'],
  'object-storage': ['upload', 'bucket', 'file', 'blob', 'storage'],
  payments: ['payment', 'billing', 'checkout', 'charge', 'subscription'],
  'auth-provider': ['auth', 'login', 'sign', 'identity', 'sso'],
  analytics: ['analytic', 'tracking', 'event'],
  // not "doc" alone: Docker is no docs site
  'docs-site': ['docs', 'documentation'],
  'markdown-renderer': ['markdown'],
  'pdf-generation': ['pdf'],
  'image-processing': ['image', 'thumbnail', 'resiz', 'crop'],
  charting: ['chart', 'graph', 'plot', 'visuali'],
  diagrams: ['diagram'],
  'rich-text-editor': ['editor', 'rich-text', 'wysiwyg'],
  'web-maps': ['map', 'tile'],
  'db-migrations': ['migrat', 'changelog'],
  'git-hooks': ['hook', 'pre-commit', 'pre-push'],
  'http-mocking': ['mock', 'intercept', 'stub'],
  'rust-errors': ['error'],
  'go-logger': ['log'],
  'android-image-loading': ['image'],
  'dotnet-json': ['json', 'serializ'],
  'rn-navigation': ['navigat', 'rout', 'screen'],
  'api-gateway': ['proxy', 'tls', 'ingress', 'gateway', 'rout'],
  'go-web-framework': ['rout', 'handler', 'http', 'server', 'middleware'],
}

/**
 * The roles a word names by what they do (ROLE_WORDS: "install" and "dependencies" name the package
 * managers, "hosted" the app hosts), each with its tools (as toolsIn keys): recall reads a question's
 * words through it, so that "how do I install dependencies" finds "Use pnpm, never npm". A word of
 * the trade that a question uses far more often for something else (NOT_IN_QUESTIONS) names no role.
 */
export function rolesNamedBy(word: string): ReadonlyArray<{role: string; tools: readonly string[]}> {
  const w = word.toLowerCase()
  return questionCues().filter(({cues}) => cues.some((cue) => w.startsWith(cue)))
}

let byQuestionCue: Array<{role: string; cues: readonly string[]; tools: readonly string[]}> | undefined

/** Each role with the words of it a question may name it by (NOT_IN_QUESTIONS left out), and its tools bar those named like words (WORD_NAMES). */
function questionCues(): NonNullable<typeof byQuestionCue> {
  byQuestionCue ??= Object.entries(ROLE_WORDS)
    .map(([role, cues]) => ({role, cues: cues.filter((cue) => !NOT_IN_QUESTIONS.has(cue)), tools: toolsAskedFor(role)}))
    .filter(({cues}) => cues.length > 0)
  return byQuestionCue
}

/**
 * Role words that a question about a project uses mostly for something else: a page of the app
 * (not paging on-call), a file, a type, a view, a route, the state of a thing, an event, a request,
 * a server, a check, a build, a job of CI, async code, a lock file, a date shown. Two texts that both
 * hold one are still read as about the role (roleWordsInBoth); a question holding one is not widened.
 */
const NOT_IN_QUESTIONS = new Set([
  'page', 'paging', 'file', 'type', 'typing', 'static', 'view', 'route', 'handler', 'plugin', 'middleware', 'endpoint', 'server', 'serve', 'served',
  'http', 'request', 'state', 'event', 'message', 'stream', 'topic', 'sign', 'identity', 'check', 'style', 'build', 'job', 'worker', 'async',
  'lock', 'environment', 'workspace', 'resource', 'graph', 'wire', 'wires', 'inject', 'injection', 'date', 'time', 'quer', 'persist', 'schema',
  'storage', 'charge', 'tracking', 'spec', 'flag', 'search', 'error', 'exception', 'alert', 'map', 'tile', 'editor', 'stub',
  'hook', 'plot', 'image', 'rout', 'proxy', 'gateway', 'changelog', 'packag', 'screen',
])

/**
 * Two-word names of a role that a question uses for it, though one of its words alone names no role
 * in a question (NOT_IN_QUESTIONS, or no cue at all): "which package manager do we use" asks about
 * the package managers, where "package" alone does not. The second word may be plural. Written from
 * the trade's vocabulary, not from any set's questions.
 */
const ROLE_PHRASES: Readonly<Record<string, readonly string[]>> = {
  'package manager': ['js-package-manager', 'python-package-manager'],
  'type checker': ['python-type-checker'],
  'error tracker': ['error-tracking'],
  'error tracking': ['error-tracking'],
  'error reporting': ['error-tracking'],
  'crash reporting': ['error-tracking'],
  'feature flag': ['feature-flags'],
  'search engine': ['search-engine'],
  'state management': ['state-management'],
  'state manager': ['state-management'],
  'http client': ['js-http-client', 'python-http-client'],
  'http library': ['js-http-client', 'python-http-client'],
  'web framework': ['node-web-framework', 'python-web-framework', 'go-web-framework'],
  'message broker': ['message-broker'],
  'message queue': ['message-broker'],
  'event bus': ['message-broker'],
  'object storage': ['object-storage'],
  'file storage': ['object-storage'],
  'image processing': ['image-processing'],
  'reverse proxy': ['api-gateway'],
  'api gateway': ['api-gateway'],
}

/**
 * The roles two consecutive words of a question name together (ROLE_PHRASES: "package manager"),
 * each with its tools bar those named like words (WORD_NAMES); none when they name none.
 */
export function rolesNamedByPhrase(word: string, next: string | undefined): ReadonlyArray<{role: string; tools: readonly string[]}> {
  if (!next) return []
  const second = next.toLowerCase()
  const roles = ROLE_PHRASES[`${word.toLowerCase()} ${second}`] ?? (second.endsWith('s') ? ROLE_PHRASES[`${word.toLowerCase()} ${second.slice(0, -1)}`] : undefined)
  return (roles ?? []).map((role) => ({role, tools: toolsAskedFor(role)}))
}

/** The tools a question naming `role` stands for: its tools bar those named like words (WORD_NAMES). */
function toolsAskedFor(role: string): readonly string[] {
  return (rolesTable().toolsOf.get(role) ?? []).filter((t) => !WORD_NAMES.has(t))
}

/** Whether both texts hold a word of what the role does (ROLE_WORDS). */
export function roleWordsInBoth(role: string, a: readonly string[], b: readonly string[]): boolean {
  const cues = ROLE_WORDS[role]
  if (!cues) return false
  const holds = (sequence: readonly string[]) => sequence.some((w) => cues.some((cue) => w.toLowerCase().startsWith(cue)))
  return holds(a) && holds(b)
}

/** Every tool key a text names, whatever its role. */
export function toolKeysIn(tools: ReadonlyMap<string, ReadonlyMap<string, string>>): Set<string> {
  return new Set([...tools.values()].flatMap((t) => [...t.keys()]))
}

/**
 * Scopes a fact can be about, by dimension: each entry lists classes (`|` between them) of words
 * naming one scope. Two texts that each name a scope of one dimension, and not the same class, are
 * about two scopes ("The frontend is deployed to Vercel" / "The backend is deployed to Fly.io"):
 * the same-role rule's otherScope guard. "go" is left out (a verb far more often than Go), and so is
 * "app" (any project calls itself the app: "State management in the app uses Redux" / "Global client
 * state lives in Zustand stores" is one rule changed, not the app beside the client).
 */
export const SCOPES: readonly string[] = [
  'frontend front-end client browser web ui spa | backend back-end server api',
  'production prod live | staging preprod pre-production | development dev local locally | ci',
  'ios iphone ipad | android | desktop electron macos windows linux',
  'unit | integration | e2e end-to-end | smoke | load',
  'python py | javascript js typescript ts node nodejs | golang | rust | ruby rails | java kotlin | php | elixir | swift | dotnet csharp | sql | css scss sass | html | shell bash | terraform hcl',
  'marketing landing | docs documentation | admin | blog | storefront shop',
  'mobile | web',
  'logs log logging | metrics metric | traces trace tracing | errors error exceptions exception',
  'within inside | across between',
]

let scopeIndex: Map<string, Array<{dimension: number; scope: number}>> | undefined

function scopesOf(): Map<string, Array<{dimension: number; scope: number}>> {
  if (scopeIndex) return scopeIndex
  const map = new Map<string, Array<{dimension: number; scope: number}>>()
  SCOPES.forEach((line, dimension) =>
    line.split('|').forEach((words, scope) => {
      for (const w of words.trim().split(/\s+/)) map.set(toolKey(w), [...(map.get(toolKey(w)) ?? []), {dimension, scope}])
    }),
  )
  return (scopeIndex = map)
}

/** The scopes a text names: dimension → the scope classes named (usually one). Read once per sequence, as toolsIn. */
export const scopesIn: (sequence: readonly string[]) => ReadonlyMap<number, ReadonlySet<number>> = oncePer(readScopes)

function readScopes(sequence: readonly string[]): Map<number, Set<number>> {
  const index = scopesOf()
  const out = new Map<number, Set<number>>()
  const add = (key: string) => {
    for (const {dimension, scope} of index.get(key) ?? []) {
      let s = out.get(dimension)
      if (!s) out.set(dimension, (s = new Set()))
      s.add(scope)
    }
  }
  for (let i = 0; i < sequence.length; i++) {
    add(toolKey(sequence[i]))
    // the parts of a hyphenated word that is no scope itself: "`just test-integration`" names integration
    if (sequence[i].includes('-') && !index.has(toolKey(sequence[i]))) for (const part of sequence[i].split('-')) if (part.length > 1) add(toolKey(part))
    if (i + 1 < sequence.length && sequence[i].includes('-') === false) add(toolKey(sequence[i] + '-' + sequence[i + 1]))
  }
  return out
}
