import {MemCommand} from '../mem-command.js'

export default class Quality extends MemCommand {
  static summary = 'Report how well this repository\'s memories serve recall, and what to do about it.'
  static description = `From feedback and activity: echo (recalled and mostly reported used) and fizzle (mostly reported unused) as shares of the recalled memories, stale memories (30+ days without a recall), dead ones (60+ days without a recall, or reported unused 3+ times and over twice as often as used), each issue with example ids and advice, and a score from 0 to 100. --json prints the body of GET /api/mem/quality.`
  static examples = [`<%= config.bin %> quality`, `<%= config.bin %> quality --repo ../other-repo --json`]

  async run() {
    const {flags} = await this.parse(Quality)
    const [{insightOps: ops}, {formatQuality}] = await Promise.all([import('../../../operations/catalog/insight.js'), import('../format-insight.js')])
    const result = await this.runOp(ops.quality, {repo: this.repoRef(flags)})
    this.log(formatQuality(result, {color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !this.jsonEnabled()}))
    return result
  }
}
