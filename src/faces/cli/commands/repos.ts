import {MemCommand} from '../mem-command.js'

export default class Repos extends MemCommand {
  static summary = 'List the repositories mem has stored memories for.'
  static description = 'Each by its folder name, with its path and repo id; * marks the repository this command runs in (--json: `current`).'
  static examples = [`<%= config.bin %> repos`, `<%= config.bin %> repos --json`]

  async run() {
    const {flags} = await this.parse(Repos)
    const {memoryOps: ops} = await import('../../../operations/catalog/memories.js')
    const result = await this.runOp(ops.repos, {}, {current: this.repoRef(flags)})
    const rows = result.repos.map((r) => [r.repoId === result.current?.repoId ? '*' : ' ', r.name, r.path, r.repoId])
    const width = (i: number) => Math.max(...rows.map((r) => r[i].length))
    this.log(rows.length ? rows.map((r) => `${r[0]} ${r[1].padEnd(width(1))}  ${r[2].padEnd(width(2))}  ${r[3]}`.trimEnd()).join('\n') : 'No repositories yet.')
    if (result.current && !result.repos.some((r) => r.repoId === result.current?.repoId)) {
      this.log(`(${result.current.name}, where this runs, has no memories yet: ${result.current.path})`)
    }
    return result
  }
}
