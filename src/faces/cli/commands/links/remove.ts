import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class LinksRemove extends MemCommand {
  static summary = 'Remove the link from one memory to another.'
  static description = 'To remove a cross-repo link, forget its memory instead: `mem forget LINK_ID` (`mem links list` shows the ids).'
  static examples = [`<%= config.bin %> links remove memories/-home-me-app/insight/3f9c0a1b2c3d memories/-home-me-app/procedure/0a1b2c3d4e5f`]
  static args = {
    id: Args.string({required: true, description: 'The memory the link is on.'}),
    targetId: Args.string({required: true, description: 'The memory it links to.'}),
  }

  async run() {
    const {args, flags} = await this.parse(LinksRemove)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const result = await this.runOp(ops.unlinkMemory, {id: args.id, targetId: args.targetId, repo: this.idRepoRef(flags, [args.id, args.targetId].find((v) => !v.trim().startsWith('memories/')) ?? args.id)})
    this.log(result.removed ? `Removed the link ${args.id} → ${args.targetId}` : `${args.id} has no link to ${args.targetId}`)
    return result
  }
}
