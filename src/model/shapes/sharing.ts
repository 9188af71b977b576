/** Shapes of packs, layers and links. */
import {z} from 'zod'
import {Iso} from './common.js'

export const PackImportResult = z.strictObject({
  imported: z.number().int(),
  skipped: z.number().int().describe('Entries not written: duplicates, or flagged by the secret scanner or content gate'),
  packId: z.string(),
  name: z.string(),
  version: z.string(),
})
export type PackImportResult = z.output<typeof PackImportResult>

export const LAYER_TYPES = ['local', 'shared', 'base'] as const
export const Layer = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    type: z.enum(LAYER_TYPES),
    source: z.string().nullable().describe('A directory of packs or a git remote; for `local`, the repo root; null when mounted without a source'),
    mountedAt: Iso.nullable(),
    lastSyncAt: Iso.nullable(),
    memoryCount: z.number().int(),
  })
  .meta({id: 'Layer'})
export type Layer = z.output<typeof Layer>
export const LayersResult = z.strictObject({repo: z.string(), layers: z.array(Layer)})
export type LayersResult = z.output<typeof LayersResult>
export const SyncResult = z.strictObject({
  layerId: z.string(),
  added: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  failed: z.number().int().min(1).optional().describe('Entries whose write into the layer failed (the layer keeps what it had for them); absent when none did'),
  error: z.string().optional().describe("The first such failure's message; with `failed`"),
})
export type SyncResult = z.output<typeof SyncResult>
export const UnmountResult = z.strictObject({unmounted: z.literal(true)})
export type UnmountResult = z.output<typeof UnmountResult>

export const RepoLink = z.strictObject({id: z.string(), from: z.string(), to: z.string(), note: z.string(), createdAt: Iso}).meta({id: 'RepoLink'})
export type RepoLink = z.output<typeof RepoLink>
export const LinkCreated = z.strictObject({id: z.string(), from: z.string(), to: z.string(), note: z.string()})
export type LinkCreated = z.output<typeof LinkCreated>
export const LinksResult = z.strictObject({repo: z.string(), links: z.array(RepoLink)})
export type LinksResult = z.output<typeof LinksResult>
export const LinkedResult = z.strictObject({linked: z.literal(true)})
export type LinkedResult = z.output<typeof LinkedResult>
export const RemovedResult = z.strictObject({removed: z.boolean()})
export type RemovedResult = z.output<typeof RemovedResult>
