import {Args} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class LayersUnmount extends MemCommand {
  static summary = 'Unmount a layer and delete its local cache (the source is not touched).'
  static examples = [`<%= config.bin %> layers unmount team`]
  static args = {layerId: Args.string({required: true, description: 'The layer id (`mem layers list`).'})}

  async run() {
    const {args, flags} = await this.parse(LayersUnmount)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const result = await this.runOp(ops.unmountLayer, {repo: this.repoRef(flags), layerId: args.layerId})
    this.log(`Unmounted layer ${args.layerId}.`)
    return result
  }
}
