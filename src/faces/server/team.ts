/**
 * Team mode's key check for a server (docs/team.md): the `Authorization: Bearer` header read as a
 * team key of the store (verifyTeamKey), and the request then run as the key's tenant; and the
 * maintenance runs and scheduler a team replica shares with the others (team-maintenance.ts).
 */
import {verifyTeamKey, type TeamStore} from '../../operations/team.js'
import type {TeamRuntime} from '../../runtime/team-store.js'
import type {TeamAuth} from './guard.js'
import {TeamMaintenanceRuns, TeamScheduler} from './team-maintenance.js'

export function teamAuth(store: TeamStore, runtime: TeamRuntime): TeamAuth {
  return {
    verify(header, need) {
      // no header: "Authentication required"; a header that is not `Bearer <token>`: an invalid key
      const token = header === undefined ? undefined : (/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? 'malformed')
      return verifyTeamKey(store, token, {scope: need})
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
