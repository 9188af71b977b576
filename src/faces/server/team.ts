/**
 * Team mode's key check for a server (docs/team.md): the `Authorization: Bearer` header read as a
 * team key of the store (verifyTeamKey), and the request then run as the key's tenant; and the
 * maintenance runs and scheduler a team replica shares with the others (team-maintenance.ts).
 */
import {recordKeyUse, verifyTeamKey, type TeamPrincipal, type TeamStore} from '../../operations/team.js'
import {teamRepoId, type TeamRuntime} from '../../runtime/team-store.js'
import type {TeamAuth} from './guard.js'
import {TeamMaintenanceRuns, TeamScheduler} from './team-maintenance.js'

/** A key's use is written to the audit once per this long per replica (its first request in the window). */
export const KEY_USE_AUDIT_MS = 60 * 60 * 1000

export function teamAuth(store: TeamStore, runtime: TeamRuntime, options: {onError?: (err: unknown) => void} = {}): TeamAuth {
  const audited = new Map<string, number>()
  /** `key.use` in the audit: which key, with which scope, on which replica (never the key's text). */
  const noteUse = (principal: TeamPrincipal) => {
    const at = runtime.now()
    const id = `${principal.team}\0${principal.key}`
    const last = audited.get(id)
    if (last !== undefined && at.getTime() - last < KEY_USE_AUDIT_MS) return
    if (audited.size >= 10_000) audited.clear()
    audited.set(id, at.getTime())
    recordKeyUse(store, principal, {now: at, replica: runtime.replicaName}).catch((err: unknown) => {
        audited.delete(id) // written next time instead
        options.onError?.(err)
      })
  }
  return {
    async verify(header, need, repoHint) {
      // no header: "Authentication required"; a header that is not `Bearer <token>`: an invalid key
      const token = header === undefined ? undefined : (/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? 'malformed')
      const principal = await verifyTeamKey(store, token, {scope: need, ...(headOf(repoHint) ?? {})})
      noteUse(principal)
      return principal
    },
    asPrincipal: (principal, fn) => runtime.asRequest(principal, fn),
    finished: (principal) => runtime.endRequest(principal),
    maintenance(options) {
      const runs = new TeamMaintenanceRuns({runtime, windowMs: options.windowMs, onError: options.onError})
      const scheduler = new TeamScheduler({runtime, runs, ...options})
      return {runs, scheduler}
    },
  }
}

/** The team repo id a request's `repo` names, to read its head with the key; none when it names none (the operation then says why). */
function headOf(repo: string | undefined): {headOf: string} | undefined {
  if (repo === undefined) return undefined
  try {
    return {headOf: teamRepoId(repo)}
  } catch {
    return undefined
  }
}
