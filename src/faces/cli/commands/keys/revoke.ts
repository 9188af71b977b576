import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'
import {refuseStoreWithoutTeam, storeFlag, teamFlag, withTeamStore} from '../../team.js'

export default class KeysRevoke extends MemCommand {
  static summary = 'Revoke an API key by name, local or (with --team) of a team store; a running server refuses it at once.'
  static description =
    'Local keys: auth stays on even when no key is left: create a new key, or turn auth off with `mem keys auth off`. Team keys: the key is marked revoked in the team store (the audit table keeps who revoked it and when), and its name may be used again.'
  static examples = [
    `<%= config.bin %> keys revoke claude`,
    `<%= config.bin %> keys revoke dashboard --json`,
    `<%= config.bin %> keys revoke ci --team platform --store postgres://mem@db.internal:5432/mem`,
  ]
  static args = {name: Args.string({required: true, description: 'The key name (see mem keys list).'})}
  static flags = {team: teamFlag, store: storeFlag}

  async run() {
    const {args, flags} = await this.parse(KeysRevoke)
    refuseStoreWithoutTeam(flags, `mem keys revoke ${args.name} --team TEAM --store URL`)
    if (flags.team !== undefined) {
      const team = flags.team
      const {revokeTeamKey} = await import('../../../../operations/team.js')
      const result = await withTeamStore(await this.home(), flags.store, (db) => revokeTeamKey(db, {team, name: args.name}, {now: new Date(), actor: 'cli'}))
      this.log(`Revoked ${result.revoked} of team ${result.team}.`)
      return result
    }
    const {revokeKey} = await import('../../../../config/api-keys.js')
    const result = await revokeKey(await this.home(), args.name)
    this.log(`Revoked ${result.revoked}.`)
    if (result.remaining === 0 && result.authEnabled) {
      this.log('No keys left and auth is on: mem serve refuses every request but health and status until a key is created. `mem keys auth off` turns auth off.')
    }
    return result
  }
}
