import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class KeysCreate extends MemCommand {
  static summary = 'Create an API key for `mem serve` (printed once; only its hash is kept).'
  static description = `Scopes nest: read (every GET) ⊂ write (also POST, PUT, DELETE) ⊂ admin (also maintenance). Creating the first key turns API key auth on for \`mem serve\`; clients send it as \`Authorization: Bearer <key>\`. A running server picks the new key up without a restart.`
  static examples = [
    `<%= config.bin %> keys create claude --scope write`,
    `<%= config.bin %> keys create dashboard --scope read --json`,
  ]
  static args = {name: Args.string({required: true, description: 'A name to tell the key by (letters, digits, . _ -).'})}
  static flags = {
    scope: Flags.option({options: ['read', 'write', 'admin'] as const, required: true, summary: 'What the key may do.'})(),
  }

  async run() {
    const {args, flags} = await this.parse(KeysCreate)
    const {createKey} = await import('../../../../config/api-keys.js')
    const created = await createKey(await this.home(), {name: args.name, scope: flags.scope, now: new Date()})
    this.log(created.key)
    this.log(`\nKey ${created.name} (${created.scope}) created. It is shown only this once: store it now.`)
    if (created.turnedAuthOn) this.log('API key auth is now on: mem serve requires a key for everything but health and status.')
    else if (!created.authEnabled) this.log('Note: auth.enabled is false in the user config, so mem serve does not check keys yet.')
    return created
  }
}
