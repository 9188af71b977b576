import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'
import {storeFlag, withTeamStore} from '../../team.js'

export default class TeamCreate extends MemCommand {
  static summary = 'Create a team in a team store (Postgres): its keys and repos belong to it.'
  static description = `The store is a Postgres database; mem makes its tables on first use (and upgrades them, one replica at a time, under a lock). The URL comes from --store, else MEM_STORE, else \`store:\` in the user config; a password in it is never printed (PGPASSWORD or ~/.pgpass keep it out of the URL). Then create keys for the team: mem keys create NAME --team TEAM --scope read|write|admin. See docs/team.md.`
  static examples = [
    `<%= config.bin %> team create platform --store postgres://mem@db.internal:5432/mem`,
    `MEM_STORE=postgres://mem@127.0.0.1:5432/mem <%= config.bin %> team create platform --json`,
  ]
  static args = {name: Args.string({required: true, description: 'The team name (letters, digits, . _ -; up to 64).'})}
  static flags = {store: storeFlag}

  async run() {
    const {args, flags} = await this.parse(TeamCreate)
    const {createTeam} = await import('../../../../operations/team.js')
    const created = await withTeamStore(await this.home(), flags.store, (db) => createTeam(db, {name: args.name}, {now: new Date(), actor: 'cli'}))
    this.log(`Team ${created.team} created in ${created.store}.`)
    this.log(`Next: mem keys create NAME --team ${created.team} --scope write --store URL`)
    return created
  }
}
