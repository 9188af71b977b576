import {MemCommand} from '../../mem-command.js'
import {checkoutRoot} from '../../remote.js'

export default class RemoteStatus extends MemCommand {
  static summary = "Where this checkout's memory goes, and what waits to be sent."
  static description = `Says whether this checkout uses the local store or a team server (and which: MEM_SERVER or .mem/remote.json), the team repo id, where the key comes from (never the key), whether the server answers with it now, and the writes waiting in the outbox (and any the server refused for good). Exit 0 whether or not the server answers.`
  static examples = [`<%= config.bin %> remote status`, `<%= config.bin %> remote status --json`]

  async run() {
    const {flags} = await this.parse(RemoteStatus)
    const {remoteStatus} = await import('../../../remote/manage.js')
    const s = await remoteStatus(checkoutRoot(flags), await this.home(), process.env)
    if (s.mode === 'local') this.log(`Local: this checkout's memory is the local store in ${s.root}/.mem.`)
    else {
      this.log(`Remote: this checkout's memory goes to ${s.server}, team repo ${s.repo} (set by ${s.from === 'env' ? 'MEM_SERVER' : '.mem/remote.json'}; key from ${s.keyFrom === 'env' ? 'MEM_KEY' : s.keyFrom === 'home' ? 'MEM_HOME/remote-keys.json' : 'nowhere: none set'}).`)
      this.log(s.reachable ? `  The server answers: ${s.memories} ${s.memories === 1 ? 'memory' : 'memories'} in the team repo.` : `  The server does not answer now: ${s.problem}`)
    }
    if (s.outbox.waiting > 0) this.log(`  ${s.outbox.waiting} write${s.outbox.waiting === 1 ? '' : 's'} wait in the outbox (oldest ${s.outbox.oldest}); sent by the next command that reaches the server, or mem remote sync.`)
    else if (s.mode === 'remote') this.log('  Nothing waits in the outbox.')
    for (const r of s.refused) this.log(`  refused by the server: ${r.op} (request ${r.requestId}, HTTP ${r.status}): ${r.error}`)
    return s
  }
}
