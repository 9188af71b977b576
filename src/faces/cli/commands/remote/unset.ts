import {Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'
import {checkoutRoot} from '../../remote.js'

export default class RemoteUnset extends MemCommand {
  static summary = "Send this checkout's memory to the local store again."
  static description = `Removes .mem/remote.json: the CLI, \`mem mcp\` and the hooks of this checkout use the local store in .mem/ again (what it held before remote mode is still there). Writes waiting in the outbox stay in .mem/outbox/ and are sent once a remote is set again. --forget-key also removes the key kept for that server in MEM_HOME. MEM_SERVER in the environment still sends memory to a server: unset it too.`
  static examples = [`<%= config.bin %> remote unset`, `<%= config.bin %> remote unset --forget-key --json`]
  static flags = {'forget-key': Flags.boolean({summary: "Also remove the server's key from MEM_HOME/remote-keys.json."})}

  async run() {
    const {flags} = await this.parse(RemoteUnset)
    const {remoteUnset} = await import('../../../remote/manage.js')
    const result = remoteUnset(checkoutRoot(flags), await this.home(), {forgetKey: flags['forget-key']})
    this.log(result.removed ? "This checkout's memory is the local store again." : 'This checkout had no team server: its memory is the local store.')
    if (result.waiting > 0) this.log(`  ${result.waiting} write${result.waiting === 1 ? '' : 's'} still wait in .mem/outbox/: sent once a remote is set again.`)
    if (process.env.MEM_SERVER?.trim()) this.log('  MEM_SERVER is set in the environment: it still sends memory to that server.')
    return result
  }
}
