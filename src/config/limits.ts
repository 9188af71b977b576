/** The longest vector accepted from a runtime (and the most `enrichment.embeddings.dims` may say). */
export const MAX_EMBED_DIMS = 8_192
