import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class KeysRevoke extends MemCommand {
  static summary = 'Revoke an API key by name (a running server refuses it at once).'
  static description = 'Auth stays on even when no key is left: create a new key, or turn auth off with `mem keys auth off`.'
  static examples = [`<%= config.bin %> keys revoke claude`, `<%= config.bin %> keys revoke dashboard --json`]
  static args = {name: Args.string({required: true, description: 'The key name (see mem keys list).'})}

  async run() {
    const {args} = await this.parse(KeysRevoke)
    const {revokeKey} = await import('../../../../config/api-keys.js')
    const result = await revokeKey(await this.home(), args.name)
    this.log(`Revoked ${result.revoked}.`)
    if (result.remaining === 0 && result.authEnabled) {
      this.log('No keys left and auth is on: mem serve refuses every request but health and status until a key is created. `mem keys auth off` turns auth off.')
    }
    return result
  }
}
