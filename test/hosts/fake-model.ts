// A scripted language-model server for the real-host tests: it listens on 127.0.0.1 (a free port),
// records every request a host sends, and answers in the host's API (Anthropic Messages, OpenAI
// Responses, Gemini generateContent, OpenAI chat completions), streaming where the host asks for it.
// Its script is small: when the newest user turn says RECALL and a memory_recall tool is offered,
// it calls that tool once (query from the prompt); otherwise it answers a short text.
import {createServer, type IncomingMessage, type Server, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'

export interface Recorded {
  method: string
  path: string
  body: any
  /** Everything the request carried as text (system, messages, tools), for assertions. */
  text: string
}

export interface FakeModel {
  url: string
  port: number
  requests: Recorded[]
  close(): Promise<void>
}

/** The text of a request body as one string (every string value in it, in order). */
export function textOf(value: unknown): string {
  const out: string[] = []
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v)
    else if (Array.isArray(v)) v.forEach(walk)
    else if (v && typeof v === 'object') Object.values(v).forEach(walk)
  }
  walk(value)
  return out.join('\n')
}

/** What the script does next: call a tool (its name as the host lists it) or say something. */
export type Step = {tool: string; input: Record<string, unknown>} | {say: string}

/** Where a turn stands: the user's newest words, the tools offered, the tools called since those words. */
export interface Turn {
  prompt: string
  tools: string[]
  called: string[]
  /** Text of the tool results that came back since the prompt. */
  results: string
}

/** The query a prompt asks the model to recall: the words after RECALL. */
export function recallQuery(prompt: string): string | null {
  const m = /RECALL:? ([^\n<]+)/.exec(prompt)
  return m ? m[1].trim() : null
}

