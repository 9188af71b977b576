import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class KeysAuth extends MemCommand {
  static summary = 'Turn API key auth on or off for mem serve (the keys are kept).'
  static description =
    'Off: mem serve answers without a key again (it still listens only on loopback while auth is off, and a server already bound beyond loopback keeps asking for keys). On: the keys are needed again; turning it on needs at least one key. A running server follows the change at once. Without an argument, says whether auth is on.'
  static examples = [`<%= config.bin %> keys auth off`, `<%= config.bin %> keys auth on`, `<%= config.bin %> keys auth --json`]
  static args = {state: Args.string({options: ['on', 'off'], description: 'on or off (omit to show the current state).'})}

  async run() {
    const {args} = await this.parse(KeysAuth)
    const keys = await import('../../../../config/api-keys.js')
    const home = await this.home()
    if (args.state === undefined) {
      const listing = await keys.listKeys(home)
      this.log(`API key auth: ${listing.authEnabled ? 'on' : 'off'} (${listing.keys.length} key${listing.keys.length === 1 ? '' : 's'})`)
      return {authEnabled: listing.authEnabled, changed: false, keys: listing.keys.length}
    }
    const result = await keys.setAuth(home, args.state === 'on')
    this.log(`API key auth is ${result.authEnabled ? 'on' : 'off'}${result.changed ? '' : ' already'}.`)
    return result
  }
}
