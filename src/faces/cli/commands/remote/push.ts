import {MemCommand} from '../../mem-command.js'
import {checkoutRoot} from '../../remote.js'

export default class RemotePush extends MemCommand {
  static summary = "Move this checkout's local memories into its team repo."
  static description = `Exports the local store's live memories as a pack (what \`mem pack export\` writes) and imports it into the team repo through the server's pack import, which runs every gate on the server. A memory whose text the team repo already holds is skipped (a duplicate), so a second push imports nothing new. What moves: each live memory's type, content, one-liner, tags, importance, source and creation time. Then each moved memory's used and unused reports (as feedback calls) and the links between moved memories, each call with a request id of its own that is the same on every push: a second push adds none of them again, only reports made since. What does not move: superseded and forgotten versions (an update chain arrives as its newest version alone), links to memories that did not move, usage statistics. The local store is left as it was. See docs/team.md, "Moving in".`
  static examples = [`<%= config.bin %> remote push`, `<%= config.bin %> remote push --json`]

  async run() {
    const {flags} = await this.parse(RemotePush)
    const {remotePush} = await import('../../../remote/manage.js')
    const result = await remotePush(await this.mem({local: true}), checkoutRoot(flags), await this.home(), process.env)
    this.log(`Pushed to ${result.server}, team repo ${result.repo}: ${result.imported} imported, ${result.skipped} skipped (already there, or refused by its gates) of ${result.exported} live ${result.exported === 1 ? 'memory' : 'memories'}.`)
    this.log(`  ${result.feedback} feedback ${result.feedback === 1 ? 'report' : 'reports'} and ${result.links} ${result.links === 1 ? 'link' : 'links'} sent (each written once, however often pushed).`)
    return result
  }
}
