import type {EnrichmentConfig} from '../../config/user-config.js'
import {MemError} from '../../model/errors.js'
import {requestJson} from './http.js'
import type {EnrichRuntime} from './types.js'

/**
 * Any OpenAI-compatible endpoint (llama.cpp server, LM Studio, vLLM, LocalAI …): POST
 * /v1/chat/completions, health GET /v1/models. The URL may name the /v1 base or the server root.
 */
export function openAiRuntime(config: EnrichmentConfig): EnrichRuntime {
  const root = config.url.replace(/(?<!\/)\/+$/, '')
  const base = /\/v\d+$/.test(root) ? root : `${root}/v1`
  const label = {provider: 'openai', model: config.model, url: base}
  return {
    provider: 'openai',
    model: config.model,
    url: base,
    timeoutMs: config.timeoutMs,
    async chat(messages) {
      const body = (await requestJson(label, `${base}/chat/completions`, {
        method: 'POST',
        timeoutMs: config.timeoutMs,
        body: {model: config.model, messages, temperature: 0, stream: false},
      })) as {choices?: Array<{message?: {content?: unknown}}>}
      const content = body?.choices?.[0]?.message?.content
      if (typeof content !== 'string') {
        throw new MemError('unavailable', `The OpenAI-compatible runtime (model ${config.model} at ${base}) answered without choices[0].message.content. The memory was left unchanged.`, {
          hint: 'Check the URL points at an OpenAI-compatible server (…/v1).',
        })
      }
      return content
    },
    async ping(timeoutMs = config.timeoutMs) {
      try {
        await requestJson(label, `${base}/models`, {method: 'GET', timeoutMs})
        return true
      } catch {
        return false
      }
    },
  }
}
