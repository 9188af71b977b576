import type {FastifyInstance} from 'fastify'
import {z} from 'zod'
import {listLayers, LayerRefInput, ListLayersInput, mountLayer, MountLayerInput, syncLayer, unmountLayer} from '../../../operations/layers.js'
import {linkMemory, LinkMemoryInput, linkRepo, LinkRepoInput, listLinks, ListLinksInput, unlinkMemory} from '../../../operations/links.js'
import type {MemContext} from '../../../engines/context.js'
import {packExport, PackExportInput} from '../../../operations/pack-export.js'
import {packImport} from '../../../operations/pack-import.js'
import {RepoRef} from '../../../model/schemas.js'
import {MAX_PACK_BYTES} from '../../../storage/pack-file.js'
import type {RouteTable} from '../route.js'
import {ErrorResponse, IdParams} from '../schemas.js'

const TAG = 'sharing'
const Iso = z.string().describe('ISO 8601 UTC timestamp')
const ERRORS = {400: {description: 'Invalid input', schema: ErrorResponse}}
const NOT_FOUND = (what: string) => ({404: {description: what, schema: ErrorResponse}})

// ---- shapes (decisions.md, shapes agreed between branches) ---------------------------------------

export const PackImportBody = z.object({
  repo: RepoRef,
  data: z.string({error: 'data (the pack file, base64) is required'}).describe('The .mem pack file, base64-encoded.'),
})
export const PackImportResponse = z.strictObject({
  imported: z.number().int(),
  skipped: z.number().int().describe('Entries not written: duplicates, or flagged by the secret scanner or content gate'),
  packId: z.string(),
  name: z.string(),
  version: z.string(),
})
export const LayerSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    type: z.enum(['local', 'shared', 'base']),
    source: z.string().nullable().describe('A directory of packs or a git remote; for `local`, the repo root; null when mounted without a source'),
    mountedAt: Iso.nullable(),
    lastSyncAt: Iso.nullable(),
    memoryCount: z.number().int(),
  })
  .meta({id: 'Layer'})
export const LayersResponse = z.strictObject({repo: z.string(), layers: z.array(LayerSchema)})
export const SyncResponse = z.strictObject({layerId: z.string(), added: z.number().int(), updated: z.number().int(), removed: z.number().int()})
export const UnmountResponse = z.strictObject({unmounted: z.literal(true)})
export const RepoLinkSchema = z.strictObject({id: z.string(), from: z.string(), to: z.string(), note: z.string(), createdAt: Iso}).meta({id: 'RepoLink'})
export const LinkCreated = z.strictObject({id: z.string(), from: z.string(), to: z.string(), note: z.string()})
export const LinksResponse = z.strictObject({repo: z.string(), links: z.array(RepoLinkSchema)})
export const LinkedResponse = z.strictObject({linked: z.literal(true)})
export const RemovedResponse = z.strictObject({removed: z.boolean()})

const LayerParams = z.object({layerId: LayerRefInput.shape.layerId})
const RepoQuery = z.object({repo: RepoRef})
const MemoryLinkBody = LinkMemoryInput.omit({id: true})
const MemoryUnlinkBody = z.object({targetId: LinkMemoryInput.shape.targetId, repo: z.string().optional()})

