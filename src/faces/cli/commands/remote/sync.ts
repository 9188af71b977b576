import {MemCommand} from '../../mem-command.js'
import {checkoutRoot} from '../../remote.js'

export default class RemoteSync extends MemCommand {
  static summary = 'Send the writes waiting in the outbox to the team server now.'
  static description = `Writes made while the team server could not be reached wait in .mem/outbox/, each with a request id. This sends them in order, as operation calls the server plans on its current state; a write it has already taken (the same request id) is not written twice. Any command that reaches the server does the same first. Exit 69 when the server cannot be reached (what is left still waits).`
  static examples = [`<%= config.bin %> remote sync`, `<%= config.bin %> remote sync --json`]

  async run() {
    const {flags} = await this.parse(RemoteSync)
    const {remoteSync} = await import('../../../remote/manage.js')
    const result = await remoteSync(await this.mem({local: true}), checkoutRoot(flags), await this.home(), process.env)
    this.log(result.sent === 0 && result.refused === 0 ? 'Nothing waited in the outbox.' : `Sent ${result.sent} queued write${result.sent === 1 ? '' : 's'}${result.refused ? `; ${result.refused} refused by the server (mem remote status lists them)` : ''}.`)
    return result
  }
}
