import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

export default class Context extends MemCommand {
  static summary = 'Print the session context an agent loads at start (under the token budget).'
  static examples = [
    `<%= config.bin %> context`,
    `<%= config.bin %> context --tokens 300`,
    `<%= config.bin %> context --preview --json`,
  ]
  static flags = {
    tokens: Flags.integer({summary: 'Token budget (cl100k tokens); the context stays under it.', default: 600}),
    preview: Flags.boolean({summary: 'Also report the token estimate, layers and cross-repo scope.'}),
  }

  async run() {
    const {flags} = await this.parse(Context)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const input = {repo: this.repoRef(flags), tokens: flags.tokens}
    if (flags.preview) {
      const preview = await this.runOp(ops.contextPreview, input)
      this.log(`${preview.context}\n\n(${preview.estimatedTokens} of ${preview.maxTokens} tokens)`)
      return preview
    }
    const result = await this.runOp(ops.context, input)
    this.log(result.context)
    return result
  }
}
