import type {EnrichProvider} from '../../config/user-config.js'

export interface ChatMessage {
  role: 'system' | 'user'
  content: string
}

/** A local language-model runtime over HTTP (Ollama's API or an OpenAI-compatible one). */
export interface EnrichRuntime {
  provider: EnrichProvider
  model: string
  url: string
  timeoutMs: number
  /** The model's answer text. Throws MemError('unavailable') on timeout, an HTTP error, or an oversized answer. */
  chat(messages: ChatMessage[]): Promise<string>
  /** True when the runtime answers its health endpoint (Ollama /api/tags, OpenAI /v1/models) in time. */
  ping(timeoutMs?: number): Promise<boolean>
}
