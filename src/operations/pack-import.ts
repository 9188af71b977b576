import {createHash} from 'node:crypto'
import {z} from 'zod'
import {MemError} from '../model/errors.js'
import {MAX_PACK_BYTES} from '../storage/pack-file.js'
import {type PackEntry, type PackManifest, type PackVector, readPackFile} from '../storage/pack-file.js'
import {meaningModel} from '../engines/meaning/use.js'
import type {MeaningVector} from '../engines/currency/meaning.js'
import type {MemContext} from '../engines/context.js'
import {Content, Importance, MemoryTypeSchema, RepoRef, Tags} from '../model/schemas.js'
import {admitManifest, gate, planStore} from '../engines/gates/admit.js'
import {parseInput} from '../model/validate.js'
import type {PackImportResult} from '../model/shapes/sharing.js'
export type {PackImportResult} from '../model/shapes/sharing.js'

export const PackImportInput = z.object({
  repo: RepoRef,
  data: z
    .union([z.string(), z.instanceof(Uint8Array)], {error: 'data (the pack file, base64) is required'})
    .describe('The .mem pack file, base64-encoded.'),
})
// the bytes of any Uint8Array (a pack export's too: TypeScript types z.instanceof's as ArrayBuffer-backed only)
export type PackImportInput = Omit<z.input<typeof PackImportInput>, 'data'> & {data: string | Uint8Array}

/** What one pack entry must be; a pack with any other entry is refused whole. */
const EntrySchema = z.object({
  type: MemoryTypeSchema,
  content: Content,
  oneLiner: z.string().max(1_000).nullable(),
  tags: Tags,
  importance: Importance,
  source: z.string().trim().min(1).max(200),
  createdAt: z.string().max(40).refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp'),
  lineage: z.string().min(1).max(300),
})

export interface DecodedPack {
  manifest: PackManifest
  entries: PackEntry[]
  /** The entries' meaning vectors (by entry index), when the pack carries them (format version 2). */
  vectors: Map<number, PackVector>
}

/**
 * Reads a pack and checks everything in it before anyone writes: the file (pack-file.ts: its
 * layout, every value's type and length in SQL, the checksum of its entries) and each entry's
 * fields. Any failure is a 400 naming the problem.
 */
export async function decodePack(bytes: Uint8Array): Promise<DecodedPack> {
  return readPackFile(bytes, (e, i) => {
    const parsed = EntrySchema.safeParse(e)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw damaged(`entry ${i + 1} has an invalid ${issue.path.join('.') || 'value'} (${issue.message})`)
    }
    return parsed.data as PackEntry
  })
}

function damaged(why: string): MemError {
  return new MemError('invalid_input', `The pack is damaged: ${why}.`, {
    hint: 'Nothing was imported. Export the pack again with `mem pack export` and copy it whole (binary, not as text).',
  })
}

/** The pack bytes from base64 text or raw bytes; a size over the limit is refused before decoding. */
export function packBytes(data: string | Uint8Array): Uint8Array {
  if (typeof data !== 'string') return data
  // a pack's base64 runs to 85 MB: no copy of it unless it is wrapped in lines
  const text = /\s/.test(data) ? data.replace(/\s+/g, '') : data
  if (text.length === 0) throw new MemError('invalid_input', 'Invalid data: the pack is empty.', {hint: 'Send the .mem file in base64.'})
  if (text.length > Math.ceil(MAX_PACK_BYTES / 3) * 4) {
    throw new MemError('payload_too_large', `The pack is larger than ${MAX_PACK_BYTES.toLocaleString('en-US')} bytes.`, {hint: 'Split the memories into several packs.'})
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 === 1) {
    throw new MemError('invalid_input', 'Invalid data: it is not base64.', {hint: 'Send the .mem file base64-encoded (e.g. `base64 -w0 app.mem`).'})
  }
  return Buffer.from(text, 'base64') // a Uint8Array already: copying it would cost the pack's size again
}

