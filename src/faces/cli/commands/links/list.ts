import {MemCommand} from '../../mem-command.js'

export default class LinksList extends MemCommand {
  static summary = 'List the repositories this one is linked to (cross-repo links).'
  static examples = [`<%= config.bin %> links list`, `<%= config.bin %> links list --json`]

  async run() {
    const {flags} = await this.parse(LinksList)
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const result = await this.runOp(ops.links, {repo: this.repoRef(flags)})
    if (result.links.length === 0) this.log(`${result.repo} is linked to no other repository. Link one with \`mem links add REPO --note "how they relate"\`.`)
    for (const l of result.links) this.log(`${l.to}${l.note ? `  ${l.note}` : ''}\n  ${l.id}  (${l.createdAt.slice(0, 10)})`)
    return result
  }
}
