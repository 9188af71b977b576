import {mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {writeAtomic} from '../../storage/files.js'

const DAY_MS = 24 * 60 * 60 * 1000
const RETRY_MS = 60 * 60 * 1000
const VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/

export interface UpdateCheckOptions {
  /** MEM_HOME: the result is cached in `update-check.json` there. */
  home: string
  packageName: string
  currentVersion: string
  /** Registry base URL (`update.registry`), e.g. https://registry.npmjs.org. */
  registry: string
  /** `update.check`: when false nothing is fetched and `latestVersion` stays null. */
  enabled: boolean
  intervalMs?: number
  timeoutMs?: number
  now?: () => number
  fetch?: typeof fetch
}

interface Cache {
  registry: string
  checkedAt: string
  latestVersion: string
}

export interface UpdateStatus {
  latestVersion: string | null
  updateAvailable: boolean
}

/**
 * The nightly update check: a background fetch of `<registry>/<package>/latest`, cached in
 * MEM_HOME so restarts do not refetch. `status()` only reads the cache, so /api/health never waits
 * on the network; a failed check is retried an hour later and changes nothing meanwhile.
 */
export class UpdateChecker {
  private cache: Cache | undefined
  private timer: NodeJS.Timeout | undefined
  private running: Promise<boolean> | undefined
  private stopped = false
  /** For the scheduler's task list: when the next check is due, the last attempt and its error. */
  private nextAt: number | null = null
  private lastAttemptAt: string | null = null
  private lastError: string | null = null
  /** The registry answered that it has no such package (404): not published yet, an answer and not a failure. */
  private unpublished = false
  private readonly file: string
  private readonly intervalMs: number
  private readonly now: () => number

  constructor(private readonly options: UpdateCheckOptions) {
    this.file = join(options.home, 'update-check.json')
    this.intervalMs = options.intervalMs ?? DAY_MS
    this.now = options.now ?? Date.now
    this.cache = this.readCache()
  }

  status(): UpdateStatus {
    const latest = this.options.enabled ? (this.cache?.latestVersion ?? null) : null
    return {latestVersion: latest, updateAvailable: latest !== null && compareVersions(latest, this.options.currentVersion) > 0}
  }

  /** Starts the schedule: checks now if the cache is older than the interval, then every interval. */
  start(): void {
    if (!this.options.enabled || this.stopped) return
    const age = this.cache ? this.now() - Date.parse(this.cache.checkedAt) : Infinity
    this.schedule(age >= this.intervalMs || age < 0 ? 0 : this.intervalMs - age)
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
  }

  /** Fetches the latest version now; resolves true when it got one (never rejects). */
  async check(): Promise<boolean> {
    this.running ??= this.fetchLatest().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  /** The update check as a row of `GET /api/mem/scheduled-tasks`. */
  task(): {id: string; type: 'update-check'; intervalHours: number; lastRunAt: string | null; nextRunAt: string | null; status: 'idle' | 'running' | 'ok' | 'failed' | 'disabled'; lastError: string | null; result?: string} {
    const enabled = this.options.enabled
    const result = this.found()
    return {
      id: 'update-check',
      type: 'update-check',
      intervalHours: Math.round((this.intervalMs / (60 * 60 * 1000)) * 1000) / 1000,
      lastRunAt: this.lastAttemptAt ?? this.cache?.checkedAt ?? null,
      nextRunAt: enabled && !this.stopped && this.nextAt !== null ? new Date(this.nextAt).toISOString() : null,
      status: !enabled ? 'disabled' : this.running ? 'running' : this.lastError ? 'failed' : this.lastAttemptAt || this.cache ? 'ok' : 'idle',
      lastError: this.lastError,
      ...(result ? {result} : {}),
    }
  }

  /** What the last check that got an answer found, in words; undefined when none did (or the check is off). */
  private found(): string | undefined {
    if (!this.options.enabled) return undefined
    if (this.unpublished) return `not published yet: the registry has no ${this.options.packageName}`
    const {latestVersion, updateAvailable} = this.status()
    if (latestVersion === null) return undefined
    return updateAvailable ? `version ${latestVersion} available` : `no newer version (latest ${latestVersion})`
  }

  private schedule(delay: number): void {
    if (this.stopped) return
    this.nextAt = this.now() + delay
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      void this.check().then((ok) => this.schedule(ok ? this.intervalMs : RETRY_MS))
    }, delay)
    this.timer.unref()
  }

  private async fetchLatest(): Promise<boolean> {
    const {registry, packageName} = this.options
    const url = `${registry.replace(/(?<!\/)\/+$/, '')}/${packageName.replace('/', '%2F')}/latest`
    this.lastAttemptAt = new Date(this.now()).toISOString()
    try {
      const res = await (this.options.fetch ?? fetch)(url, {
        headers: {accept: 'application/json'},
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      })
      // no such package on the registry: nothing to update to, which is an answer (nothing cached)
      if (res.status === 404) {
        this.unpublished = true
        this.lastError = null
        return true
      }
      if (!res.ok) throw new Error(`${res.status}`)
      const body = (await res.json()) as {version?: unknown}
      if (typeof body.version !== 'string' || !VERSION.test(body.version)) throw new Error('no version')
      this.cache = {registry, checkedAt: new Date(this.now()).toISOString(), latestVersion: body.version}
      this.unpublished = false
      try {
        mkdirSync(this.options.home, {recursive: true})
        writeAtomic(this.file, Buffer.from(`${JSON.stringify(this.cache, null, 2)}\n`))
      } catch {
        // a read-only home keeps the result in memory only
      }
      this.lastError = null
      return true
    } catch (err) {
      this.lastError = `update check failed: ${(err as Error)?.message ?? err}`
      return false
    }
  }

  private readCache(): Cache | undefined {
    try {
      const cache = JSON.parse(readFileSync(this.file, 'utf8')) as Partial<Cache>
      const registry = this.options.registry.replace(/(?<!\/)\/+$/, '')
      if (cache.registry?.replace(/(?<!\/)\/+$/, '') !== registry) return undefined // another registry's answer
      if (typeof cache.latestVersion !== 'string' || !VERSION.test(cache.latestVersion)) return undefined
      if (typeof cache.checkedAt !== 'string' || Number.isNaN(Date.parse(cache.checkedAt))) return undefined
      return cache as Cache
    } catch {
      return undefined
    }
  }
}

/** Semantic-version order: numeric major.minor.patch; a pre-release sorts before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split('+')[0].split(/-(.*)/s)
    return {nums: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre ?? null}
  }
  const x = parse(a)
  const y = parse(b)
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0)
    if (d !== 0) return Math.sign(d)
  }
  if (x.pre === y.pre) return 0
  if (x.pre === null) return 1
  if (y.pre === null) return -1
  const xs = x.pre.split('.')
  const ys = y.pre.split('.')
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    if (xs[i] === undefined) return -1
    if (ys[i] === undefined) return 1
    const xn = /^\d+$/.test(xs[i])
    const yn = /^\d+$/.test(ys[i])
    if (xn && yn) {
      const d = Number(xs[i]) - Number(ys[i])
      if (d !== 0) return Math.sign(d)
    } else if (xn !== yn) {
      return xn ? -1 : 1
    } else if (xs[i] !== ys[i]) {
      return xs[i] < ys[i] ? -1 : 1
    }
  }
  return 0
}
