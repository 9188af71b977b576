import {Flags} from '@oclif/core'
import {MemCommand, typeFlag} from '../mem-command.js'
import {listHeight} from '../../tui/layout.js'

export default class Browse extends MemCommand {
  static summary = 'Browse memories: an interactive browser on a terminal, pages of text otherwise.'
  static description = [
    'On a terminal, opens the terminal browser: search as you type, filter what is on screen, page through the store by type, open a memory with all its fields, history and links, and forget it, edit its tags, importance or content (in $VISUAL or $EDITOR), record feedback or copy its id. Press ? inside for the keys; q, Esc or Ctrl-C quits. The browser fits its page to the screen (--take is for printed pages).',
    'When the output is not a terminal (a pipe, --json, CI) it prints one page, newest first, and exits. See docs/browse.md.',
  ].join('\n\n')
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
    if (interactive(this.jsonEnabled())) {
      const ctx = await this.mem({longLived: true})
      const repo = this.repoRef(flags)
      // the first page loads while ink does (~0.4 s each): the first screen waits for the slower
      const [{memoryOps: ops}, {invoke}] = await Promise.all([import('../../../operations/catalog/memories.js'), import('../../../operations/define.js')])
      const take = listHeight(process.stdout.rows)
      const firstPage = invoke(ctx, ops.browse, {repo, skip: flags.skip, take, type: flags.type})
      firstPage.catch(() => undefined) // the browser shows the error if there is one
      const {runBrowser} = await import('../../tui/run.js')
      await runBrowser({ctx, repo, type: flags.type, skip: flags.skip, env: process.env, firstPage: {take, page: firstPage}})
      return
    }
    const [{memoryOps: ops}, {formatMemoryRow}] = await Promise.all([import('../../../operations/catalog/memories.js'), import('../format.js')])
    const page = await this.runOp(ops.browse, {repo: this.repoRef(flags), skip: flags.skip, take: flags.take, type: flags.type})
    if (page.count === 0) this.log('No memories yet. Store one with `mem store "…" --type observation`.')
    else {
      this.log(page.entries.map(formatMemoryRow).join('\n'))
      const last = page.skip + page.entries.length
      this.log(`\n${page.skip + 1}–${last} of ${page.count}${last < page.count ? ` (next: --skip ${last})` : ''}`)
    }
    return page
  }
}

/** The terminal browser needs a terminal on both ends; a pipe, --json or CI gets the pages. */
function interactive(json: boolean): boolean {
  const ci = ['CI', 'CONTINUOUS_INTEGRATION'].some((k) => k in process.env && process.env[k] !== '0' && process.env[k] !== 'false')
  return !json && !ci && Boolean(process.stdout.isTTY) && Boolean(process.stdin.isTTY)
}
