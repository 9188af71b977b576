import {join} from 'node:path'
import {InFlight} from './in-flight.js'
import type {IncomingMessage, ServerResponse} from 'node:http'
import type {Socket} from 'node:net'
import type {FastifyInstance, FastifyRequest} from 'fastify'
import {KeyRing} from '../../config/api-keys.js'
import {readUserConfig} from '../../config/user-config.js'
import {MemError, systemReason} from '../../model/errors.js'
import type {MemRuntime} from '../../runtime/open-mem.js'
import type {RepoStore} from '../../storage/repo-store.js'
import {MEANING_DRAIN_MS, meaningInBackground} from '../../runtime/meaning-drain.js'
import {buildServer} from './build-server.js'
import {isLoopback, type TeamAuth} from './guard.js'
import {UpdateChecker} from './update-check.js'
import {MaintenanceRuns} from './maintenance-runs.js'
import {Scheduler} from './scheduler.js'
import {packageInfo} from './version.js'

export const DEFAULT_HOST = '127.0.0.1'
export const DEFAULT_PORT = 7373
const IDLE_CHECKPOINT_MS = 30_000

export interface StartServerOptions {
  runtime: MemRuntime
  host?: string
  port?: number
  /** Repos to open (and register) before the first request. */
  preload?: string[]
  /** The repository MCP tools on /mcp use when a call names none (see buildServer). */
  mcpRepo?: string
  /** The repository the service was started in (the web UI opens on it; see buildServer). */
  currentRepo?: string
  /**
   * The update check. By default it follows the user config (`update.check`, `update.registry`);
   * `false` turns it off whatever the config says.
   */
  updateCheck?: false | {registry?: string; enabled?: boolean; intervalMs?: number}
  /** How long a store must see no change before its journal is folded into the snapshot. */
  idleCheckpointMs?: number
  /** How often memories written since are given their meaning vectors (engines/meaning/pending.ts). */
  meaningDrainMs?: number
  onInternalError?: (err: unknown, req: FastifyRequest) => void
  /** Problems in background work (an idle checkpoint that failed): reported, never thrown. */
  onBackgroundError?: (err: unknown) => void
  /**
   * Maintenance: the synchronous window of POST /api/maintenance (30 s) and the scheduler
   * (every 24 h per registered repo; `schedule: false` turns it off).
   */
  maintenance?: {windowMs?: number; schedule?: boolean; intervalMs?: number; firstRunDelayMs?: number; tickMs?: number}
  /**
   * Team mode (`mem serve --store`, docs/team.md): the runtime is a team runtime, every request
   * needs a team key (auth is always on, so any host may be bound); maintenance runs and the
   * scheduler are the team store's when `team.maintenance` makes them.
   */
  team?: TeamAuth
}

export interface RunningServer {
  app: FastifyInstance
  /** e.g. http://127.0.0.1:7373 */
  url: string
  host: string
  port: number
  authEnabled: boolean
  /** Operations running now (a route's, an MCP tool's), whether or not their client is still there. */
  running(): number
  /** Stops accepting requests, lets those in flight finish (their operations too, a client gone or not), and checkpoints every open store. */
  close(): Promise<void>
}

/**
 * `mem serve`: one process serving every repo it is asked about. It refuses to listen beyond
 * loopback while auth is off, checkpoints stores that have been idle, and on close checkpoints
 * every store with journal records. The runtime stays open: its owner closes it.
 */
