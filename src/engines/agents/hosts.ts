/**
 * The agent hosts `mem setup` configures and `mem hook` answers: for each, the events it has a
 * hook for (and, where it has none, why), how its hook input names the session, the working
 * directory, the prompt and the transcript, and how it wants an answer. Pure data and functions:
 * the hook's quick path imports this module alone (no zod, no oclif).
 *
 * Every format here is the host's own documentation's; docs/agents.md cites the pages.
 */

/** The moments mem acts at, in the host-neutral names `mem hook <event>` takes. */
export const HOOK_EVENTS = ['session-start', 'prompt', 'pre-compact', 'stop'] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

export const HOSTS = ['claude', 'codex', 'cursor', 'gemini', 'opencode'] as const
export type HostId = (typeof HOSTS)[number]

/** The names the hosts go by (their packages and docs) that `mem setup` also takes for mem's own. */
export const HOST_ALIASES: Readonly<Record<string, HostId>> = {'claude-code': 'claude', 'gemini-cli': 'gemini'}

/** What a hook read from the host's JSON on stdin. */
export interface HookInput {
  sessionId: string
  cwd?: string
  prompt?: string
  transcriptPath?: string
  /** The host is already continuing because of a stop hook (Claude Code, Codex): never block again. */
  stopActive: boolean
  /** The session (re)started after a compaction or a clear, as the host says. */
  source?: string
  /** Cursor's stop: how the turn ended and how many follow-ups came before. */
  status?: string
  loopCount?: number
}

export interface HostSpec {
  id: HostId
  name: string
  /** The host's event name per mem event it has a hook for. */
  events: Partial<Record<HookEvent, string>>
  /** Events it has no hook for (or none that reaches the agent), with the reason. */
  missing: Partial<Record<HookEvent, string>>
  /** The host's instructions file, at the repository root. */
  instructionsFile: string
  /** Its documentation, cited in docs/agents.md and `mem setup --list`. */
  docs: string[]
  /** What the user should know about the setup (experimental hooks, what the host leaves behind). */
  notes: string[]
  /** What the user must do once before the host runs mem's hooks and MCP server (its trust steps). */
  trust: string[]
  /**
   * Whether the host keeps what a session-start hook gave in the session's history, so a resumed
   * session must not get it again (false: mem's plugin hands it to every model call itself).
   */
  contextKept: boolean
  /** The answer that carries `text` to the agent at `event`; '' means print nothing. */
  answer(event: HookEvent, text: string): string
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined)

/** The fields every host's input shares (Claude Code's names, which Codex and Gemini CLI keep). */
export function readHookInput(host: HostId, raw: unknown): HookInput {
  const j = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  if (host === 'cursor') {
    const roots = Array.isArray(j.workspace_roots) ? j.workspace_roots.filter((r): r is string => typeof r === 'string') : []
    return {
      sessionId: str(j.conversation_id) ?? str(j.session_id) ?? 'unknown',
      cwd: roots[0] ?? str(j.cwd),
      prompt: str(j.prompt),
      transcriptPath: str(j.transcript_path),
      stopActive: typeof j.loop_count === 'number' && j.loop_count > 0,
      status: str(j.status),
      loopCount: typeof j.loop_count === 'number' ? j.loop_count : undefined,
    }
  }
  return {
    sessionId: str(j.session_id) ?? 'unknown',
    cwd: str(j.cwd),
    prompt: str(j.prompt),
    transcriptPath: str(j.transcript_path),
    stopActive: j.stop_hook_active === true,
    source: str(j.source),
  }
}

const hookSpecific = (hookEventName: string, text: string) => JSON.stringify({hookSpecificOutput: {hookEventName, additionalContext: text}})

