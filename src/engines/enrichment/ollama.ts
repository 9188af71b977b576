import type {EnrichmentConfig} from '../../config/user-config.js'
import {MemError} from '../../model/errors.js'
import {requestJson} from './http.js'
import type {EnrichRuntime} from './types.js'

/** Ollama's API: POST /api/chat (stream off, JSON format), health GET /api/tags. */
export function ollamaRuntime(config: EnrichmentConfig): EnrichRuntime {
  const base = config.url.replace(/(?<!\/)\/+$/, '')
  const label = {provider: 'ollama', model: config.model, url: base}
  return {
    provider: 'ollama',
    model: config.model,
    url: base,
    timeoutMs: config.timeoutMs,
    async chat(messages) {
      const body = (await requestJson(label, `${base}/api/chat`, {
        method: 'POST',
        timeoutMs: config.timeoutMs,
        body: {model: config.model, messages, stream: false, format: 'json', options: {temperature: 0}},
      })) as {message?: {content?: unknown}}
      const content = body?.message?.content
      if (typeof content !== 'string') {
        throw new MemError('unavailable', `Ollama (model ${config.model} at ${base}) answered without message.content. The memory was left unchanged.`, {
          hint: 'Check the URL points at Ollama (default http://127.0.0.1:11434).',
        })
      }
      return content
    },
    async ping(timeoutMs = config.timeoutMs) {
      try {
        await requestJson(label, `${base}/api/tags`, {method: 'GET', timeoutMs})
        return true
      } catch {
        return false
      }
    },
  }
}
