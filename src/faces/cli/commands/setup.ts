import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'
import {MemError} from '../../../model/errors.js'
import {HOST_ALIASES, HOSTS, type HostId} from '../../../engines/agents/hosts.js'

export default class Setup extends MemCommand {
  static summary = "Connect an agent host to this repository's memory: hooks, MCP server, instructions."
  static description = `Writes the host's project-level configuration into the repository: hook entries that run \`mem hook <event>\` (the session context at session start, relevant memories at prompt time, a reminder to store what was learned at stop or before a compaction, where the host has such a hook), the MCP server entry (\`mem mcp\`), and the agent-instructions block in the host's instructions file.

Files already there are merged into, never replaced; running it again changes nothing; hooks call \`mem\` from the PATH, so the files can be committed. --uninstall takes mem's part out again (a file nobody changed since comes back byte for byte).

--list shows what each host gets and which events it has no hook for; --dry-run shows the diff and writes nothing. See docs/agents.md.`
  static examples = [
    `<%= config.bin %> setup --list`,
    `<%= config.bin %> setup claude --dry-run`,
    `<%= config.bin %> setup codex`,
    `<%= config.bin %> setup cursor --uninstall`,
  ]
  static args = {
    host: Args.string({
      description: 'claude, codex, cursor, gemini or opencode (claude-code and gemini-cli, the names the hosts go by, are read as claude and gemini).',
      options: [...HOSTS, ...Object.keys(HOST_ALIASES)],
    }),
  }
  static flags = {
    list: Flags.boolean({summary: 'Show what each host gets, and the events it has no hook for.'}),
    'dry-run': Flags.boolean({summary: 'Print the changes as a diff; write nothing.'}),
    uninstall: Flags.boolean({summary: "Take mem's part out of the host's files."}),
  }

  async run() {
    const {args, flags} = await this.parse(Setup)
    const [{agentOps}, format] = await Promise.all([import('../../../operations/catalog/agents.js'), import('../format-agents.js')])
    if (flags.list) {
      const {listHosts} = await import('../format-agents.js')
      const list = listHosts()
      this.log(format.formatHostList(list))
      return {hosts: list}
    }
    if (!args.host) {
      throw new MemError('invalid_input', 'Name the host to set up.', {hint: `mem setup ${HOSTS.join('|')} (mem setup --list shows what each gets)`})
    }
    const {readTemplate} = await import('../../mcp/client-config.js')
    const result = await this.runOp(agentOps.setup, {
      repo: this.repoRef(flags),
      host: (HOST_ALIASES[args.host] ?? args.host) as HostId,
      uninstall: flags.uninstall,
      dryRun: flags['dry-run'],
      templates: {instructions: readTemplate('agent-instructions.md'), opencodePlugin: readTemplate('opencode-plugin.js')},
    })
    this.log(format.formatSetup(result))
    return result
  }
}
