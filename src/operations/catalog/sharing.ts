/** Packs, layers and links. */
import {z} from 'zod'
import * as S from '../../model/shapes/sharing.js'
import {OptionalRepo, IdParams, one} from './common.js'
import {defineOp, type OpDef} from '../define.js'
import {LayerRefInput, listLayers, ListLayersInput, mountLayer, MountLayerInput, syncLayer, unmountLayer} from '../layers.js'
import {linkMemory, LinkMemoryInput, linkRepo, LinkRepoInput, listLinks, ListLinksInput, unlinkMemory, UnlinkMemoryInput} from '../links.js'
import {packExport, PackExportInput} from '../pack-export.js'
import {packImport, PackImportInput} from '../pack-import.js'
import {MAX_PACK_BYTES} from '../../storage/pack-file.js'


export const sharingOps = {
  packExport: defineOp({
    name: 'packExport',
    summary: "Export the repo's live memories as a .mem pack",
    description: 'The answer is the pack file itself (a SQLite database with a `manifest` table and the entries), as an attachment `<name>.mem` (the pack name: by default the name of the repository folder).',
    // a POST, so write (decisions.md: every POST, PUT and DELETE needs write), though it changes nothing
    access: 'write',
    input: PackExportInput,
    output: z.custom<Awaited<ReturnType<typeof packExport>>>(),
    track: {as: 'pack-export', count: (r) => r.manifest.entryCount},
    run: packExport,
    http: {
      method: 'POST',
      path: '/api/mem/packs/export',
      tag: 'sharing',
      query: PackExportInput,
      reply: {
        contentType: 'application/octet-stream',
        description: 'The .mem pack file',
        body: (r) => (r as Awaited<ReturnType<typeof packExport>>).data,
        headers: (r) => {
          const {manifest, fileName} = r as Awaited<ReturnType<typeof packExport>>
          return {'content-disposition': contentDisposition(fileName), 'x-mem-pack-id': manifest.packId, 'x-mem-pack-entries': String(manifest.entryCount)}
        },
      },
    },
  }),
  packImport: defineOp({
    name: 'packImport',
    summary: 'Import a .mem pack into a repo',
    description:
      'The whole pack is checked before anything is written: a damaged, truncated, foreign or newer-format file answers 400 and writes nothing. Entries get new ids in this repo; duplicates and entries the secret scanner flags are skipped.',
    access: 'write',
    input: PackImportInput,
    output: S.PackImportResult,
    track: {as: 'pack-import', count: (r) => r.imported},
    run: packImport,
    http: {
      method: 'POST',
      path: '/api/mem/packs/import',
      answer: 'What was imported',
      tag: 'sharing',
      body: z.object({repo: PackImportInput.shape.repo, data: z.string({error: 'data (the pack file, base64) is required'}).describe('The .mem pack file, base64-encoded.')}),
      query: z.object({repo: z.string().optional().describe('The repository, when the body is the pack file itself (Content-Type: application/octet-stream).')}),
      // the file itself (application/octet-stream) with ?repo=, or the spec's JSON {repo, data}
      input: ({query, body}) => (body instanceof Uint8Array ? {repo: query.repo as string, data: body as Uint8Array<ArrayBuffer>} : (body as never)),
      packBody: true,
      bodyLimit: Math.ceil(MAX_PACK_BYTES / 3) * 4 + 64 * 1024,
      errors: {413: 'Pack over 64 MB'},
    },
  }),
  layers: defineOp({
    name: 'layers',
    summary: "The repo's layers: itself (local) and the mounted shared and base layers",
    access: 'read',
    input: ListLayersInput,
    output: S.LayersResult,
    track: {count: (r) => r.layers.length},
    run: listLayers,
    http: {method: 'GET', path: '/api/mem/layers', answer: 'Layers', tag: 'sharing'},
  }),
  mountLayer: defineOp({
    name: 'mountLayer',
    summary: 'Mount a shared or base layer (read-only) from a directory of packs or a git remote',
    description: 'The source is checked now; its memories arrive with the first sync.',
    access: 'write',
    input: MountLayerInput,
    output: S.Layer,
    track: {as: 'layer-mount', count: one},
    run: mountLayer,
    http: {method: 'POST', path: '/api/mem/layers/mount', answer: 'The mounted layer', status: 201, tag: 'sharing', errors: {409: 'A layer with this id is mounted already'}},
  }),
  syncLayer: defineOp({
    name: 'syncLayer',
    summary: 'Sync a mounted layer with its source (git clone or pull)',
    access: 'write',
    input: LayerRefInput,
    output: S.SyncResult,
    // entries whose write failed (`failed`, `error`): the rest synced; the CLI exits 1, as maintain with a failed stage
    outcomes: [{when: (r) => r.failed !== undefined, status: 200, exit: 1, answer: 'What changed, and how many entries could not be written (`failed`, `error`)'}],
    track: {as: 'layer-sync', count: (r) => r.added + r.updated + r.removed},
    run: syncLayer,
    http: {method: 'POST', path: '/api/mem/layers/sync', answer: 'What changed', tag: 'sharing', errors: {404: 'No such layer', 503: 'git could not fetch the source'}},
  }),
  unmountLayer: defineOp({
    name: 'unmountLayer',
    summary: 'Unmount a layer and delete its cache',
    access: 'write',
    input: LayerRefInput,
    output: S.UnmountResult,
    track: {as: 'layer-unmount', count: one},
    run: unmountLayer,
    http: {
      method: 'DELETE',
      path: '/api/mem/layers/:layerId',
      answer: 'Unmounted',
      tag: 'sharing',
      params: z.object({layerId: LayerRefInput.shape.layerId}),
      query: z.object({repo: LayerRefInput.shape.repo}),
      errors: {404: 'No such layer'},
    },
  }),
  links: defineOp({
    name: 'links',
    summary: "The repo's cross-repo links (memories tagged cross-repo-link)",
    access: 'read',
    input: ListLinksInput,
    output: S.LinksResult,
    track: {count: (r) => r.links.length},
    run: listLinks,
    http: {method: 'GET', path: '/api/mem/links', answer: 'Links, newest first', tag: 'sharing'},
  }),
  linkRepo: defineOp({
    name: 'linkRepo',
    summary: 'Link the repo to another registered repository',
    description: "Only a repository mem knows (GET /api/mem/repos) can be linked; a linked repo's memories join recall, weighted 0.8.",
    access: 'write',
    input: LinkRepoInput,
    output: S.LinkCreated,
    track: {as: 'link-repo', count: one},
    run: linkRepo,
    http: {method: 'POST', path: '/api/mem/links', answer: 'The link', status: 201, tag: 'sharing', errors: {404: 'Unknown target repository', 409: 'Already linked', 422: 'The note was flagged by the secret scanner'}},
  }),
  linkMemory: defineOp({
    name: 'linkMemory',
    summary: 'Attach a link to a memory',
    access: 'write',
    input: LinkMemoryInput,
    output: S.LinkedResult,
    track: {as: 'link', count: one},
    run: linkMemory,
    http: {method: 'POST', path: '/api/mem/:id/links', answer: 'Linked', tag: 'sharing', params: IdParams, body: LinkMemoryInput.omit({id: true}), errors: {404: 'No such memory', 409: 'The memory is superseded or forgotten'}},
  }),
  unlinkMemory: defineOp({
    name: 'unlinkMemory',
    summary: "Remove a memory's link to targetId",
    description: '`removed` is false when there was no such link.',
    access: 'write',
    input: UnlinkMemoryInput,
    output: S.RemovedResult,
    track: {as: 'unlink', count: (r) => (r.removed ? 1 : 0)},
    run: unlinkMemory,
    http: {method: 'DELETE', path: '/api/mem/:id/links', answer: '`removed` is false when there was no such link', tag: 'sharing', params: IdParams, body: z.object({targetId: UnlinkMemoryInput.shape.targetId, repo: OptionalRepo}), errors: {404: 'No such memory'}},
  }),
} satisfies Record<string, OpDef<any, any, any>>

/**
 * `attachment` with the file name: an ASCII fallback (quotes, controls and anything outside ASCII
 * replaced) and the exact name in RFC 5987 form, so a repo id in any script makes a valid header.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')
  return ascii === fileName ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}
