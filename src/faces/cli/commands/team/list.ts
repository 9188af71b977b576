import {MemCommand} from '../../mem-command.js'
import {storeFlag, withTeamStore} from '../../team.js'

export default class TeamList extends MemCommand {
  static summary = 'List the teams of a team store (Postgres).'
  static examples = [`<%= config.bin %> team list --store postgres://mem@db.internal:5432/mem`, `<%= config.bin %> team list --json`]
  static flags = {store: storeFlag}

  async run() {
    const {flags} = await this.parse(TeamList)
    const {listTeams} = await import('../../../../operations/team.js')
    const listing = await withTeamStore(await this.home(), flags.store, (db) => listTeams(db))
    if (listing.teams.length === 0) this.log(`No teams in ${listing.store}. Create one with \`mem team create NAME --store URL\`.`)
    for (const t of listing.teams) this.log(`${t.team.padEnd(24)} ${t.created.slice(0, 19).replace('T', ' ')}`)
    return listing
  }
}
