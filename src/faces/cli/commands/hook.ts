import {Args, Flags} from '@oclif/core'
import {MemCommand} from '../mem-command.js'

/**
 * `mem hook` is answered by src/faces/cli/hook.ts before oclif loads (bin/run.js); this command
 * exists for `mem hook --help` and the command list, and runs the same code if reached.
 */
export default class Hook extends MemCommand {
  static summary = "Answer an agent host's hook (run by the host, set up by `mem setup`)."
  static description = `Reads the host's hook JSON on stdin and prints what the host expects on stdout, always exiting 0 within a hard time limit (a broken store answers nothing rather than break the session).

Events: session-start, the session context, each line ending with its ref; prompt, memories relevant to the prompt above a strict bar (at most ~150 tokens, never twice a session); stop, once a session, a reminder to store what was learned, with candidates from the transcript; pre-compact, the same reminder before a compaction (OpenCode).

Nothing goes to stderr unless --debug (or MEM_HOOK_DEBUG=1). --timeout MS (or MEM_HOOK_TIMEOUT_MS) changes the limit. See docs/agents.md.`
  static examples = [`echo '{"session_id":"s1","cwd":"'$PWD'"}' | <%= config.bin %> hook session-start --host claude`]
  static enableJsonFlag = false
  static args = {event: Args.string({required: true, options: ['session-start', 'prompt', 'pre-compact', 'stop']})}
  static flags = {
    host: Flags.string({required: true, options: ['claude', 'codex', 'cursor', 'gemini', 'opencode'], summary: 'Which host is asking (its protocol).'}),
    timeout: Flags.integer({summary: 'Hard time limit in milliseconds.'}),
    debug: Flags.boolean({summary: 'Report failures on stderr.'}),
  }

  async run() {
    const {runHook} = await import('../hook.js')
    await runHook(this.argv, {exit: () => undefined})
  }
}
