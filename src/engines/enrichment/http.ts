import {MemError, systemReason} from '../../model/errors.js'

/** The most of a runtime's answer that is read; a longer one is refused (and the rest never read). */
export const MAX_ANSWER_BYTES = 256 * 1024

export interface RuntimeLabel {
  provider: string
  model: string
  url: string
}

function label(r: RuntimeLabel): string {
  return `${r.provider} (model ${r.model} at ${r.url})`
}

function hint(r: RuntimeLabel): string {
  const start = r.provider === 'ollama' ? `Check that Ollama runs (\`ollama serve\`) and has the model (\`ollama pull ${r.model}\`)` : 'Check that the OpenAI-compatible server runs and serves that model'
  return `${start}, or raise enrichment.timeoutMs in the user config.yaml (\`mem status\` shows whether it answers).`
}

/**
 * A JSON request to a language-model runtime, bounded in time (AbortSignal) and in answer size.
 * Any failure is a MemError('unavailable') that names the runtime and the next step; the answer
 * body never appears in it.
 */
export async function requestJson(
  r: RuntimeLabel,
  url: string,
  init: {method: 'GET' | 'POST'; body?: unknown; timeoutMs: number; maxBytes?: number},
): Promise<unknown> {
  const maxBytes = init.maxBytes ?? MAX_ANSWER_BYTES
  const signal = AbortSignal.timeout(init.timeoutMs)
  let text: string
  try {
    const res = await fetch(url, {
      method: init.method,
      headers: {accept: 'application/json', ...(init.body === undefined ? {} : {'content-type': 'application/json'})},
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal,
    })
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined)
      throw new MemError('unavailable', `The enrichment runtime ${label(r)} answered HTTP ${res.status}. The memory was left unchanged.`, {hint: hint(r)})
    }
    text = await readCapped(res, r, maxBytes)
  } catch (err) {
    if (err instanceof MemError) throw err
    const name = (err as Error)?.name
    if (name === 'TimeoutError' || name === 'AbortError' || signal.aborted) {
      throw new MemError('unavailable', `The enrichment runtime ${label(r)} did not answer within ${init.timeoutMs} ms. The memory was left unchanged.`, {
        hint: hint(r),
        cause: err,
      })
    }
    const cause = (err as Error)?.cause
    const why = (cause as NodeJS.ErrnoException)?.code ? systemReason(cause) : 'the request failed'
    throw new MemError('unavailable', `The enrichment runtime ${label(r)} cannot be reached (${why}). The memory was left unchanged.`, {hint: hint(r), cause: err})
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new MemError('unavailable', `The enrichment runtime ${label(r)} answered with something that is not JSON. The memory was left unchanged.`, {hint: hint(r)})
  }
}

async function readCapped(res: Response, r: RuntimeLabel, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined)
    throw tooLarge(r, maxBytes)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const {done, value} = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge(r, maxBytes)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function tooLarge(r: RuntimeLabel, maxBytes: number): MemError {
  return new MemError('unavailable', `The enrichment runtime ${label(r)} answered with more than ${maxBytes / 1024} KB; it was not read. The memory was left unchanged.`, {
    hint: 'Use a model that follows the JSON format, or a smaller one.',
  })
}
