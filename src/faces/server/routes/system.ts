import type {FastifyInstance} from 'fastify'
import type {EnrichmentStatus} from '../../../operations/enrich.js'
import type {RouteTable} from '../route.js'
import * as S from '../../../model/shapes/system.js'
import type {UpdateStatus} from '../update-check.js'

export interface SystemInfo {
  version: string
  /** Milliseconds since the epoch when the service started. */
  startedAt: number
  now: () => number
  /** The address the service listens on, e.g. http://127.0.0.1:7373. */
  address: () => string
  updates: () => UpdateStatus
  /** Whether enrichment is on and its runtime answers (probed at most every 30 s, see below). */
  enrichment?: () => Promise<EnrichmentStatus>
}

const ENRICHMENT_OFF: EnrichmentStatus = {enabled: false, provider: 'heuristic', model: null, reachable: false}
const PROBE_EVERY_MS = 30_000

/**
 * The enrichment status for /api/status: the first call waits for the probe (bounded by the
 * runtime's 2 s health check); later calls answer from the last probe and refresh it in the
 * background once it is 30 s old, so status stays instant.
 */
function cachedProbe(probe: () => Promise<EnrichmentStatus>, now: () => number): () => Promise<EnrichmentStatus> {
  let last: {at: number; value: EnrichmentStatus} | undefined
  let running: Promise<EnrichmentStatus> | undefined
  const refresh = () =>
    (running ??= probe()
      .catch(() => ENRICHMENT_OFF)
      .then((value) => {
        last = {at: now(), value}
        return value
      })
      .finally(() => {
        running = undefined
      }))
  return async () => {
    if (!last) return refresh()
    if (now() - last.at >= PROBE_EVERY_MS) void refresh()
    return last.value
  }
}

/** Health and status (public), answered from memory: never a disk or network wait. */
export function systemRoutes(app: FastifyInstance, routes: RouteTable, info: SystemInfo): void {
  const enrichment = info.enrichment ? cachedProbe(info.enrichment, info.now) : async () => ENRICHMENT_OFF
  routes.add(app, {
    method: 'GET',
    url: '/api/health',
    operationId: 'health',
    tag: 'service',
    summary: 'Liveness, version, and the result of the last update check',
    description: '`latestVersion` comes from a cached nightly check of the package registry; null before the first check or when `update.check` is off.',
    responses: {200: {description: 'Healthy', schema: S.HealthResult}},
    handler: async () => ({status: 'ok', version: info.version, ...info.updates()}),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/status',
    operationId: 'status',
    tag: 'service',
    summary: 'Version, uptime, address, and whether the enrichment runtime answers',
    responses: {200: {description: 'Running', schema: S.StatusResult}},
    handler: async () => ({
      version: info.version,
      status: 'running',
      uptime: humanUptime(info.now() - info.startedAt),
      api: info.address(),
      enrichment: await enrichment(),
    }),
  })
}

/** Whole days, hours and minutes: "0 days, 0 hours, 5 minutes", "1 day, 2 hours, 1 minute". */
export function humanUptime(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  const d = Math.floor(minutes / 1440)
  const h = Math.floor((minutes % 1440) / 60)
  const m = minutes % 60
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  return `${unit(d, 'day')}, ${unit(h, 'hour')}, ${unit(m, 'minute')}`
}