/** A stable fingerprint of what sync compares for an entry (content and metadata). */
export function entryFingerprint(e: PackEntry): string {
  return createHash('sha256').update(JSON.stringify([e.type, e.content, e.oneLiner, e.tags, e.importance, e.source])).digest('hex').slice(0, 32)
}

/**
 * Imports a pack into a repo. The whole file is checked first (decodePack): a damaged, foreign or
 * newer-format pack is a 400 and nothing is written. Each entry then goes through the store path:
 * the secret scanner and content gate (a flagged entry is skipped and never written), the
 * duplicate gate (skipped), a new id in the target repo. Ids and repo fields of the file are never used.
 */
export async function packImport(ctx: MemContext, raw: PackImportInput): Promise<PackImportResult> {
  const input = parseInput(PackImportInput, raw)
  const pack = await decodePack(packBytes(input.data))
  pack.manifest = await admitManifest(ctx, pack.manifest)
  const handle = await ctx.repo(input.repo, 'write')
  const now = ctx.now()
  let skipped = 0
  const accepted: Array<{e: PackEntry; meaning?: MeaningVector}> = []
  const usable = await vectorsInUse(ctx, pack.vectors)
  for (const [i, e] of pack.entries.entries()) {
    if (await entryRejected(ctx, e)) skipped++
    else accepted.push({e, meaning: usable(i)})
  }
  // One write job per entry, queued together: they share one transaction and one fsync, and each
  // sees the ones before it (a pack repeating itself imports once).
  const outcomes = await Promise.all(
    accepted.map(({e, meaning}) =>
      handle.store
        .write((db) =>
          planStore(db, handle, {
            ...(meaning ? {meaning} : {}),
            content: e.content,
            type: e.type,
            tags: e.tags,
            importance: e.importance,
            source: e.source,
            sessionId: null,
            supersedes: null,
            createdAt: clampTime(e.createdAt, now),
            oneLiner: e.oneLiner ?? undefined,
            origin: `pack:${pack.manifest.name}`.slice(0, 200),
          }),
        )
        .then(
          (r) => r.success,
          () => false, // e.g. the same text and time as a forgotten memory: its id is taken
        ),
    ),
  )
  const imported = outcomes.filter(Boolean).length
  skipped += outcomes.length - imported
  return {imported, skipped, packId: pack.manifest.packId, name: pack.manifest.name, version: pack.manifest.version}
}

/**
 * The pack's vector of an entry when it can be kept as it is: from the meaning model in use (same
 * id and size), unit length. It is stored with the memory and its nearest memories are update
 * candidates, as a store's own vector would be; any other (meaning off, another model, a vector
 * that is not unit length) is dropped, and the memory waits in the queue to be embedded here.
 */
async function vectorsInUse(ctx: MemContext, vectors: ReadonlyMap<number, PackVector>): Promise<(i: number) => MeaningVector | undefined> {
  const none = () => undefined
  if (vectors.size === 0 || !ctx.meaning) return none
  const model = await meaningModel(ctx)
  if (!model) return none
  return (i) => {
    const v = vectors.get(i)
    if (!v || v.model !== model.id || v.dims !== model.dims || v.vector.length !== v.dims) return undefined
    let norm = 0
    for (const x of v.vector) norm += x * x
    return Math.abs(Math.sqrt(norm) - 1) < 1e-3 ? {model: v.model, vector: v.vector} : undefined
  }
}

/** Runs the store gates over every text of an entry that is kept (content, one-liner, tags, source, lineage). */
export async function entryRejected(ctx: MemContext, e: PackEntry): Promise<boolean> {
  return (await gate(ctx, {content: e.content, tags: e.tags, source: e.source, oneLiner: e.oneLiner, lineage: e.lineage})) !== null
}

/** A creation time from a file: normalized to ISO, never in the future. */
export function clampTime(value: string, now: Date): string {
  const t = Date.parse(value)
  return new Date(Math.min(t, now.getTime())).toISOString()
}
