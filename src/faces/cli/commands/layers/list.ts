import {MemCommand} from '../../mem-command.js'

export default class LayersList extends MemCommand {
  static summary = 'List the layers this repository reads: itself (local) and mounted shared and base layers.'
  static examples = [`<%= config.bin %> layers list`, `<%= config.bin %> layers list --json`]

  async run() {
    const {flags} = await this.parse(LayersList)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const result = await this.runOp(ops.layers, {repo: this.repoRef(flags)})
    for (const l of result.layers) {
      const synced = l.type === 'local' ? 'read-write' : l.lastSyncAt ? `synced ${l.lastSyncAt.slice(0, 19).replace('T', ' ')}` : 'never synced (run `mem layers sync ' + l.id + '`)'
      this.log(`${l.id.padEnd(16)} ${l.type.padEnd(7)} ${String(l.memoryCount).padStart(6)} memories  ${synced}\n${' '.repeat(17)}${l.source ?? '(no source)'}`)
    }
    return result
  }
}
