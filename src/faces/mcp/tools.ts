/**
 * The MCP server over the core: `tools/list` and `tools/call` of the catalog, for one context and
 * one repository binding. Both transports (stdio, HTTP) build their server here.
 *
 * It uses the SDK's low-level `Server`, not `McpServer.registerTool`: McpServer validates the
 * arguments itself before a tool runs and answers bad input with its own wording
 * ("Input validation error: …", no hint). Here the core validates with its zod schema, so a bad
 * argument reads exactly as it does in the CLI and over HTTP: "Invalid type: … Hint: …".
 */
import {Server} from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js'
import {AjvJsonSchemaValidator} from '@modelcontextprotocol/sdk/validation/ajv'
import type {jsonSchemaValidator} from '@modelcontextprotocol/sdk/validation'
import {errorBody, MemError} from '../../model/errors.js'
import type {MemContext} from '../../engines/context.js'
import {isQueued, queuedText} from '../remote/queued.js'
import {findTool, isToolError, runTool, toOperationArgs, TOOLS, toolListing, toolsOf, type ToolListing, type ToolSet} from './catalog.js'

export const SERVER_NAME = 'mem'

/** The `instructions` of the initialize answer: when an agent should call which tool. */
export const INSTRUCTIONS = `mem is this project's long-term memory: short typed lessons kept beside the repository, shared by every session.
- At the start of a session, call memory_context once (unless a hook already showed it) and read it before working.
- Before a task, and whenever you wonder how something works here or what went wrong before, call memory_recall with a question in your own words.
- When you learn something a later session would need (how the build or tests really work, a flaky test and its cause, a decision and its reason, a command that works, a pitfall), store it with memory_store as one short, self-contained memory of the right type: observation (seen once), insight (a conclusion), procedure (steps that work) or heuristic (a rule of thumb). Never store secrets.
- After using memories, call memory_feedback for each one you read (its id, or the [ref] a context line ends with): used true if it helped, false if not. Correct wrong memories with memory_edit.
Tools act on this session's repository unless you pass repo. Ids may be given as their ref (a unique key prefix).`

export interface McpBinding {
  /** The repository a tool uses when the agent passes no `repo`; undefined when there is none. */
  repo(): Promise<string | undefined>
}

export interface BuildMcpServerOptions {
  version: string
  /** Called with every non-MemError a tool throws (a bug); the agent sees only a generic message. */
  onInternalError?: (err: unknown, tool: string) => void
  /** Sees every tool call while it runs (stdio waits for them before closing the context). */
  track?: (call: Promise<unknown>) => void
  /** Which tools to list and answer: the lean default set or all of them (`--tools all`). */
  tools?: ToolSet
}

// The Server builds a JSON Schema validator (a new Ajv) per instance, and HTTP builds a server per
// request; it is only used for elicitation, which mem never asks for: one shared, made on demand.
let ajv: AjvJsonSchemaValidator | undefined
const sharedValidator: jsonSchemaValidator = {getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema)}

const listings = new Map<ToolSet, ToolListing[]>()

/** The tools/list answer of a set (lean by default), built once per process from the catalog. */
export function listTools(set: ToolSet = 'lean'): ToolListing[] {
  let listing = listings.get(set)
  if (!listing) listings.set(set, (listing = toolsOf(set).map((def) => toolListing(def, set))))
  return listing
}

/** A MemError (or a bug) as a tool error: the message and hint every face shows, never a stack. */
export function toolError(err: unknown): CallToolResult {
  const body = errorBody(err)
  return {isError: true, content: [{type: 'text', text: body.hint ? `${body.error}\nHint: ${body.hint}` : body.error}]}
}

/** Runs one tool call against the core; every outcome is a tool result, never a thrown error. */
export async function callTool(
  ctx: MemContext,
  binding: McpBinding,
  name: string,
  rawArgs: unknown,
  onInternalError?: (err: unknown, tool: string) => void,
  set: ToolSet = 'all',
): Promise<CallToolResult> {
  const def = findTool(name)
  if (!def || (set === 'lean' && !def.lean)) {
    const more = def ? ` ${name} is one of mem's ${TOOLS.length} tools, listed with \`mem mcp --tools all\` (or mcp.tools: all in the user config).` : ''
    throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${name}. tools/list names the ${toolsOf(set).length} tools of this server.${more}`)
  }
  const given: Record<string, unknown> = rawArgs && typeof rawArgs === 'object' && !Array.isArray(rawArgs) ? {...(rawArgs as Record<string, unknown>)} : {}
  try {
    const args = toOperationArgs(def, given)
    if (def.repo !== 'none' && (args.repo === undefined || args.repo === null || args.repo === '')) {
      const bound = await binding.repo()
      if (bound === undefined) delete args.repo
      else args.repo = bound
    }
    const result = await runTool(def, ctx, args)
    // remote mode, the team server unreachable: the write waits in the outbox (no output schema's shape yet)
    if (isQueued(result)) return {content: [{type: 'text', text: queuedText(result)}]}
    return {
      isError: isToolError(def, result),
      content: [{type: 'text', text: def.render(result as never, args)}],
      structuredContent: result as Record<string, unknown>,
    }
  } catch (err) {
    if (!(err instanceof MemError)) onInternalError?.(err, name)
    return toolError(err)
  }
}

/** An MCP server (not yet connected) answering the catalog for `ctx` and `binding`. */
export function buildMcpServer(ctx: MemContext, binding: McpBinding, options: BuildMcpServerOptions): Server {
  const server = new Server({name: SERVER_NAME, title: 'mem: memory for coding agents', version: options.version}, {
    capabilities: {tools: {}},
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  })
  const set = options.tools ?? 'lean'
  server.setRequestHandler(ListToolsRequestSchema, () => ({tools: listTools(set)}))
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const call = callTool(ctx, binding, req.params.name, req.params.arguments, options.onInternalError, set)
    options.track?.(call)
    return call
  })
  return server
}
