import {analyze} from './tokenize.js'

/**
 * A developer thesaurus: groups of words that name the same thing in software projects. An agent
 * asks "how do I get the database running?" of a memory that says "start postgres with docker
 * compose"; no model is needed to know those are the same thing, only the vocabulary of the trade.
 * Groups are general (not taken from any evaluation question); each word expands to the others of
 * its groups at a reduced weight. Multi-word entries match consecutive query words.
 */
const GROUPS: string[] = [
  // data stores
  'database db postgres postgresql psql mysql mariadb sqlite sql rdbms datastore',
  'table tables schema column columns row rows',
  'migration migrations migrate schema-change ddl',
  'query queries sql select',
  'cache caching redis memcached valkey',
  'queue queues job jobs worker workers bullmq sidekiq celery background',
  'index indexes indices',
  'backup backups snapshot snapshots dump restore',
  // parts of an app
  'frontend front-end web ui client browser spa react vue svelte',
  'backend back-end api server service endpoint endpoints',
  'endpoint route routes handler handlers controller',
  'component components widget widgets',
  'page pages screen screens view views',
  'css styles styling stylesheet tailwind',
  // build, test, ship
  'ci pipeline pipelines github-actions workflow workflows build-server actions',
  'build compile bundle bundler webpack vite esbuild',
  'test tests testing spec specs suite',
  'e2e end-to-end playwright cypress browser-tests',
  'unit-test unit-tests unit',
  'integration-test integration-tests integration',
  'flaky intermittent nondeterministic sporadic randomly',
  'lint linter linting eslint biome prettier format formatter',
  'deploy deploys deployment deployments release releases rollout rollouts ship shipping',
  'prod production live',
  'staging pre-production preprod stage',
  'dev development local locally localhost',
  'environment env environments',
  'container containers docker image images dockerfile',
  'kubernetes k8s cluster pod pods helm kubectl',
  'dependency dependencies package packages library libraries module modules',
  'upgrade update bump',
  'version versions release',
  'monorepo workspace workspaces',
  'install setup set-up bootstrap onboarding',
  // security and config
  'secret secrets credential credentials password passwords key keys token tokens',
  'auth authentication login sign-in signin log-in session sessions',
  'authorization permission permissions access role roles rbac acl',
  'config configuration settings setting options env-var',
  'vulnerability vulnerabilities security cve exploit',
  'encrypt encryption encrypted tls ssl https certificate certificates cert',
  // operations
  'log logs logging logger',
  'metric metrics monitoring observability dashboard dashboards grafana prometheus',
  'alert alerts alerting page paged pager on-call oncall pagerduty',
  'error errors exception exceptions failure failures crash crashes',
  'bug bugs defect issue issues',
  'incident incidents outage outages postmortem',
  'slow slowness latency performance perf',
  'memory ram oom heap',
  'timeout timeouts deadline',
  'retry retries retried backoff attempt attempts',
  'rate-limit ratelimit throttle throttling throttled 429 toomanyrequests',
  'toggle toggles flag flags feature-flag feature-flags',
  // code and review
  'review reviews approve approval approver reviewer codeowners',
  'pr prs pull-request pull-requests merge-request',
  'commit commits',
  'branch branches',
  'function functions method methods helper helpers',
  'type types typing typescript',
  'naming name names convention conventions',
  'document docs documentation readme',
  // product words
  'email emails mail mails smtp mailer',
  'notification notifications notify',
  'translation translations translate translated i18n l10n locale locales localization',
  'date dates time times timestamp timestamps timezone timezones',
  'user users customer customers account accounts',
  'tenant tenants org orgs organization organizations workspace',
  'payment payments billing invoice invoices charge stripe',
  'file files upload uploads attachment attachments',
  'image picture photo',
  'search find lookup',
  'delete remove deletion purge',
  'download downloads fetch pull pulling',
  'size bundle-size weight',
  'start run launch boot',
  'stop shutdown terminate kill',
  'fast quick speed',
  'big huge large',
]

const MULTI_WORD = /[\s]/

/** stemmed term → stemmed terms of the same group(s) */
const EXPANSIONS: Map<string, Set<string>> = (() => {
  const map = new Map<string, Set<string>>()
  for (const group of GROUPS) {
    const terms = new Set<string>()
    for (const entry of group.split(/\s+/)) {
      const words = entry.split('-')
      // a hyphenated entry stands for a phrase: index it under its joined form too
      for (const t of analyze(words.join(' '))) terms.add(t)
      if (words.length > 1) terms.add(words.join('').toLowerCase())
    }
    for (const t of terms) {
      let set = map.get(t)
      if (!set) map.set(t, (set = new Set()))
      for (const u of terms) if (u !== t) set.add(u)
    }
  }
  return map
})()

/** Synonyms of the query's terms (and of its consecutive term pairs), excluding the terms themselves. */
export function thesaurusExpansions(terms: string[]): string[] {
  const out = new Set<string>()
  const have = new Set(terms)
  const probes = [...terms]
  for (let i = 0; i + 1 < terms.length; i++) probes.push(terms[i] + terms[i + 1])
  for (const t of probes) for (const s of EXPANSIONS.get(t) ?? []) if (!have.has(s) && !MULTI_WORD.test(s)) out.add(s)
  return [...out]
}
