import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class LayersSync extends MemCommand {
  static summary = 'Sync a mounted layer with its source (git clone or pull) and report what changed.'
  static description = `A damaged or foreign pack in the source refuses the whole sync (exit 2) and leaves the layer as it was; an unreachable git remote exits 69. An entry whose write into the layer fails is counted as failed, with the first error, and the sync exits 1 (the other entries are synced).`
  static examples = [`<%= config.bin %> layers sync team`, `<%= config.bin %> layers sync team --json`]
  static args = {layerId: Args.string({required: true, description: 'The layer id (`mem layers list`).'})}

  async run() {
    const {args, flags} = await this.parse(LayersSync)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const result = await this.runOp(ops.syncLayer, {repo: this.repoRef(flags), layerId: args.layerId})
    this.log(`Layer ${result.layerId}: ${result.added} added, ${result.updated} updated, ${result.removed} removed.`)
    if (result.failed !== undefined) this.log(`${result.failed} not written: ${result.error}`)
    return result
  }
}
