export interface RemoteRouteOptions {
  env: Record<string, string | undefined>
  home: string
  /** Where a call that names no repository (a memory id) finds its checkout. */
  cwd: string
  /** How long a request may take before the server counts as unreachable (default 15 s; hooks give less). */
  timeoutMs?: number
  /** Told what the route did that the person should know (queued writes, a replayed outbox). */
  onNotice?: (message: string) => void
}
