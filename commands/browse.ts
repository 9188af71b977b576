import {Flags} from '@oclif/core'
import {MemCommand, typeFlag} from '../src/cli/mem-command.js'

export default class Browse extends MemCommand {
  static summary = 'List memories page by page, newest first.'
  static examples = [
    `<%= config.bin %> browse`,
    `<%= config.bin %> browse --type procedure --take 20`,
    `<%= config.bin %> browse --skip 50 --take 50 --json`,
  ]
  static flags = {
    skip: Flags.integer({summary: 'Entries to skip.', default: 0}),
    take: Flags.integer({summary: 'Entries per page (1 to 500).', default: 50}),
    type: typeFlag(),
  }

  async run() {
    const {flags} = await this.parse(Browse)
    const [{browse}, {formatMemoryRow}] = await Promise.all([import('../src/core/browse.js'), import('../src/cli/format.js')])
    const page = await browse(await this.mem(), {repo: this.repoRef(flags), skip: flags.skip, take: flags.take, type: flags.type})
    if (page.count === 0) this.log('No memories yet. Store one with `mem store "…" --type observation`.')
    else {
      this.log(page.entries.map(formatMemoryRow).join('\n'))
      const last = page.skip + page.entries.length
      this.log(`\n${page.skip + 1}–${last} of ${page.count}${last < page.count ? ` (next: --skip ${last})` : ''}`)
    }
    return page
  }
}
