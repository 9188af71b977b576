/** The agent hosts' operations (issue 18): `mem setup <host>` and the hooks `mem hook <event>` runs. */
import {z} from 'zod'
import {RepoRef} from '../../model/schemas.js'
import {defineOp, type OpDef} from '../define.js'
import {HOSTS} from '../../engines/agents/hosts.js'
import {hookPromptCall, hookSessionStartCall, hookWrapUpCall} from '../agent-hooks.js'
import {setup} from '../setup.js'

const Host = z.enum(HOSTS, {error: `host must be one of ${HOSTS.join(', ')}`})
const Session = {repo: RepoRef, host: Host, session: z.string().min(1).max(500)}
const Answer = z.strictObject({text: z.string(), ids: z.array(z.string())})
const FileAction = z.enum(['create', 'update', 'remove', 'restore', 'unchanged', 'kept', 'conflict'])
const Event = z.enum(['session-start', 'prompt', 'pre-compact', 'stop'])

export const agentOps = {
  setup: defineOp({
    name: 'setup',
    summary: "Write (or take out) an agent host's hooks, MCP server entry and instructions block",
    access: 'admin',
    input: z.object({
      repo: RepoRef,
      host: Host,
      uninstall: z.boolean().optional(),
      dryRun: z.boolean().optional(),
      templates: z.object({instructions: z.string(), opencodePlugin: z.string()}),
    }),
    output: z.strictObject({
      host: Host,
      name: z.string(),
      root: z.string(),
      uninstall: z.boolean(),
      dryRun: z.boolean(),
      files: z.array(z.strictObject({path: z.string(), action: FileAction, diff: z.string(), note: z.string().optional()})),
      leftBehind: z.array(z.string()),
      trust: z.array(z.string()),
      hooked: z.array(z.strictObject({event: Event, hostEvent: z.string()})),
      missing: z.array(z.strictObject({event: Event, why: z.string()})),
    }),
    // a file mem left alone (not JSON, or not mem's) is reported: the CLI exits 1
    outcomes: [{when: (r) => r.files.some((f) => f.action === 'conflict'), status: 200, exit: 1}],
    track: false,
    run: setup,
  }),
  hookSessionStart: defineOp({
    ...hookSessionStartCall,
    summary: 'The session context for an agent host at session start, with refs',
    access: 'read',
    input: z.object({...Session, source: z.string().max(100).optional(), keptByHost: z.boolean().optional()}),
    output: Answer.extend({cached: z.boolean()}),
  }),
  hookPrompt: defineOp({
    ...hookPromptCall,
    summary: 'Memories relevant to a prompt, above a strict bar, never twice a session',
    access: 'write',
    input: z.object({...Session, prompt: z.string()}),
    output: Answer,
  }),
  hookWrapUp: defineOp({
    ...hookWrapUpCall,
    summary: 'A reminder to store what the session learned, with candidates from its transcript',
    access: 'read',
    input: z.object({...Session, moment: z.enum(['stop', 'pre-compact']), transcriptPath: z.string().optional(), stopActive: z.boolean().optional()}),
    output: Answer.extend({candidates: z.number().int()}),
  }),
} satisfies Record<string, OpDef<any, any, any>>
