/**
 * Vocabularies more than one layer names, without loading anything (no zod): a command's flags
 * are built when the CLI starts, so what they list must be cheap to import.
 */

/** The stages of a maintenance pass, in the order it runs them. */
export const STAGE_NAMES = ['ttl-expiry', 'retention', 'dedup', 'decay', 'cleanup', 'enrichment', 'consolidation'] as const
export type StageName = (typeof STAGE_NAMES)[number]