function sse(res: ServerResponse, events: Array<{event?: string; data: unknown}>) {
  res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'})
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${JSON.stringify(e.data)}\n\n`)
  res.end()
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = []
  for await (const c of req) chunks.push(c as Buffer)
  const raw = Buffer.concat(chunks).toString('utf8')
  try {
    return raw ? JSON.parse(raw) : {}
  } catch {
    return {raw}
  }
}

let counter = 0
const id = (p: string) => `${p}_${Date.now().toString(36)}${(counter++).toString(36)}`

// ---- Anthropic Messages (Claude Code) ----------------------------------------------------------

function anthropicTurn(body: any): Turn {
  const messages: any[] = body.messages ?? []
  const parts = (m: any) => (typeof m.content === 'string' ? [{type: 'text', text: m.content}] : (m.content ?? []))
  // the newest user message with words of its own (not only tool results) starts the turn
  const own = (m: any) => m.role === 'user' && parts(m).some((c: any) => c.type === 'text') && !parts(m).some((c: any) => c.type === 'tool_result')
  let start = messages.length - 1
  while (start > 0 && !own(messages[start])) start--
  const called: string[] = []
  let results = ''
  for (const m of messages.slice(start + 1)) {
    for (const c of parts(m)) {
      if (m.role === 'assistant' && c.type === 'tool_use') called.push(c.name)
      if (c.type === 'tool_result') results += `${textOf(c.content)}\n`
    }
  }
  const prompt = messages[start] ? textOf(parts(messages[start]).filter((c: any) => c.type === 'text')) : ''
  return {prompt, tools: (body.tools ?? []).map((t: any) => t.name), called, results}
}

function anthropic(body: any, res: ServerResponse, decide: (turn: Turn) => Step) {
  const step = decide(anthropicTurn(body))
  const model = body.model ?? 'claude-test'
  const start = {type: 'message_start', message: {id: id('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: {input_tokens: 10, output_tokens: 1}}}
  const blocks: Array<{event: string; data: unknown}> = []
  let stop = 'end_turn'
  if ('tool' in step) {
    stop = 'tool_use'
    blocks.push(
      {event: 'content_block_start', data: {type: 'content_block_start', index: 0, content_block: {type: 'tool_use', id: id('toolu'), name: step.tool, input: {}}}},
      {event: 'content_block_delta', data: {type: 'content_block_delta', index: 0, delta: {type: 'input_json_delta', partial_json: JSON.stringify(step.input)}}},
      {event: 'content_block_stop', data: {type: 'content_block_stop', index: 0}},
    )
  } else {
    blocks.push(
      {event: 'content_block_start', data: {type: 'content_block_start', index: 0, content_block: {type: 'text', text: ''}}},
      {event: 'content_block_delta', data: {type: 'content_block_delta', index: 0, delta: {type: 'text_delta', text: step.say}}},
      {event: 'content_block_stop', data: {type: 'content_block_stop', index: 0}},
    )
  }
  const end = [
    {event: 'message_delta', data: {type: 'message_delta', delta: {stop_reason: stop, stop_sequence: null}, usage: {output_tokens: 5}}},
    {event: 'message_stop', data: {type: 'message_stop'}},
  ]
  if (body.stream) return sse(res, [{event: 'message_start', data: start}, ...blocks, ...end])
  res.writeHead(200, {'content-type': 'application/json'})
  res.end(JSON.stringify({...start.message, content: 'tool' in step ? [{type: 'tool_use', id: id('toolu'), name: step.tool, input: step.input}] : [{type: 'text', text: step.say}], stop_reason: stop, usage: {input_tokens: 10, output_tokens: 5}}))
}

// ---- Gemini generateContent (Gemini CLI) ----------------------------------------------------------

function geminiTurn(body: any): Turn {
  const contents: any[] = body.contents ?? []
  const own = (c: any) => c.role === 'user' && (c.parts ?? []).some((p: any) => typeof p.text === 'string') && !(c.parts ?? []).some((p: any) => p.functionResponse)
  let start = contents.length - 1
  while (start > 0 && !own(contents[start])) start--
  const called: string[] = []
  let results = ''
  for (const c of contents.slice(start + 1)) {
    for (const p of c.parts ?? []) {
      if (p.functionCall) called.push(p.functionCall.name)
      if (p.functionResponse) results += `${textOf(p.functionResponse)}\n`
    }
  }
  const prompt = contents[start] ? textOf((contents[start].parts ?? []).filter((p: any) => typeof p.text === 'string')) : ''
  const tools = (body.tools ?? []).flatMap((t: any) => (t.functionDeclarations ?? []).map((f: any) => f.name))
  return {prompt, tools, called, results}
}

/** A value of a JSON schema (the host's own side calls, e.g. Gemini CLI's model router, ask for JSON). */
function fromSchema(schema: any): unknown {
  const type = String(schema?.type ?? 'object').toLowerCase()
  if (Array.isArray(schema?.enum) && schema.enum.length) return schema.enum[0]
  if (type === 'object') return Object.fromEntries(Object.entries(schema?.properties ?? {}).map(([k, v]) => [k, fromSchema(v)]))
  if (type === 'array') return []
  if (type === 'integer' || type === 'number') return 10
  if (type === 'boolean') return false
  return 'test'
}

function gemini(body: any, stream: boolean, res: ServerResponse, decide: (turn: Turn) => Step) {
  const config = body.generationConfig ?? {}
  const json = config.responseMimeType === 'application/json'
  const step: Step = json ? {say: JSON.stringify(fromSchema(config.responseJsonSchema ?? config.responseSchema ?? {}))} : decide(geminiTurn(body))
  const part = 'tool' in step ? {functionCall: {name: step.tool, args: step.input}} : {text: step.say}
  const chunk = {candidates: [{content: {role: 'model', parts: [part]}, finishReason: 'STOP', index: 0}], usageMetadata: {promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15}, modelVersion: 'gemini-test'}
  if (stream) return sse(res, [{data: chunk}])
  res.writeHead(200, {'content-type': 'application/json'})
  res.end(JSON.stringify(chunk))
}

// ---- OpenAI Responses (Codex CLI) --------------------------------------------------------------

/** Names of the tools a request offers; a tool in a namespace (Codex groups MCP tools so) as `namespace::name`. */
function toolNames(tools: unknown): string[] {
  const out: string[] = []
  const walk = (t: any, namespace: string) => {
    if (!t || typeof t !== 'object') return
    if (Array.isArray(t)) return t.forEach((x) => walk(x, namespace))
    if (Array.isArray(t.tools)) walk(t.tools, typeof t.name === 'string' ? t.name : namespace)
    else if (typeof t.name === 'string') out.push(namespace ? `${namespace}::${t.name}` : t.name)
    else if (t.function?.name) out.push(t.function.name)
  }
  walk(tools, '')
  return out
}

function responsesTurn(body: any): Turn {
  const input: any[] = Array.isArray(body.input) ? body.input : [{type: 'message', role: 'user', content: [{type: 'input_text', text: String(body.input ?? '')}]}]
  let start = input.length - 1
  while (start > 0 && !(input[start].type === 'message' && input[start].role === 'user')) start--
  const called: string[] = []
  let results = ''
  for (const item of input.slice(start + 1)) {
    if (item.type === 'function_call') called.push(item.namespace ? `${item.namespace}::${item.name}` : item.name)
    if (item.type === 'function_call_output') results += `${textOf(item.output)}\n`
  }
  return {prompt: input[start] ? textOf(input[start].content) : '', tools: toolNames(body.tools), called, results}
}

function responses(body: any, res: ServerResponse, decide: (turn: Turn) => Step) {
  const turn = responsesTurn(body)
  const step = decide(turn)
  const rid = id('resp')
  const item =
    'tool' in step
      ? {
          type: 'function_call',
          id: id('fc'),
          call_id: id('call'),
          ...(step.tool.includes('::') ? {namespace: step.tool.split('::')[0], name: step.tool.split('::')[1]} : {name: step.tool}),
          arguments: JSON.stringify(step.input),
          status: 'completed',
        }
      : {type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{type: 'output_text', text: step.say, annotations: []}]}
  const usage = {input_tokens: 10, input_tokens_details: {cached_tokens: 0}, output_tokens: 5, output_tokens_details: {reasoning_tokens: 0}, total_tokens: 15}
  const response = {id: rid, object: 'response', status: 'completed', model: body.model, output: [item], usage}
  if (!body.stream) {
    res.writeHead(200, {'content-type': 'application/json'})
    return res.end(JSON.stringify(response))
  }
  const events: Array<{event?: string; data: unknown}> = [
    {event: 'response.created', data: {type: 'response.created', response: {...response, status: 'in_progress', output: []}}},
    {event: 'response.output_item.added', data: {type: 'response.output_item.added', output_index: 0, item}},
  ]
  if (!('tool' in step)) events.push({event: 'response.output_text.delta', data: {type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: step.say}})
  events.push(
    {event: 'response.output_item.done', data: {type: 'response.output_item.done', output_index: 0, item}},
    {event: 'response.completed', data: {type: 'response.completed', response}},
  )
  sse(res, events)
}

// ---- OpenAI chat completions (OpenCode through @ai-sdk/openai-compatible) --------------------------

function chatTurn(body: any): Turn {
  const messages: any[] = body.messages ?? []
  let start = messages.length - 1
  while (start > 0 && messages[start].role !== 'user') start--
  const called: string[] = []
  let results = ''
  for (const m of messages.slice(start + 1)) {
    for (const c of m.tool_calls ?? []) called.push(c.function?.name)
    if (m.role === 'tool') results += `${textOf(m.content)}\n`
  }
  return {prompt: messages[start] ? textOf(messages[start].content) : '', tools: toolNames(body.tools), called, results}
}

function chat(body: any, res: ServerResponse, decide: (turn: Turn) => Step) {
  const step = decide(chatTurn(body))
  const cid = id('chatcmpl')
  const base = {id: cid, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model}
  const call = 'tool' in step ? {index: 0, id: id('call'), type: 'function', function: {name: step.tool, arguments: JSON.stringify(step.input)}} : null
  const finish = call ? 'tool_calls' : 'stop'
  const usage = {prompt_tokens: 10, completion_tokens: 5, total_tokens: 15}
  if (!body.stream) {
    res.writeHead(200, {'content-type': 'application/json'})
    const message = call ? {role: 'assistant', content: null, tool_calls: [call]} : {role: 'assistant', content: (step as {say: string}).say}
    return res.end(JSON.stringify({...base, object: 'chat.completion', choices: [{index: 0, message, finish_reason: finish}], usage}))
  }
  const delta = call ? {role: 'assistant', tool_calls: [call]} : {role: 'assistant', content: (step as {say: string}).say}
  res.writeHead(200, {'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive'})
  res.write(`data: ${JSON.stringify({...base, choices: [{index: 0, delta, finish_reason: null}]})}\n\n`)
  res.write(`data: ${JSON.stringify({...base, choices: [{index: 0, delta: {}, finish_reason: finish}], usage})}\n\n`)
  res.write('data: [DONE]\n\n')
  res.end()
}

// ---- the server --------------------------------------------------------------------------------

export interface FakeModelOptions {
  /** The script: what to do next in a turn. */
  decide?: (turn: Turn) => Step
}

/**
 * The default script. When the prompt says RECALL: call the offered tool whose name ends in
 * memory_recall, once (where the host defers MCP tools behind a ToolSearch tool, as Claude Code
 * does, load it with ToolSearch first); then, or otherwise, answer a short text.
 */
export function defaultDecide(turn: Turn): Step {
  const query = recallQuery(turn.prompt)
  const recalled = turn.called.some((t) => /memory_recall$/.test(t))
  if (query && !recalled) {
    const tool = turn.tools.find((t) => /memory_recall$/.test(t))
    if (tool) return {tool, input: {query}}
    if (turn.tools.includes('ToolSearch') && !turn.called.includes('ToolSearch')) return {tool: 'ToolSearch', input: {query: 'select:mcp__mem__memory_recall'}}
  }
  return {say: recalled ? 'Recalled.' : 'Done.'}
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModel> {
  const decide = options.decide ?? defaultDecide
  const requests: Recorded[] = []
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req)
      const path = (req.url ?? '').split('?')[0]
      requests.push({method: req.method ?? '', path, body, text: textOf(body)})
      if (req.method === 'POST' && path.endsWith('/messages/count_tokens')) {
        res.writeHead(200, {'content-type': 'application/json'})
        return res.end(JSON.stringify({input_tokens: 100}))
      }
      if (req.method === 'POST' && path.endsWith('/messages')) return anthropic(body, res, decide)
      if (req.method === 'POST' && path.endsWith('/responses')) return responses(body, res, decide)
      if (req.method === 'POST' && path.endsWith('/chat/completions')) return chat(body, res, decide)
      if (req.method === 'POST' && path.endsWith(':countTokens')) {
        res.writeHead(200, {'content-type': 'application/json'})
        return res.end(JSON.stringify({totalTokens: 100}))
      }
      if (req.method === 'POST' && /:(stream)?[gG]enerateContent$/.test(path)) return gemini(body, path.endsWith(':streamGenerateContent'), res, decide)
      res.writeHead(404, {'content-type': 'application/json'})
      res.end(JSON.stringify({error: {type: 'not_found', message: `fake model: no route ${req.method} ${path}`}}))
    })().catch((err) => {
      res.writeHead(500)
      res.end(String(err))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
