import type {EnrichmentConfig} from '../../config/user-config.js'
import {createEmbedder} from '../enrichment/embed.js'
import type {MeaningModel} from './model.js'

/**
 * The embedding model of the enrichment runtime (Ollama or OpenAI-compatible, docs/enrichment.md)
 * as the meaning model. Its vectors are stored under the runtime's model name, as `mem enrich`
 * stores them. A query waits at most `enrichment.embeddings.timeoutMs`.
 */
export function runtimeModel(config: EnrichmentConfig): MeaningModel {
  const e = createEmbedder(config)
  if (!e) throw new Error('enrichment.embeddings is not enabled in config.yaml')
  return {
    id: e.model,
    dims: config.embeddings?.dims ?? 0,
    about: {kind: 'runtime', name: e.model, sizeBytes: null, licence: "the model's own", source: `${e.provider} at ${e.url}`},
    embed: (texts, options) => e.embed(texts, options?.query ? e.queryTimeoutMs : e.batchTimeoutMs),
  }
}
