/**
 * What the team commands share: the `--store` and `--team` flags, and opening the team store from
 * `--store`, MEM_STORE or the user config's `store:` (the URL's password never reaches a message).
 */
import {Flags} from '@oclif/core'
import {MemError} from '../../model/errors.js'
import type {TeamDb} from '../../storage/postgres/index.js'

export const storeFlag = Flags.string({
  summary: 'The team store: a Postgres URL (default: MEM_STORE, else `store:` in the user config).',
  helpValue: 'postgres://USER@HOST:5432/DB',
})

export const teamFlag = Flags.string({
  summary: 'The team (in the team store) the key belongs to. Without it, the key is a local one of this machine.',
})

/**
 * Opens the team store for one command and runs `fn` on it; closes it after. The URL comes from
 * the flag, MEM_STORE or the user config, in that order; with none, an error that says how to give one.
 */
export async function withTeamStore<T>(home: string, flag: string | undefined, fn: (db: TeamDb) => Promise<T>): Promise<T> {
  const {resolveStoreUrl} = await import('../../config/store-url.js')
  const {readUserConfig} = await import('../../config/user-config.js')
  const config = flag?.trim() || process.env.MEM_STORE?.trim() ? null : (await readUserConfig(home)).store
  const store = resolveStoreUrl({flag, env: process.env, config})
  if (!store) {
    throw new MemError('invalid_input', 'No team store given.', {
      hint: 'Pass --store postgres://USER@HOST:5432/DB, set MEM_STORE, or set `store:` in the user config (mem keys … --team T).',
    })
  }
  const {openTeamStore} = await import('../../runtime/team-store.js')
  const db = await openTeamStore(store, {max: 2, applicationName: 'mem-cli'})
  try {
    return await fn(db)
  } finally {
    await db.close()
  }
}

/** `--store` given without `--team`: the keys are local then, and the URL would be ignored. */
export function refuseStoreWithoutTeam(flags: {store?: string; team?: string}, example: string): void {
  if (flags.store !== undefined && flags.team === undefined) {
    throw new MemError('invalid_input', '--store needs --team: team keys belong to a team (without both, the keys are this machine\'s local ones).', {hint: example})
  }
}
