import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../../mem-command.js'
import {checkoutRoot} from '../../remote.js'

export default class RemoteSet extends MemCommand {
  static summary = "Send this checkout's memory to a team server (remote mode)."
  static description = `From now on the CLI, \`mem mcp\` and the agent hooks of this checkout store, recall and edit memories on the team server (mem serve --store) instead of the local store in .mem/. The server and the team repo id are written to .mem/remote.json (kept out of git); the key never goes into the repository: --key keeps it in MEM_HOME/remote-keys.json (readable by you only), or leave it out and export MEM_KEY. The team repo id is the checkout's .mem/team.yaml \`id:\`, else its normalized git remote (git@github.com:org/app.git → github.com/org/app), else --repo-id. The server and the key are checked first: nothing is written when the server cannot be reached (exit 69) or refuses the key (exit 77). MEM_SERVER and MEM_KEY in the environment override the mapping. See docs/team.md, "Remote mode".`
  static examples = [
    `<%= config.bin %> remote set https://mem.example.com --key mem_…`,
    `MEM_KEY=mem_… <%= config.bin %> remote set http://127.0.0.1:7373 --repo-id github.com/org/app --json`,
  ]
  static args = {url: Args.string({required: true, description: 'The team server: http(s)://HOST[:PORT] of mem serve --store.'})}
  static flags = {
    key: Flags.string({summary: 'The team key (kept in MEM_HOME/remote-keys.json); default: MEM_KEY from the environment, kept nowhere.'}),
    'repo-id': Flags.string({summary: 'The team repo id (default: .mem/team.yaml id:, else the normalized git remote "origin").'}),
  }

  async run() {
    const {args, flags} = await this.parse(RemoteSet)
    const {remoteSet} = await import('../../../remote/manage.js')
    const result = await remoteSet(checkoutRoot(flags), await this.home(), process.env, {url: args.url, key: flags.key, repoId: flags['repo-id']})
    this.log(`This checkout's memory now goes to ${result.server}, team repo ${result.repo} (from the ${result.repoFrom}; ${result.memories} ${result.memories === 1 ? 'memory' : 'memories'} there now).`)
    this.log(result.key === 'saved' ? `  key kept in ${result.keyFile}; mapping in ${result.config}` : `  key from MEM_KEY (not kept: export it for every command); mapping in ${result.config}`)
    this.log('  Move the local memories in with `mem remote push`; go back with `mem remote unset`.')
    return result
  }
}
