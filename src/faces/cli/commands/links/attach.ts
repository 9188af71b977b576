import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class LinksAttach extends MemCommand {
  static summary = 'Link one memory to another (shown in `mem get` under links and in the graph).'
  static description = `The target is a memory of this repository or of a repository this one is linked to. A second link to the same target replaces its relation. --json prints the same body as POST /api/mem/{id}/links.`
  static examples = [
    `<%= config.bin %> links attach memories/-home-me-app/insight/3f9c0a1b2c3d memories/-home-me-app/procedure/0a1b2c3d4e5f --relation explained-by`,
  ]
  static args = {
    id: Args.string({required: true, description: 'The memory to link from.'}),
    targetId: Args.string({required: true, description: 'The memory to link to.'}),
  }
  static flags = {relation: Flags.string({char: 'r', summary: 'One word for the relation (default related), e.g. depends-on, explains.'})}

  async run() {
    const {args, flags} = await this.parse(LinksAttach)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const result = await this.runOp(ops.linkMemory, {id: args.id, targetId: args.targetId, relation: flags.relation, repo: this.idRepoRef(flags, [args.id, args.targetId].find((v) => !v.trim().startsWith('memories/')) ?? args.id)})
    this.log(`Linked ${args.id} → ${args.targetId} (${flags.relation ?? 'related'})`)
    return result
  }
}
