import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'
import {refuseStoreWithoutTeam, storeFlag, teamFlag, withTeamStore} from '../../team.js'

export default class KeysCreate extends MemCommand {
  static summary = 'Create an API key for `mem serve`, or with --team for a team store (printed once; only its hash is kept).'
  static description = `Scopes nest: read (every GET) ⊂ write (also POST, PUT, DELETE) ⊂ admin (also maintenance). Clients send the key as \`Authorization: Bearer <key>\`.

Local keys (no --team) live in the user config: creating the first one turns API key auth on for \`mem serve\`, and a running server picks a new key up without a restart.

Team keys (--team) live in the team store (Postgres; --store, MEM_STORE or \`store:\` in the user config), stored as their sha-256. A team key reaches every repo of its team, or only those --repos lists (ids such as github.com/org/app). See docs/team.md.`
  static examples = [
    `<%= config.bin %> keys create claude --scope write`,
    `<%= config.bin %> keys create dashboard --scope read --json`,
    `<%= config.bin %> keys create ci --team platform --scope write --store postgres://mem@db.internal:5432/mem`,
    `<%= config.bin %> keys create reviewer --team platform --scope read --repos github.com/org/app,github.com/org/lib`,
  ]
  static args = {name: Args.string({required: true, description: 'A name to tell the key by (letters, digits, . _ -).'})}
  static flags = {
    scope: Flags.option({options: ['read', 'write', 'admin'] as const, required: true, summary: 'What the key may do.'})(),
    team: teamFlag,
    repos: Flags.string({summary: 'With --team: the repo ids the key may reach, separated by commas (default: every repo of the team).', dependsOn: ['team']}),
    store: storeFlag,
  }

  async run() {
    const {args, flags} = await this.parse(KeysCreate)
    refuseStoreWithoutTeam(flags, `mem keys create ${args.name} --team TEAM --scope ${flags.scope} --store URL`)
    if (flags.team !== undefined) {
      const team = flags.team
      const {createTeamKey} = await import('../../../../operations/team.js')
      const created = await withTeamStore(await this.home(), flags.store, (db) =>
        createTeamKey(db, {name: args.name, team, scope: flags.scope, repos: flags.repos}, {now: new Date(), actor: 'cli'}),
      )
      this.log(created.key)
      this.log(`\nKey ${created.name} (${created.scope}, ${created.repos ? `repos ${created.repos.join(', ')}` : 'every repo'}) created for team ${created.team} in ${created.store}.`)
      this.log('It is shown only this once: store it now.')
      return created
    }
    const {createKey} = await import('../../../../config/api-keys.js')
    const created = await createKey(await this.home(), {name: args.name, scope: flags.scope, now: new Date()})
    this.log(created.key)
    this.log(`\nKey ${created.name} (${created.scope}) created. It is shown only this once: store it now.`)
    if (created.turnedAuthOn) this.log('API key auth is now on: mem serve requires a key for everything but health and status.')
    else if (!created.authEnabled) this.log('Note: auth.enabled is false in the user config, so mem serve does not check keys yet.')
    return created
  }
}