/**
 * `attachment` with the file name: an ASCII fallback (quotes, controls and anything outside ASCII
 * replaced) and the exact name in RFC 5987 form, so a repo id in any script makes a valid header.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return ascii === fileName ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}

/** Packs, layers and links (spec section 4): adapters over src/operations/{pack-*,layers,links}.ts. */
export function sharingRoutes(app: FastifyInstance, routes: RouteTable, ctx: MemContext): void {
  routes.add(app, {
    method: 'POST',
    url: '/api/mem/packs/export',
    operationId: 'packExport',
    tag: TAG,
    summary: 'Export the repo\'s live memories as a .mem pack',
    description: 'The answer is the pack file itself (a SQLite database with a `manifest` table and the entries), as an attachment `<repoId>.mem`.',
    query: PackExportInput,
    responses: {200: {description: 'The .mem pack file', contentType: 'application/octet-stream'}, ...ERRORS},
    handler: async (req, reply) => {
      const {data, manifest, fileName} = await packExport(ctx, req.query)
      return reply
        .code(200)
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', contentDisposition(fileName))
        .header('x-mem-pack-id', manifest.packId)
        .header('x-mem-pack-entries', String(manifest.entryCount))
        .send(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
    },
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/packs/import',
    operationId: 'packImport',
    tag: TAG,
    summary: 'Import a .mem pack into a repo',
    description:
      'The whole pack is checked before anything is written: a damaged, truncated, foreign or newer-format file answers 400 and writes nothing. Entries get new ids in this repo; duplicates and entries the secret scanner flags are skipped.',
    body: PackImportBody,
    bodyLimit: Math.ceil(MAX_PACK_BYTES / 3) * 4 + 64 * 1024,
    responses: {200: {description: 'What was imported', schema: PackImportResponse}, ...ERRORS, 413: {description: 'Pack over 64 MB', schema: ErrorResponse}},
    handler: async (req) => packImport(ctx, req.body),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/layers',
    operationId: 'layers',
    tag: TAG,
    summary: 'The repo\'s layers: itself (local) and the mounted shared and base layers',
    query: ListLayersInput,
    responses: {200: {description: 'Layers', schema: LayersResponse}, ...ERRORS},
    handler: async (req) => listLayers(ctx, req.query),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/layers/mount',
    operationId: 'mountLayer',
    tag: TAG,
    summary: 'Mount a shared or base layer (read-only) from a directory of packs or a git remote',
    description: 'The source is checked now; its memories arrive with the first sync.',
    body: MountLayerInput,
    responses: {201: {description: 'The mounted layer', schema: LayerSchema}, ...ERRORS, 409: {description: 'A layer with this id is mounted already', schema: ErrorResponse}},
    handler: async (req, reply) => reply.code(201).send(await mountLayer(ctx, req.body)),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/layers/sync',
    operationId: 'syncLayer',
    tag: TAG,
    summary: 'Sync a mounted layer with its source (git clone or pull)',
    body: LayerRefInput,
    responses: {
      200: {description: 'What changed', schema: SyncResponse},
      ...ERRORS,
      ...NOT_FOUND('No such layer'),
      503: {description: 'git could not fetch the source', schema: ErrorResponse},
    },
    handler: async (req) => syncLayer(ctx, req.body),
  })

  routes.add(app, {
    method: 'DELETE',
    url: '/api/mem/layers/:layerId',
    operationId: 'unmountLayer',
    tag: TAG,
    summary: 'Unmount a layer and delete its cache',
    params: LayerParams,
    query: RepoQuery,
    responses: {200: {description: 'Unmounted', schema: UnmountResponse}, ...ERRORS, ...NOT_FOUND('No such layer')},
    handler: async (req) => unmountLayer(ctx, {repo: req.query.repo, layerId: req.params.layerId}),
  })

  routes.add(app, {
    method: 'GET',
    url: '/api/mem/links',
    operationId: 'links',
    tag: TAG,
    summary: 'The repo\'s cross-repo links (memories tagged cross-repo-link)',
    query: ListLinksInput,
    responses: {200: {description: 'Links, newest first', schema: LinksResponse}, ...ERRORS},
    handler: async (req) => listLinks(ctx, req.query),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/links',
    operationId: 'linkRepo',
    tag: TAG,
    summary: 'Link the repo to another registered repository',
    description: 'Only a repository mem knows (GET /api/mem/repos) can be linked; a linked repo\'s memories join recall, weighted 0.8.',
    body: LinkRepoInput,
    responses: {
      201: {description: 'The link', schema: LinkCreated},
      ...ERRORS,
      ...NOT_FOUND('Unknown target repository'),
      409: {description: 'Already linked', schema: ErrorResponse},
      422: {description: 'The note was flagged by the secret scanner', schema: ErrorResponse},
    },
    handler: async (req, reply) => reply.code(201).send(await linkRepo(ctx, req.body)),
  })

  routes.add(app, {
    method: 'POST',
    url: '/api/mem/:id/links',
    operationId: 'linkMemory',
    tag: TAG,
    summary: 'Attach a link to a memory',
    params: IdParams,
    body: MemoryLinkBody,
    responses: {200: {description: 'Linked', schema: LinkedResponse}, ...ERRORS, ...NOT_FOUND('No such memory'), 409: {description: 'The memory is superseded or forgotten', schema: ErrorResponse}},
    handler: async (req) => linkMemory(ctx, {...req.body, id: req.params.id}),
  })

  routes.add(app, {
    method: 'DELETE',
    url: '/api/mem/:id/links',
    operationId: 'unlinkMemory',
    tag: TAG,
    summary: 'Remove a memory\'s link to targetId',
    params: IdParams,
    body: MemoryUnlinkBody,
    responses: {200: {description: '`removed` is false when there was no such link', schema: RemovedResponse}, ...ERRORS, ...NOT_FOUND('No such memory')},
    handler: async (req) => unlinkMemory(ctx, {...(req.body ?? {}), id: req.params.id} as never),
  })
}
