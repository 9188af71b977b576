import {Args, Flags} from '@oclif/core'
import {isQueued} from '../../remote/queued.js'
import {MemCommand, parseNumber, splitTags, typeFlag} from '../mem-command.js'
import {MemError} from '../../../model/errors.js'
import {readStdin} from '../stdin.js'

export default class Store extends MemCommand {
  static summary = 'Store a memory in this repository.'
  static description = `Content comes from the argument or, when it is omitted, from standard input. A memory the secret scanner flags is rejected and written nowhere (exit 5); one that repeats a live memory is not stored again and its id is reported (exit 0).`
  static examples = [
    `<%= config.bin %> store "integration suite: npm run test:int, needs docker" --type procedure --tags testing,docker`,
    `<%= config.bin %> store "Prefer zod schemas at every boundary" -t heuristic --importance 0.8`,
    `git log -1 --format=%B | <%= config.bin %> store --type observation --source git-hook`,
    `<%= config.bin %> store "Use pnpm 9, not npm" -t heuristic --supersedes memories/-home-me-app/heuristic/3f9c0a1b2c3d --json`,
  ]
  static args = {content: Args.string({description: 'The memory text (omit to read standard input).'})}
  static flags = {
    type: typeFlag({required: true}),
    tags: Flags.string({summary: 'Comma-separated tags.'}),
    importance: Flags.string({summary: 'Importance from 0.0 to 1.0 (default 0.5).'}),
    source: Flags.string({summary: 'Where the memory comes from (default claude-session).'}),
    session: Flags.string({summary: 'Session id to track the memory by.'}),
    supersedes: Flags.string({summary: 'Id of the memory this one replaces.'}),
  }

  async run() {
    const {args, flags} = await this.parse(Store)
    let content = args.content
    if (content === undefined) {
      if (process.stdin.isTTY) {
        throw new MemError('invalid_input', 'No content: give it as an argument or pipe it on standard input.', {
          hint: 'mem store "what you learned" --type observation',
        })
      }
      content = await readStdin()
    }
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.store, {
      repo: this.repoRef(flags),
      content,
      type: flags.type,
      tags: splitTags(flags.tags),
      importance: parseNumber(flags.importance),
      source: flags.source,
      sessionId: flags.session,
      supersedes: flags.supersedes,
    })
    if (isQueued(result)) return this.queued(result)
    if (result.success) {
      this.log(`Stored ${result.id}`)
      // the same subject with another value: the newer now ranks first; say so, and how to confirm
      for (const u of result.updates ?? []) {
        this.log(`  looks like an update of ${u.id} (${u.reason}): it now ranks below this one.`)
      }
      if (result.updates?.length) this.log(`  Confirm with --supersedes ${result.updates[0].id}, or if they are two facts: mem links attach ${result.id} ${result.updates[0].id} --relation distinct`)
    } else if ('duplicateId' in result) this.log(`Already stored: duplicate of ${result.duplicateId}`)
    return result
  }
}
