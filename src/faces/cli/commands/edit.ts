import {Args, Flags} from '@oclif/core'
import {isQueued} from '../../remote/queued.js'
import {MemCommand, parseNumber, splitTags} from '../mem-command.js'

export default class Edit extends MemCommand {
  static summary = 'Edit a memory: new content makes a new version; tags and importance change in place.'
  static examples = [
    `<%= config.bin %> edit memories/-home-me-app/procedure/3f9c0a1b2c3d --content "integration suite: npm run test:int (docker required)"`,
    `<%= config.bin %> edit memories/-home-me-app/procedure/3f9c0a1b2c3d --tags testing,ci --importance 0.9`,
  ]
  static args = {id: Args.string({required: true, description: 'Memory id.'})}
  static flags = {
    content: Flags.string({summary: 'New content (creates a new version that supersedes this one).'}),
    tags: Flags.string({summary: 'Replace the tags (comma-separated; "" clears them).'}),
    importance: Flags.string({summary: 'New importance from 0.0 to 1.0.'}),
  }

  async run() {
    const {args, flags} = await this.parse(Edit)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.edit, {
      id: args.id,
      repo: this.idRepoRef(flags, args.id),
      content: flags.content,
      tags: splitTags(flags.tags),
      importance: parseNumber(flags.importance),
    })
    if (isQueued(result)) return this.queued(result)
    if (result.success) {
      this.log(result.superseded ? `New version ${result.id} (supersedes ${result.superseded})` : `Updated ${result.id}`)
    } else if ('duplicateId' in result) {
      this.log(`Not changed: the new content duplicates ${result.duplicateId}`)
    }
    return result
  }
}