export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const {runtime} = options
  const host = options.host ?? DEFAULT_HOST
  const port = options.port ?? DEFAULT_PORT
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new MemError('invalid_input', `Invalid port ${port}: use 0 to 65535 (0 picks a free port).`)
  }
  const keys = options.team ? undefined : await KeyRing.open(runtime.home)
  const loopbackOnly = isLoopback(host)
  if (keys && !loopbackOnly && !keys.enabled) {
    throw new MemError('invalid_input', `Refusing to listen on ${host} while API key auth is off: anyone on the network could read and change memories.`, {
      hint: 'Create a key first (`mem keys create NAME --scope write`), or serve on 127.0.0.1.',
    })
  }

  const info = packageInfo()
  const config = await readUserConfig(runtime.home)
  const update = options.updateCheck === false ? {enabled: false} : (options.updateCheck ?? {})
  const updates = new UpdateChecker({
    home: runtime.home,
    packageName: info.name,
    currentVersion: info.version,
    registry: update.registry ?? config.update.registry,
    enabled: update.enabled ?? config.update.check,
    intervalMs: 'intervalMs' in update ? update.intervalMs : undefined,
  })

  const maintenanceOptions = options.maintenance ?? {}
  // team mode: runs and tasks in the team store, shared by every replica (team-maintenance.ts)
  const shared = options.team?.maintenance?.({...maintenanceOptions, external: [() => updates.task()], onError: options.onBackgroundError})
  const runs = shared?.runs ?? new MaintenanceRuns({ctx: runtime, windowMs: maintenanceOptions.windowMs})
  const scheduler =
    shared?.scheduler ??
    new Scheduler({
      ctx: runtime,
      runs: runs as MaintenanceRuns,
      intervalMs: maintenanceOptions.intervalMs,
      firstRunDelayMs: maintenanceOptions.firstRunDelayMs,
      tickMs: maintenanceOptions.tickMs,
      statePath: join(runtime.home, 'scheduler.json'),
      external: [() => updates.task()],
      onError: options.onBackgroundError,
    })

  // every operation a request runs: stopping waits for them (a client that has gone leaves its request's work running)
  const inFlight = new InFlight()
  const app = buildServer({
    inFlight,
    maintenance: runs,
    scheduler,
    ctx: runtime,
    keys,
    requireAuth: !loopbackOnly,
    loopbackOnly,
    version: info.version,
    updates: () => updates.status(),
    mcpRepo: options.mcpRepo,
    mcpTools: config.mcp.tools,
    currentRepo: options.currentRepo,
    onInternalError: options.onInternalError,
    privatePaths: [{path: runtime.home, label: '$MEM_HOME'}],
    team: options.team,
  })

  for (const ref of options.preload ?? []) await runtime.repo(ref, 'read')

  try {
    await app.listen({host, port})
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'EADDRINUSE') {
      throw new MemError('unavailable', `Port ${port} on ${host} is in use (is mem serve already running?).`, {hint: 'Stop the other process, or pick another port with --port.'})
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new MemError('unavailable', `Cannot listen on ${host}:${port}: ${systemReason(err)}.`, {hint: 'Pick another --host or --port.'})
    }
    throw err
  }
  const bound = app.server.address()
  const actualPort = bound && typeof bound === 'object' ? bound.port : port
  const urlHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
  updates.start()
  if (maintenanceOptions.schedule !== false && (!options.team || shared)) scheduler.start()

  const connections = trackConnections(app)
  const idle = idleCheckpointer(runtime, options.idleCheckpointMs ?? IDLE_CHECKPOINT_MS, options.onBackgroundError ?? (() => undefined))
  const vectors = meaningInBackground(runtime, options.meaningDrainMs ?? MEANING_DRAIN_MS, options.onBackgroundError ?? (() => undefined))

  let closing: Promise<void> | undefined
  return {
    app,
    url: `http://${urlHost}:${actualPort}`,
    host,
    port: actualPort,
    authEnabled: keys ? keys.enabled : true,
    running: () => inFlight.size,
    close: () =>
      (closing ??= (async () => {
        idle.stop()
        vectors.stop()
        updates.stop()
        // a running pass stops between two journaled chunks; nothing half-written remains
        const maintenanceStopped = Promise.all([scheduler.stop(), runs.close()])
        const closed = app.close()
        connections.closing()
        await closed
        await inFlight.settled()
        await idle.drain()
        await vectors.drain()
        await maintenanceStopped
        await checkpointAll(await runtime.openStores())
      })()),
  }
}

/**
 * Node's server.close() waits for every connection to end, and counts a connection that has not
 * sent a request yet (a client's spare keep-alive socket) as busy until its header timeout. While
 * closing, such connections are ended at once, and others as soon as their last request is answered.
 */
function trackConnections(app: FastifyInstance) {
  const inFlight = new Map<Socket, number>()
  let closing = false
  app.server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0)
    socket.once('close', () => inFlight.delete(socket))
  })
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1)
    res.once('close', () => {
      const left = (inFlight.get(socket) ?? 1) - 1
      inFlight.set(socket, left)
      if (closing && left === 0) socket.destroySoon()
    })
  })
  return {
    closing() {
      closing = true
      for (const [socket, count] of inFlight) if (count === 0) socket.destroy()
    },
  }
}

/** Folds each store's journal into its snapshot if it has records (another process's included). */
export async function checkpointAll(stores: RepoStore[]): Promise<void> {
  const errors: unknown[] = []
  for (const store of stores) {
    try {
      await store.flush()
      store.read(() => undefined) // catch up with other processes' records first
      if (store.pendingJournalBytes > 0) await store.checkpoint()
    } catch (err) {
      errors.push(err) // the journal still holds everything; the next open replays it
    }
  }
  if (errors.length > 0) throw errors[0]
}

/**
 * Every few seconds, looks at the open stores: one whose data has not changed for `idleMs` and
 * that has journal records gets a checkpoint, so a restart loads a snapshot instead of replaying.
 */
function idleCheckpointer(runtime: MemRuntime, idleMs: number, report: (err: unknown) => void) {
  const seen = new Map<RepoStore, {version: number; since: number}>()
  let running: Promise<void> | undefined
  const tick = async () => {
    const open = await runtime.openStores()
    // a store closed meanwhile (a team replica evicts idle repos) is forgotten, not kept alive here
    const current = new Set(open)
    for (const store of seen.keys()) if (!current.has(store)) seen.delete(store)
    for (const store of open) {
      if (store.pendingJournalBytes === 0) {
        seen.delete(store)
        continue
      }
      const last = seen.get(store)
      const now = Date.now()
      if (!last || last.version !== store.version) {
        seen.set(store, {version: store.version, since: now})
      } else if (now - last.since >= idleMs) {
        seen.delete(store)
        await store.checkpoint().catch(report)
      }
    }
  }
  const timer = setInterval(
    () => {
      running ??= tick()
        .catch(report)
        .finally(() => {
          running = undefined
        })
    },
    Math.max(10, Math.min(5_000, Math.floor(idleMs / 3))),
  )
  timer.unref()
  return {
    stop: () => clearInterval(timer),
    drain: async () => {
      await running
    },
  }
}
