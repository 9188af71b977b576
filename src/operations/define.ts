/**
 * An operation declared once. The declaration says what every face needs to know: its name,
 * input and output schemas, the scope it needs, how its outcomes map to HTTP statuses and exit
 * codes, how a call is counted for the usage statistics, and (when it has one) its HTTP route.
 * The server builds its routes and the OpenAPI document from the declarations, the MCP tools take
 * their schemas and outcomes from them, the CLI maps outcomes to exit codes through them, and the
 * client and the web UI take the result types (`import type`).
 *
 * This module holds no schema itself (zod is only a type here), so `invoke` costs nothing to load.
 */
import type {z} from 'zod'
import type {MemContext, RepoAccess, RepoHandle} from '../engines/context.js'

/** Who may call an operation over HTTP (decisions.md): admin ⊃ write ⊃ read; public needs no key. */
export type Access = 'public' | 'read' | 'write' | 'admin'

/** An answer that is not the plain success (a duplicate, a rejection): its HTTP status and exit code. */
export interface Outcome<O> {
  when(result: O): boolean
  /** HTTP status of the answer. */
  status: number
  /** The CLI's exit code. */
  exit: number
  /** Not what the caller asked for (a rejected store): MCP marks it a tool error, the CLI prints `message`. */
  failed?: boolean
  /** The text the CLI prints to stderr for a failed outcome. */
  message?(result: O): string
  /** What this answer is, for the route's documentation. */
  answer?: string
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** Where an operation answers over HTTP. */
export interface HttpBinding<I = unknown> {
  method: HttpMethod
  path: string
  /** The status of a plain success (default 200). */
  status?: number
  /** What the success answer is, for the route's documentation (default: the summary). */
  answer?: string
  /** The OpenAPI tag. */
  tag: string
  /** The route's query, path and body schemas (default: the input as query for GET/DELETE, as body otherwise). */
  query?: z.ZodObject
  params?: z.ZodObject
  body?: z.ZodType
  /** The operation's input from the request's parts (default: query or body, with the path parameters). */
  input?(parts: {query: Record<string, unknown>; params: Record<string, unknown>; body: unknown}): I
  /** More answers the route documents: status → description (their body is the error shape). */
  errors?: Record<number, string>
  /** Further paths answering the same operation (the legacy `/api/mem/search`). */
  aliases?: Array<{path: string; name: string; summary: string}>
  /** A body limit of its own (bytes), for a route that takes a file. */
  bodyLimit?: number
  /** The body carries a pack: JSON `{repo, data}` with `data` in base64, or the file itself (application/octet-stream, `?repo=`). */
  packBody?: boolean
  /** The answer when it is not the result as JSON: a file, markdown. */
  reply?: {contentType: string; description: string; body(result: unknown): string | Uint8Array; headers?(result: unknown): Record<string, string>}
}

export interface OpDef<I = unknown, O = unknown, P = never> {
  /** The operation's id: the route's operationId and the name usage is counted under. */
  name: string
  summary: string
  description?: string
  access: Access
  /** The input the operation validates (its own zod schema: every face gets the same messages). */
  input: z.ZodType
  /** What it answers (a strict schema of src/model/shapes). */
  output: z.ZodType<O>
  /** Answers other than the plain success; the first that matches applies. */
  outcomes?: ReadonlyArray<Outcome<NoInfer<O>>>
  /** Counting a call for the usage statistics: how many results it had; `false` when it is not counted. */
  track: false | {as?: string | ((input: I) => string); count(result: NoInfer<O>): number}
  /** The implementation; `options` are what a face may add (progress, a stop signal, the server's tasks). */
  run(ctx: MemContext, input: I, options?: P): Promise<NoInfer<O>>
  http?: HttpBinding<I>
}

export type OpInput<D> = D extends OpDef<infer I, any, any> ? I : never
export type OpOutput<D> = D extends OpDef<any, infer O, any> ? O : never

/**
 * What running an operation needs: its name, how it is counted, its implementation. An operation
 * with a path that must start without zod (`mem recall`) keeps this part beside its implementation,
 * and its declaration spreads it in.
 */
export type OpCall<I, O, P = never> = Pick<OpDef<I, O, P>, 'name' | 'track' | 'run'>

/** Declares an operation (an identity function that checks the declaration's types). */
export function defineOp<I, O, P = never>(def: OpDef<I, O, P>): OpDef<I, O, P> {
  return def
}

/** What an answer comes to on every face: its status, exit code, and whether it failed. */
export function outcomeOf<O>(op: {outcomes?: ReadonlyArray<Outcome<O>>; http?: {status?: number}}, result: O): {status: number; exit: number; failed: boolean; message?: string} {
  for (const o of op.outcomes ?? []) {
    if (o.when(result)) return {status: o.status, exit: o.exit, failed: o.failed ?? false, message: o.message?.(result)}
  }
  return {status: op.http?.status ?? 200, exit: 0, failed: false}
}

/**
 * Runs an operation as every face does: counted for the usage statistics as its declaration says
 * (under its name, with the repository it resolved first and its result count; a call that fails
 * is not counted). Counting costs a clock read and a map update: no I/O. In remote mode
 * (`ctx.remote`) the call goes first to the route, which may answer it from the team server.
 */
export async function invoke<C extends OpCall<any, any, any>>(ctx: MemContext, op: C, input: CallInput<C>, options?: CallOptions<C>): Promise<CallOutput<C>> {
  if (ctx.remote) {
    // remote mode: a call of a checkout mapped to a team server is answered there (and counted there)
    const routed = await ctx.remote.call(ctx, op, input)
    if (routed) return routed.result as CallOutput<C>
  }
  if (!op.track || !ctx.usage) return op.run(ctx, input, options)
  const as = op.track.as
  const done = ctx.usage.start((typeof as === 'function' ? as(input) : as) ?? op.name)
  let first: {root: string} | undefined
  const seen = <T extends {root: string}>(where: T): T => {
    first ??= where
    return where
  }
  const view: MemContext = {
    ...ctx,
    locate: async (ref: string, access: RepoAccess) => seen(await ctx.locate(ref, access)),
    repo: async (ref: string, access: RepoAccess, options?: {deferLoad?: boolean}): Promise<RepoHandle> => seen(await ctx.repo(ref, access, options)),
  }
  const result = await op.run(view, input, options)
  if (first) done(first, op.track.count(result))
  return result
}

type CallInput<C> = C extends {run(ctx: MemContext, input: infer I, ...rest: any[]): unknown} ? I : never
type CallOptions<C> = C extends {run(ctx: MemContext, input: any, options?: infer P): unknown} ? P : never
type CallOutput<C> = C extends {run(...args: any[]): Promise<infer O>} ? O : never
