import {Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'
import type {OpDef} from '../../../operations/define.js'

export default class Usage extends MemCommand {
  static summary = 'Show how this repository\'s memories are used: calls per operation, per day or per hour.'
  static description = `Every operation (store, recall, context, get, edit, forget, feedback, browse, stats, …) from the CLI, mem serve and MCP is counted with its duration and result count. Days and hours are UTC. --json prints the body of GET /api/mem/usage (with --daily: /usage/timeseries; with --hourly: /usage/hourly). Charts are plain block characters; NO_COLOR turns colour off.`
  static examples = [
    `<%= config.bin %> usage`,
    `<%= config.bin %> usage --days 7`,
    `<%= config.bin %> usage --hourly --days 2`,
    `<%= config.bin %> usage --daily --json`,
  ]
  static flags = {
    days: Flags.integer({summary: 'Window in days (default 30; with --hourly 7, at most 31).'}),
    daily: Flags.boolean({summary: 'Calls per day (the timeseries).', exclusive: ['hourly']}),
    hourly: Flags.boolean({summary: 'Calls per hour.', exclusive: ['daily']}),
  }

  async run() {
    const {flags} = await this.parse(Usage)
    const [{insightOps: ops}, fmt] = await Promise.all([import('../../../operations/catalog/insight.js'), import('../format-insight.js')])
    const repo = this.repoRef(flags)
    const style = {color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && !this.jsonEnabled()}
    if (flags.hourly) {
      const hourly = await this.runOp(ops.usageHourly, {repo, days: flags.days})
      this.log(fmt.formatHourly(hourly, style))
      return hourly
    }
    // The page a person reads shows the summary and the daily chart, read by two operations: the
    // one the command answers with is counted as a call, the other only draws the page, so it is
    // read first and not counted (counted, the chart showed one call more than the summary above it)
    const uncounted = <I, O, P>(op: OpDef<I, O, P>): OpDef<I, O, P> => ({...op, track: false})
    if (flags.daily) {
      const summary = this.jsonEnabled() ? undefined : await this.runOp(uncounted(ops.usage), {repo, days: flags.days})
      const series = await this.runOp(ops.usageTimeseries, {repo, days: flags.days})
      if (summary) this.log(fmt.formatUsage(summary, series.buckets, style))
      return series
    }
    // the chart's daily buckets only when a person reads it (--json prints the usage body alone)
    const chart = this.jsonEnabled() ? undefined : await this.runOp(uncounted(ops.usageTimeseries), {repo, days: flags.days})
    const result = await this.runOp(ops.usage, {repo, days: flags.days})
    if (chart) this.log(fmt.formatUsage(result, chart.buckets, style))
    return result
  }
}
