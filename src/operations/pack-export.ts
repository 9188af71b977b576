import {createHash} from 'node:crypto'
import {basename} from 'node:path'
import {z} from 'zod'
import {MemError} from '../model/errors.js'
import {entriesTextBytes, liveRowsAndVectorsForPack, MAX_PACK_BYTES, MAX_PACK_ENTRIES, MAX_PACK_TEXT_BYTES, PACK_FORMAT, PACK_FORMAT_VERSION, packChecksum, PLAIN_PACK_FORMAT_VERSION, type PackManifest, writePackFile} from '../storage/pack-file.js'
import {CROSS_REPO_LINK_TAG} from './links.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

const Label = (what: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${what} is empty`)
    .max(max, `${what} is longer than ${max} characters`)
    .regex(/^[\p{L}\p{N}][\p{L}\p{N}._@+-]*$/u, `${what} may hold letters, digits and . _ @ + - only`)

export const PackExportInput = z.object({
  repo: RepoRef,
  name: Label('name', 200).optional().describe("Pack name (default: the repository's folder name)."),
  version: Label('version', 100).optional().describe('Pack version (default: the export time, YYYYMMDD.HHMMSS).'),
})
export type PackExportInput = z.input<typeof PackExportInput>

export interface PackExportResult {
  /** The `.mem` file. */
  data: Uint8Array
  manifest: PackManifest
  /** The file name to suggest: `<name>.mem` (the pack's name: a folder name people can type). */
  fileName: string
}

/**
 * Writes the repo's live memories (cross-repo links left out: they name this machine's repos)
 * into a `.mem` pack: a SQLite file with a manifest and a checksum of the entries. Reads only.
 */
export async function packExport(ctx: MemContext, raw: PackExportInput): Promise<PackExportResult> {
  const input = parseInput(PackExportInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  // with each memory's meaning vector when it has one: an importer using the same model does not embed it again
  const {entries, vectors} = handle.store.read((db) => liveRowsAndVectorsForPack(db, CROSS_REPO_LINK_TAG))
  if (entries.length > MAX_PACK_ENTRIES) {
    throw new MemError('payload_too_large', `The repo has ${entries.length.toLocaleString('en-US')} live memories; a pack holds at most ${MAX_PACK_ENTRIES.toLocaleString('en-US')}.`, {
      hint: 'Forget or consolidate memories first (`mem maintain`).',
    })
  }
  // import refuses a pack holding more text than this, so export never writes one
  const textBytes = entriesTextBytes(entries)
  if (textBytes > MAX_PACK_TEXT_BYTES) {
    throw new MemError('payload_too_large', `The repo's live memories hold ${textBytes.toLocaleString('en-US')} bytes of text; a pack holds at most ${MAX_PACK_TEXT_BYTES.toLocaleString('en-US')}.`, {
      hint: 'Forget or consolidate memories first (`mem maintain`).',
    })
  }
  const createdAt = ctx.now().toISOString()
  let entriesSha256 = packChecksum(entries, vectors)
  const name = input.name ?? packName(handle.root, handle.id)
  const version = input.version ?? createdAt.replace(/[-:]/g, '').replace('T', '.').slice(0, 15)
  const packId = `pack-${createHash('sha256').update(`${name}\n${version}\n${createdAt}\n${entriesSha256}`).digest('hex').slice(0, 16)}`
  const manifest: PackManifest = {
    format: PACK_FORMAT,
    formatVersion: vectors.size > 0 ? PACK_FORMAT_VERSION : PLAIN_PACK_FORMAT_VERSION,
    packId,
    name,
    version,
    sourceRepo: handle.id,
    createdAt,
    entryCount: entries.length,
    entriesSha256,
  }
  let data = await writePackFile(manifest, entries, vectors)
  if (data.length > MAX_PACK_BYTES && vectors.size > 0) {
    // the vectors are a convenience (an importer can embed again): a pack too large with them goes without
    entriesSha256 = packChecksum(entries, new Map())
    Object.assign(manifest, {formatVersion: PLAIN_PACK_FORMAT_VERSION, entriesSha256})
    data = await writePackFile(manifest, entries)
  }
  if (data.length > MAX_PACK_BYTES) {
    throw new MemError('payload_too_large', `The pack would be ${data.length.toLocaleString('en-US')} bytes; the limit is ${MAX_PACK_BYTES.toLocaleString('en-US')}.`, {
      hint: 'Forget or consolidate memories first (`mem maintain`).',
    })
  }
  return {data, manifest, fileName: `${name}.mem`}
}

/**
 * The default pack name: the repository's folder name (`/home/me/src/app` → `app`), kept to what a
 * pack name may hold and never starting with `-` (a file `-tmp-app.mem` reads as a flag to
 * `mem pack import`). A repository without a folder of its own (MEM_HOME/repos/<id>) gives its id,
 * cleaned the same way.
 */
export function packName(root: string, repoId: string): string {
  for (const candidate of [basename(root), repoId]) {
    const cleaned = candidate
      .replace(/[^\p{L}\p{N}._@+-]+/gu, '-')
      .replace(/^[^\p{L}\p{N}]+/u, '')
      .replace(/(?<![-.])[-.]+$/, '')
      .slice(0, 200)
    if (cleaned !== '') return cleaned
  }
  return 'memories'
}
