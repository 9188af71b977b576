import {writeFileSync} from 'node:fs'
import {resolve} from 'node:path'
import {Flags} from '@oclif/core'
import {MemError} from '../../../model/errors.js'
import {MemCommand} from '../mem-command.js'

export default class Export extends MemCommand {
  static summary = 'Write the memories of this repository as markdown.'
  static description = `Every live memory, organised by type (procedures, heuristics, insights, observations), each in creation order, with its id, tags, source and date: the same store always gives the same bytes, so the file diffs well under git. Prints to stdout, or writes --out FILE. With --json: {repo, count, markdown} (the markdown is the body of GET /api/mem/export), or {repo, count, out, bytes} with --out.`
  static examples = [`<%= config.bin %> export > MEMORIES.md`, `<%= config.bin %> export --out docs/memories.md`]
  static flags = {
    out: Flags.string({char: 'o', summary: 'Write to this file instead of stdout.'}),
  }

  async run() {
    const {flags} = await this.parse(Export)
    const {operationOps: ops} = await import('../../../operations/catalog/operations.js')
    const result = await this.runOp(ops.exportMarkdown, {repo: this.repoRef(flags)})
    if (flags.out !== undefined) {
      const out = resolve(flags.out)
      try {
        writeFileSync(out, result.markdown)
      } catch (err) {
        throw new MemError('invalid_input', `Cannot write ${out} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`, {hint: 'Check that the folder exists and is writable.'})
      }
      const bytes = Buffer.byteLength(result.markdown)
      this.log(`Wrote ${result.count} memories to ${out} (${bytes} bytes).`)
      return {repo: result.repo, count: result.count, out, bytes}
    }
    if (!this.jsonEnabled()) process.stdout.write(result.markdown)
    return result
  }
}
