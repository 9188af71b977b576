import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'

export default class LinksAdd extends MemCommand {
  static summary = 'Link this repository to another one mem knows; recall here then also searches it.'
  static description = `The target must be a registered repository (\`mem repos\` lists them): a repo id or its path. The link is a memory tagged cross-repo-link; remove it with \`mem forget LINK_ID\`. Memories of the linked repository join recall ranked below this repository's own (weight 0.8). An unknown repository exits 3.`
  static examples = [
    `<%= config.bin %> links add ../billing-api --note "the app calls this API for invoices"`,
    '# a repo id that starts with "-" (as ids of paths do) goes after --, or it reads as a flag',
    `<%= config.bin %> links add --json -- -home-me-src-billing-api`,
  ]
  static args = {targetRepo: Args.string({required: true, description: 'The repository to link: a repo id or a path.'})}
  static flags = {note: Flags.string({summary: 'How the repositories relate.'})}

  async run() {
    const {args, flags} = await this.parse(LinksAdd)
    const {resolve} = await import('node:path')
    const {looksLikePath} = await import('../../../../config/paths.js')
    const {sharingOps: ops} = await import('../../../../operations/catalog/sharing.js')
    const target = looksLikePath(args.targetRepo) ? resolve(process.cwd(), args.targetRepo) : args.targetRepo
    const link = await this.runOp(ops.linkRepo, {repo: this.repoRef(flags), targetRepo: target, note: flags.note})
    this.log(`Linked ${link.from} → ${link.to} (${link.id})`)
    return link
  }
}
