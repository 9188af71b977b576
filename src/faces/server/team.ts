/**
 * Team mode's key check for a server (docs/team.md): the `Authorization: Bearer` header read as a
 * team key of the store (verifyTeamKey), and the request then run as the key's tenant.
 */
import {verifyTeamKey, type TeamStore} from '../../operations/team.js'
import type {TeamRuntime} from '../../runtime/team-store.js'
import type {TeamAuth} from './guard.js'

export function teamAuth(store: TeamStore, runtime: Pick<TeamRuntime, 'asPrincipal'>): TeamAuth {
  return {
    verify(header, need) {
      // no header: "Authentication required"; a header that is not `Bearer <token>`: an invalid key
      const token = header === undefined ? undefined : (/^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)?.[1] ?? 'malformed')
      return verifyTeamKey(store, token, {scope: need})
    },
    asPrincipal: (principal, fn) => runtime.asPrincipal(principal, fn),
  }
}
