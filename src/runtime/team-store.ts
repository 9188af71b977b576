/**
 * The composition root of team mode's store: the one place that opens a team store from a URL
 * (the runtime constructs, everything else is handed what it needs).
 */
import type {StoreUrl} from '../config/store-url.js'
import type {TeamDb} from '../storage/postgres/index.js'

export async function openTeamStore(store: StoreUrl, options: {max?: number; applicationName?: string} = {}): Promise<TeamDb> {
  const {openTeamDb} = await import('../storage/postgres/index.js')
  return openTeamDb({url: store.url, shown: store.shown, max: options.max, applicationName: options.applicationName})
}
