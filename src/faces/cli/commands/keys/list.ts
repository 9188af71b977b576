import {MemCommand} from '../../mem-command.js'
import {refuseStoreWithoutTeam, storeFlag, teamFlag, withTeamStore} from '../../team.js'

export default class KeysList extends MemCommand {
  static summary = 'List the API keys, local or (with --team) of a team store: names, scopes, dates and prefixes; never the keys.'
  static examples = [
    `<%= config.bin %> keys list`,
    `<%= config.bin %> keys list --json`,
    `<%= config.bin %> keys list --team platform --store postgres://mem@db.internal:5432/mem`,
  ]
  static flags = {team: teamFlag, store: storeFlag}

  async run() {
    const {flags} = await this.parse(KeysList)
    refuseStoreWithoutTeam(flags, 'mem keys list --team TEAM --store URL')
    if (flags.team !== undefined) {
      const team = flags.team
      const {listTeamKeys} = await import('../../../../operations/team.js')
      const listing = await withTeamStore(await this.home(), flags.store, (db) => listTeamKeys(db, {team}))
      this.log(`Keys of team ${listing.team} in ${listing.store}:`)
      if (listing.keys.length === 0) this.log(`No keys. Create one with \`mem keys create NAME --team ${listing.team} --scope read|write|admin\`.`)
      for (const k of listing.keys) {
        this.log(`${k.name.padEnd(20)} ${k.scope.padEnd(6)} ${k.created.slice(0, 19).replace('T', ' ')}  ${k.prefix}…  ${k.repos ? k.repos.join(', ') : 'every repo'}`)
      }
      return listing
    }
    const {listKeys} = await import('../../../../config/api-keys.js')
    const listing = await listKeys(await this.home())
    this.log(`API key auth: ${listing.authEnabled ? 'on' : 'off'}`)
    if (listing.keys.length === 0) this.log('No keys. Create one with `mem keys create NAME --scope read|write|admin`.')
    for (const k of listing.keys) this.log(`${k.name.padEnd(20)} ${k.scope.padEnd(6)} ${k.created.slice(0, 19).replace('T', ' ')}  ${k.prefix}…`)
    return listing
  }
}