export const HOST_SPECS: Record<HostId, HostSpec> = {
  claude: {
    id: 'claude',
    name: 'Claude Code',
    events: {'session-start': 'SessionStart', prompt: 'UserPromptSubmit', stop: 'Stop'},
    missing: {'pre-compact': 'PreCompact can only block compaction; nothing it prints reaches Claude. The Stop reminder covers it, and SessionStart (source compact) shows the context again after a compaction.'},
    instructionsFile: 'CLAUDE.md',
    docs: ['https://code.claude.com/docs/en/hooks', 'https://code.claude.com/docs/en/mcp'],
    notes: [],
    trust: [
      'Claude Code asks once, at the first interactive session in the project, whether to trust the folder and whether to use the MCP servers .mcp.json names: accept both (mem\'s server is "mem"). Headless (`claude -p`) it asks nothing and runs mem\'s hooks and server, but warns on every run that it ignores the project\'s permissions until the folder is trusted.',
    ],
    contextKept: true,
    answer(event, text) {
      if (!text) return ''
      // Stop has no additionalContext: `block` with a reason is what reaches Claude (as its next
      // instruction); mem gives it once a session and never while stop_hook_active
      if (event === 'stop') return JSON.stringify({decision: 'block', reason: text})
      return hookSpecific(event === 'session-start' ? 'SessionStart' : 'UserPromptSubmit', text)
    },
  },
  codex: {
    id: 'codex',
    name: 'Codex CLI',
    events: {'session-start': 'SessionStart', prompt: 'UserPromptSubmit', stop: 'Stop'},
    missing: {'pre-compact': 'PreCompact output has no field for the agent (only systemMessage, shown to the user).'},
    instructionsFile: 'AGENTS.md',
    docs: ['https://developers.openai.com/codex/hooks', 'https://developers.openai.com/codex/mcp', 'https://developers.openai.com/codex/config-reference'],
    notes: [],
    trust: [
      'Codex reads a project\'s .codex/ only when the project is trusted: start `codex` in the repository once and trust it.',
      'Codex runs a project hook only after it was reviewed: in that `codex` session type /hooks and trust mem\'s three hooks (SessionStart, UserPromptSubmit, Stop). Until then, and in `codex exec`, which cannot ask, they are skipped without a word. Review them again whenever .codex/hooks.json changes.',
    ],
    contextKept: true,
    answer(event, text) {
      if (!text) return ''
      // Stop has no additionalContext: `block` with a reason is how a hook hands the agent a follow-up
      if (event === 'stop') return JSON.stringify({decision: 'block', reason: text})
      return hookSpecific(event === 'session-start' ? 'SessionStart' : 'UserPromptSubmit', text)
    },
  },
  cursor: {
    id: 'cursor',
    name: 'Cursor',
    events: {'session-start': 'sessionStart', stop: 'stop'},
    missing: {
      prompt: 'beforeSubmitPrompt can only let a prompt through or block it; it cannot add context.',
      'pre-compact': 'preCompact output (user_message) is shown to the user, not the agent.',
    },
    instructionsFile: 'AGENTS.md',
    docs: ['https://cursor.com/docs/agent/hooks', 'https://cursor.com/docs/context/mcp'],
    notes: ['Not verified in the real host (Cursor is not on npm): tested against a fake host built from its documentation.'],
    trust: ['Cursor asks before it enables a project\'s MCP server (.cursor/mcp.json): enable "mem" in its MCP settings.'],
    contextKept: true,
    answer(event, text) {
      if (event === 'session-start') return text ? JSON.stringify({additional_context: text}) : '{}'
      if (event === 'stop') return text ? JSON.stringify({followup_message: text}) : '{}'
      return '{}'
    },
  },
  gemini: {
    id: 'gemini',
    name: 'Gemini CLI',
    events: {'session-start': 'SessionStart', prompt: 'BeforeAgent'},
    missing: {
      'pre-compact': 'PreCompress is advisory: only a systemMessage to the user.',
      stop: 'AfterAgent can only reject the answer and force a retry; a reminder would throw the answer away.',
    },
    instructionsFile: 'GEMINI.md',
    docs: ['https://geminicli.com/docs/hooks/reference/', 'https://geminicli.com/docs/reference/configuration/'],
    notes: [],
    trust: [
      'Gemini CLI runs a project\'s hooks and MCP servers only in a trusted folder: run `gemini` in the repository and trust it (or add it to ~/.gemini/trustedFolders.json as "TRUST_FOLDER").',
      'It warns about project hooks (mem-context, mem-recall) at every start until they are trusted: accept them in an interactive session (Gemini records them in ~/.gemini/trusted_hooks.json); it asks again when a hook\'s command changes.',
      'Headless (`gemini -p`) it offers the model no MCP tool that needs approval: allow mem\'s with a user policy, e.g. ~/.gemini/policies/mem.toml holding [[rule]] toolName = "mcp_mem_*", decision = "allow", priority = 200.',
    ],
    // the context rides on the first prompt (a <hook_context> prefix) and a resumed session's history does not keep it
    contextKept: false,
    answer(event, text) {
      // stdout must be JSON and nothing else ("silence is mandatory"): {} when there is nothing to add
      if (!text) return '{}'
      return hookSpecific(event === 'session-start' ? 'SessionStart' : 'BeforeAgent', text)
    },
  },
  opencode: {
    id: 'opencode',
    name: 'OpenCode',
    events: {'session-start': 'experimental.chat.messages.transform', prompt: 'chat.message', 'pre-compact': 'experimental.session.compacting'},
    missing: {stop: 'session.idle is an event a plugin observes; nothing it returns reaches the agent.'},
    instructionsFile: 'AGENTS.md',
    docs: ['https://opencode.ai/docs/plugins/', 'https://opencode.ai/docs/mcp-servers/', 'https://opencode.ai/docs/config/'],
    notes: [
      'The plugin uses OpenCode\'s experimental hooks (experimental.chat.messages.transform, experimental.session.compacting).',
      'At its first start in the repository OpenCode installs what plugins need into .opencode/ (package.json, node_modules, …): those files are OpenCode\'s, and --uninstall leaves them (it says which).',
    ],
    trust: ['None: OpenCode loads the project\'s plugin and MCP server without asking.'],
    contextKept: false,
    // mem's own plugin (.opencode/plugins/mem.js) calls the hook and takes plain text
    answer: (_event, text) => text,
  },
}

/**
 * The prompt as the user wrote it, without what a host wrapped around it: Gemini CLI hands the
 * session-start context to the model by prefixing the next prompt with `<hook_context>…</hook_context>`
 * (its content HTML-escaped), and BeforeAgent's `prompt` carries that prefix. A block is taken out
 * whether its tags are written plain or escaped; an opening tag with no closing one takes the rest.
 */
export function stripHostWrappers(prompt: string): string {
  return prompt
    .replace(/<hook_context>[\s\S]*?(?:<\/hook_context>|$)/g, ' ')
    .replace(/&lt;hook_context&gt;[\s\S]*?(?:&lt;\/hook_context&gt;|$)/g, ' ')
    .trim()
}

/** The hook command a host's config runs: `mem` from the PATH, never a machine path. */
export function hookCommand(host: HostId, event: HookEvent): string {
  return `mem hook ${event} --host ${host}`
}
