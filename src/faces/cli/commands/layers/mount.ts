import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class LayersMount extends MemCommand {
  static summary = 'Mount a shared or base layer (read-only) from a directory of packs or a git remote.'
  static description = `The source is a git remote (URL, or the path of a local git repository) or a plain directory holding .mem packs. It is checked now; its memories arrive with \`mem layers sync LAYER_ID\`. Recall and context then read the layer read-only, ranked below this repository's own memories (weight 0.8).`
  static examples = [
    `<%= config.bin %> layers mount team git@github.com:acme/team-memory.git`,
    `<%= config.bin %> layers mount org https://github.com/acme/org-memory.git --type base`,
    `<%= config.bin %> layers mount shared-dir ../team-memory/packs --name "Team packs"`,
  ]
  static args = {
    layerId: Args.string({required: true, description: 'An id for the layer (letters, digits, - and _).'}),
    source: Args.string({required: false, description: 'A git remote (URL or local repository) or a directory holding .mem packs (without one the layer stays empty).'}),
  }
  static flags = {
    type: Flags.option({options: ['shared', 'base'] as const, default: 'shared' as const, summary: 'Layer type: shared (team) or base (organisation baseline). Both are read-only.'})(),
    name: Flags.string({summary: 'A display name (default: the layer id).'}),
  }

  async run() {
    const {args, flags} = await this.parse(LayersMount)
    const {resolve} = await import('node:path')
    const {looksLikeRemote} = await import('../../../../engines/sharing/layer-source.js')
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const source = args.source === undefined || looksLikeRemote(args.source) ? args.source : resolve(process.cwd(), args.source)
    const layer = await this.runOp(ops.mountLayer, {repo: this.repoRef(flags), layerId: args.layerId, type: flags.type, source, name: flags.name})
    this.log(
      layer.source
        ? `Mounted ${layer.type} layer ${layer.id} from ${layer.source}. Run \`mem layers sync ${layer.id}\` to fetch its memories.`
        : `Mounted ${layer.type} layer ${layer.id} without a source: it stays empty (unmount and mount it again with a source).`,
    )
    return layer
  }
}
