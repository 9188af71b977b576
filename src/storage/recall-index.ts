import {closeSync, fstatSync, fsyncSync, readSync, rmSync, statSync, writeSync} from 'node:fs'
import {openInMem} from './mem-dir.js'
import {join} from 'node:path'
import {crc32} from 'node:zlib'
import {OWN_ORIGIN, UPDATED_BY, type MemoryLink, type MemoryType} from '../model/memory.js'
import type {OriginKeys} from './origin-keys.js'
import type {Db} from './db.js'
import {FTS_COLUMN_COUNT, indexTotals} from './fts.js'
import {writeAtomic} from './files.js'
import {readRange} from './journal.js'
import {listLayers} from './layers.js'
import {liveRepoLinks} from './links.js'
import type {RankFields, RecallFields} from './memories.js'
import {isShortRefOf, shortRef} from './refs.js'

/**
 * `.mem/recall.idx`: a compact, read-only copy of what a one-shot `mem recall` reads, so that it can
 * answer without loading the whole sql.js snapshot (at 100k memories, reading mem.db alone is a
 * fifth of a cold recall). It holds, as of one journal position of one snapshot generation:
 * - the term dictionary (sorted as the FTS4 vocabulary is: by UTF-8 bytes) with each term's
 *   document frequency and where its postings are;
 * - per term, its postings: (seq, tf per field), varint-coded, read by offset only for the query's terms;
 * - each indexed memory's field lengths in terms (BM25's length normalisation);
 * - per live memory, one record with its rank and recall fields and its short ref, read by offset
 *   for the few memories ranked and returned;
 * - the live memories' meaning vectors from the model most of them were embedded by (the seqs, then
 *   the Float32 rows), read whole only by a recall the words did not answer (engines/meaning).
 * Every part carries a CRC32: a damaged or truncated file is refused (`RecallIndexUnusable`), never
 * read as data. The file is a cache: the store decides whether it is current (repo-store.ts) and
 * rebuilds it from the database; deleting it costs one slow recall.
 *
 * Layout: "MRI1", u32 JSON header length, u32 its CRC, u32 header block size, the JSON header
 * (padded to the block size), then the sections it names (each at an offset aligned to 8 bytes,
 * counted from the end of the header block).
 */
export const RECALL_INDEX_FILE = 'recall.idx'
const MAGIC = 'MRI1'
// 2: records carry each memory's recorded origin and its MAC (storage/origin.ts)
// 3: the live memories' meaning vectors (section `vecs`), so a cold recall by meaning reads no store
// 4: records carry each memory's short ref (refs.ts), so the prompt hook injects without loading the store
const FORMAT = 4
/** Magic, header length, header CRC, header block size. */
const HEAD = 16

/** Where the index stands in the store's history, and facts about the store it was built from. */
export interface RecallIndexPosition {
  /** Snapshot generation (the journal header names the same one). */
  generation: string
  /** Journal byte offset up to which the index includes every record. */
  journalOffset: number
}

export interface RecallIndexHeader extends RecallIndexPosition {
  format: number
  /** Live memory count and total terms per field, as the FTS path computes them (fts.ts indexTotals). */
  docs: number
  tokens: number[]
  /** False when recall would also read mounted layers or linked repos (the index holds neither). */
  solo: boolean
  terms: number
  /** Highest seq with a length entry, plus one. */
  seqs: number
  fileSize: number
  /** CRC32 of everything after the header block (checked whole only by a rebuild deciding whether to run). */
  bodyCrc: number
  /** The meaning vectors the file holds (section `vecs`): their model, size and count, and how many live memories have none from it. */
  vectors?: IndexVectorsHeader
  sections: Record<'dict' | 'lens' | 'table', [offset: number, length: number, crc: number]> & {vecs?: [offset: number, length: number, crc: number]}
}

export interface IndexVectorsHeader {
  model: string
  dims: number
  count: number
  missing: number
}

/** The live memories' vectors from one model, as the index holds them: seqs ascending, rows in that order. */
export interface IndexVectors {
  model: string
  dims: number
  /** Live memories with no vector from this model (a recall by meaning then asks the store, which embeds them). */
  missing: number
  seqs: Uint32Array
  matrix: Float32Array
}

function verifyIndexed(keys: OriginKeys | undefined, f: RecallFields): void {
  const recorded = typeof f.origin === 'string' && f.origin !== '' ? f.origin : OWN_ORIGIN
  f.origin = keys ? keys.verify(f.id, recorded, f.content, typeof f.originMac === 'string' ? f.originMac : null) : recorded
  delete f.originMac
  // a ref is shown to the agent: only one shortRef() could give for the memory's own id is taken
  if (f.ref !== undefined && !(typeof f.ref === 'string' && isShortRefOf(f.id, f.ref))) delete f.ref
}

/** The index file cannot answer (missing, damaged, truncated, another format): use the database. */
export class RecallIndexUnusable extends Error {}

/** One live memory as the index keeps it: what ranking reads and what recall returns. */
export interface IndexedMemory {
  rank: RankFields
  recall: RecallFields
  /** The newest live memory that updates this one (engines/currency.ts), as of the build. */
  newer?: RecallFields
}

/** Everything a build writes (assembled by engines/search/compact.ts). */
export interface RecallIndexContent {
  docs: number
  tokens: number[]
  solo: boolean
  /** Indexed fields per memory, in ascending seq order: the analyzed terms, space-separated. */
  fields: Array<[seq: number, body: string, tags: string, oneLiner: string]>
  /** Per live memory, its IndexedMemory as the inside of a JSON object (liveIndexRows). */
  records: Map<number, string>
  /** The newest live version of memories that newer ones update, by the older memory's seq. */
  newer: Map<number, RecallFields>
  /** The live memories' meaning vectors from the model most of them come from (none: no section). */
  vectors?: {model: string; dims: number; missing: number; seqs: number[]; matrix: Float32Array}
}

// ---- reading what a build needs from the database ---------------------------------------------

/**
 * Every live memory's record, by seq, as JSON text (the stored JSON columns spliced in as they are,
 * not parsed and written again), and the recall fields of those that a newer memory may update
 * (they carry an `updated-by` link) for the build to find their newest versions.
 */
export function liveIndexRows(db: Db): {records: Map<number, string>; updated: RecallFields[]} {
  const records = new Map<number, string>()
  const updated: RecallFields[] = []
  const str = JSON.stringify
  db.eachRow<{seq: number; id: string; r: string; type: MemoryType; content: string; o: string | null; tags: string; importance: number; c: string; u: string | null; n: number; x: number; l: string; q: number; og: string; om: string | null}>(
    `SELECT seq, id, repo_id AS r, type, content, one_liner AS o, tags, importance, created_at AS c, last_used_at AS u,
       used_count AS n, unused_count AS x, links AS l, origin AS og, origin_mac AS om, substr(rtrim(content, ' 
	'), -1) = '?' AS q
     FROM memories WHERE live = 1`,
    undefined,
    (r) => {
      records.set(
        r.seq,
        `"rank":{"type":${str(r.type)},"importance":${str(r.importance)},"createdAt":${str(r.c)},"lastUsedAt":${str(r.u)},"usedCount":${str(r.n)},"unusedCount":${str(r.x)},"live":true,"question":${r.q === 1}},` +
          `"recall":{"links":${r.l},"id":${str(r.id)},"repoId":${str(r.r)},"type":${str(r.type)},"content":${str(r.content)},"oneLiner":${str(r.o ?? null)},"tags":${r.tags},"importance":${str(r.importance)},"createdAt":${str(r.c)},"usedCount":${str(r.n)},"origin":${str(r.og)},"originMac":${str(r.om)},"ref":${str(shortRef(db, r.id))}}`,
      )
      if (r.l.includes(UPDATED_BY)) {
        updated.push({links: JSON.parse(r.l) as MemoryLink[], id: r.id, repoId: r.r, type: r.type, content: r.content, oneLiner: r.o ?? null, tags: JSON.parse(r.tags) as string[], importance: r.importance, createdAt: r.c, usedCount: r.n, origin: r.og, originMac: r.om, seq: r.seq} as RecallFields)
      }
    },
  )
  return {records, updated}
}

/** The index totals and whether recall reads only this store (no layer rows, no live repo links). */
export function indexBasics(db: Db, linkTag: string): {docs: number; tokens: number[]; solo: boolean} {
  const t = indexTotals(db)
  return {docs: t.docs, tokens: t.tokens, solo: listLayers(db).length === 0 && liveRepoLinks(db, linkTag).length === 0}
}

/** Every indexed memory's analyzed fields, in seq order. */
export function indexedFieldsInOrder(db: Db): Array<[seq: number, body: string, tags: string, oneLiner: string]> {
  const result = db.raw.exec(`SELECT docid, c0body, c1tags, c2oneliner FROM memories_fts_content ORDER BY docid`)
  return (result[0]?.values ?? []).map((v) => [v[0] as number, (v[1] as string) ?? '', (v[2] as string) ?? '', (v[3] as string) ?? ''])
}

// ---- writing ------------------------------------------------------------------------------------

/** Orders strings by code point, which is the UTF-8 byte order SQLite's BINARY collation uses. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    // surrogates (astral code points) sort above U+E000–U+FFFF in code point order
    if (x >= 0xd800) x = x <= 0xdfff ? x + 0x2000 : x - 0x800
    if (y >= 0xd800) y = y <= 0xdfff ? y + 0x2000 : y - 0x800
    return x - y
  }
  return a.length - b.length
}

class Bytes {
  buf = Buffer.allocUnsafe(1 << 16)
  length = 0
  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.length + n) size *= 2
    const next = Buffer.allocUnsafe(size)
    this.buf.copy(next, 0, 0, this.length)
    this.buf = next
  }
  varint(v: number): void {
    this.ensure(5)
    while (v >= 0x80) {
      this.buf[this.length++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    this.buf[this.length++] = v
  }
  text(s: string): void {
    this.ensure(s.length * 3)
    this.length += this.buf.write(s, this.length, 'utf8')
  }
  bytes(b: Uint8Array): void {
    this.ensure(b.length)
    this.buf.set(b, this.length)
    this.length += b.length
  }
  align(): void {
    const pad = (8 - (this.length % 8)) % 8
    this.ensure(pad)
    this.buf.fill(0, this.length, this.length + pad)
    this.length += pad
  }
  view(): Buffer {
    return this.buf.subarray(0, this.length)
  }
}

const u32 = (values: Uint32Array) => Buffer.from(values.buffer, values.byteOffset, values.byteLength)

/** Encodes an index; null when the store is too large for its 32-bit offsets or counts. */
export function encodeRecallIndex(content: RecallIndexContent, position: RecallIndexPosition): Buffer | null {
  // 1. term ids, and each memory's (term, tf per field) in seq order
  const termIds = new Map<string, number>()
  const terms: string[] = []
  const df: number[] = []
  const maxSeq = content.fields.reduce((m, [seq]) => Math.max(m, seq), 0)
  const lens = new Uint32Array((maxSeq + 1) * FTS_COLUMN_COUNT)
  let entries = new Uint32Array(1 << 16)
  let n = 0
  const docStart: number[] = []
  // per-document scratch: tf per field by term id (grown as terms appear), and the ids seen
  let scratch = new Uint32Array(1 << 16)
  const seen: number[] = []
  for (const [seq, ...fields] of content.fields) {
    docStart.push(n)
    for (let f = 0; f < FTS_COLUMN_COUNT; f++) {
      const field = fields[f]
      if (!field) continue
      const words = field.split(' ')
      lens[seq * FTS_COLUMN_COUNT + f] = words.length
      for (const w of words) {
        let id = termIds.get(w)
        if (id === undefined) {
          id = terms.length
          termIds.set(w, id)
          terms.push(w)
          df.push(0)
          if (id * 3 + 3 > scratch.length) {
            const next = new Uint32Array(scratch.length * 2)
            next.set(scratch)
            scratch = next
          }
        }
        const at = id * 3
        if (scratch[at] === 0 && scratch[at + 1] === 0 && scratch[at + 2] === 0) seen.push(id)
        scratch[at + f]++
      }
    }
    if (n + seen.length * 4 > entries.length) {
      const next = new Uint32Array(Math.max(entries.length * 2, n + seen.length * 4))
      next.set(entries.subarray(0, n))
      entries = next
    }
    for (const id of seen) {
      const at = id * 3
      entries[n++] = id
      entries[n++] = scratch[at]
      entries[n++] = scratch[at + 1]
      entries[n++] = scratch[at + 2]
      scratch[at] = scratch[at + 1] = scratch[at + 2] = 0
      df[id]++
    }
    seen.length = 0
  }
  docStart.push(n)
  // 2. postings per term: offsets into one array of [seq, tf0, tf1, tf2] grouped by term
  const start = new Uint32Array(terms.length + 1)
  for (let id = 0; id < terms.length; id++) start[id + 1] = start[id] + df[id] * 4
  const fill = start.slice(0, terms.length)
  const grouped = new Uint32Array(start[terms.length])
  content.fields.forEach(([seq], d) => {
    for (let i = docStart[d]; i < docStart[d + 1]; i += 4) {
      const at = fill[entries[i]]
      grouped[at] = seq
      grouped[at + 1] = entries[i + 1]
      grouped[at + 2] = entries[i + 2]
      grouped[at + 3] = entries[i + 3]
      fill[entries[i]] = at + 4
    }
  })
  entries = new Uint32Array(0)
  // 3. the dictionary in byte order; postings written in that order, varint-coded (seq as a delta)
  const order = terms.map((_, id) => id).sort((a, b) => compareCodePoints(terms[a], terms[b]))
  const out = new Bytes()
  const postOff = new Uint32Array(terms.length)
  const postLen = new Uint32Array(terms.length)
  const postCrc = new Uint32Array(terms.length)
  const dfSorted = new Uint32Array(terms.length)
  const termBytes: Buffer[] = []
  const termOff = new Uint32Array(terms.length + 1)
  order.forEach((id, k) => {
    const from = out.length
    let prev = 0
    for (let i = start[id]; i < start[id + 1]; i += 4) {
      out.varint(grouped[i] - prev)
      prev = grouped[i]
      out.varint(grouped[i + 1])
      out.varint(grouped[i + 2])
      out.varint(grouped[i + 3])
    }
    postOff[k] = from
    postLen[k] = out.length - from
    postCrc[k] = crc32(out.buf.subarray(from, out.length))
    dfSorted[k] = df[id]
    const b = Buffer.from(terms[id], 'utf8')
    termBytes.push(b)
    termOff[k + 1] = termOff[k] + b.length
  })
  out.align()
  // 4. the memories' records; the seq table points at them (offset, length, crc; length 0: none)
  const table = new Uint32Array((maxSeq + 1) * 3)
  for (const [seq, body] of [...content.records].sort((a, b) => a[0] - b[0])) {
    if (seq > maxSeq) continue // not indexed: never a candidate
    const newer = content.newer.get(seq)
    const from = out.length
    out.text(`{"s":${seq},${body}${newer ? `,"newer":${JSON.stringify(newer)}` : ''}}`)
    table[seq * 3] = from
    table[seq * 3 + 1] = out.length - from
    table[seq * 3 + 2] = crc32(out.buf.subarray(from, out.length))
  }
  out.align()
  const section = (values: Uint8Array): [number, number, number] => {
    const at = out.length
    out.bytes(values)
    out.align()
    return [at, values.length, crc32(values)]
  }
  const dict = section(Buffer.concat([u32(new Uint32Array([terms.length])), u32(termOff), u32(dfSorted), u32(postOff), u32(postLen), u32(postCrc), ...termBytes]))
  const lensSection = section(u32(lens))
  const tableSection = section(u32(table))
  const vectors = content.vectors && content.vectors.seqs.length > 0 ? content.vectors : undefined
  const vecs = vectors
    ? section(Buffer.concat([u32(Uint32Array.from(vectors.seqs)), Buffer.from(vectors.matrix.buffer, vectors.matrix.byteOffset, vectors.seqs.length * vectors.dims * 4)]))
    : undefined
  if (out.length > 0xffff_0000) return null
  const header: Omit<RecallIndexHeader, 'fileSize'> = {
    bodyCrc: crc32(out.view()),
    format: FORMAT,
    generation: position.generation,
    journalOffset: position.journalOffset,
    docs: content.docs,
    tokens: content.tokens,
    solo: content.solo,
    terms: terms.length,
    seqs: maxSeq + 1,
    ...(vectors ? {vectors: {model: vectors.model, dims: vectors.dims, count: vectors.seqs.length, missing: vectors.missing}} : {}),
    sections: {dict, lens: lensSection, table: tableSection, ...(vecs ? {vecs} : {})},
  }
  // sections are addressed from the end of the header block; its size is fixed by padding
  // the header block's size (sections are addressed from its end) leaves room for the file size's digits
  let json = Buffer.from(JSON.stringify({...header, fileSize: 0}))
  const block = HEAD + json.length + 64 - ((HEAD + json.length) % 8)
  json = Buffer.from(JSON.stringify({...header, fileSize: block + out.length}))
  if (HEAD + json.length > block) return null
  const head = Buffer.alloc(block, 0x20)
  head.write(MAGIC, 0, 'latin1')
  head.writeUInt32LE(json.length, 4)
  head.writeUInt32LE(crc32(json), 8)
  head.writeUInt32LE(block, 12)
  json.copy(head, HEAD)
  return Buffer.concat([head, out.view()])
}

/**
 * Moves the index at `from` to `to` (a checkpoint's new generation and journal position) by
 * rewriting its header in place; the body is unchanged. A reader that reads the header while it is
 * being written finds its CRC wrong and asks the database, as after a crash in the middle.
 */
export function moveRecallIndex(dir: string, from: RecallIndexPosition, to: RecallIndexPosition): void {
  const fd = openInMem(join(dir, RECALL_INDEX_FILE), 'r+')
  try {
    const index = RecallIndexFile.read(fd)
    const {header} = index
    if (header.generation !== from.generation || header.journalOffset !== from.journalOffset) return
    const json = Buffer.from(JSON.stringify({...header, generation: to.generation, journalOffset: to.journalOffset}))
    const block = index.base
    if (HEAD + json.length > block) return
    const head = Buffer.alloc(block - 4, 0x20)
    head.writeUInt32LE(json.length, 0)
    head.writeUInt32LE(crc32(json), 4)
    head.writeUInt32LE(block, 8)
    json.copy(head, HEAD - 4)
    writeSync(fd, head, 0, head.length, 4)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** A refresh lock older than this was left by a refresher that died. */
const REFRESH_STALE_MS = 10 * 60_000

/**
 * Claims the right to rebuild the index of the store in `dir` (one rebuild at a time: a burst of
 * recalls after a write starts one, not one each). Returns the release, or null when another
 * process is rebuilding it.
 */
export function claimIndexRefresh(dir: string): (() => void) | null {
  const path = join(dir, `${RECALL_INDEX_FILE}.lock`)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openInMem(path, 'wx'))
      return () => rmSync(path, {force: true})
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null
      try {
        if (Date.now() - statSync(path).mtimeMs < REFRESH_STALE_MS) return null
        rmSync(path, {force: true})
      } catch {
        // gone meanwhile: try again
      }
    }
  }
  return null
}

/** Writes the index file atomically (temp file, fsync, rename). */
export function writeRecallIndex(dir: string, bytes: Uint8Array): void {
  writeAtomic(join(dir, RECALL_INDEX_FILE), bytes)
}

// ---- reading ------------------------------------------------------------------------------------

function bad(what: string): never {
  throw new RecallIndexUnusable(what)
}

/**
 * An open index file. Reads the header, the dictionary and the length table when opened; the
 * postings of a term and the record of a memory on demand. Every read is checked against its CRC.
 * Throws RecallIndexUnusable when anything does not hold; the caller then asks the database.
 */
export class RecallIndexFile {
  /** This machine's origin keys (the store sets them): records' origins are verified as read. */
  origins: OriginKeys | undefined
  private vectorCache: IndexVectors | null = null
  private constructor(
    private readonly fd: number,
    readonly header: RecallIndexHeader,
    private readonly dictBytes: Buffer,
    private readonly termOff: Uint32Array,
    private readonly dfs: Uint32Array,
    private readonly postOff: Uint32Array,
    private readonly postLen: Uint32Array,
    private readonly postCrc: Uint32Array,
    private readonly termsAt: number,
    /** Terms per field of each seq, [seq * 3 + field]. */
    readonly lengths: Uint32Array,
    /** Where the sections start: the header block's size. */
    readonly base: number,
  ) {}

  /** Opens `.mem/recall.idx` under `dir`; null when there is none. */
  static open(dir: string): RecallIndexFile | null {
    let fd: number
    try {
      fd = openInMem(join(dir, RECALL_INDEX_FILE), 'r')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw new RecallIndexUnusable(`unreadable: ${(err as Error).message}`)
    }
    try {
      return RecallIndexFile.read(fd)
    } catch (err) {
      closeSync(fd)
      throw err instanceof RecallIndexUnusable ? err : new RecallIndexUnusable(String(err))
    }
  }

  /** Reads the index from an open file (which stays the caller's to close). */
  static read(fd: number): RecallIndexFile {
    const size = fstatSync(fd).size
    const first = readRange(fd, 0, Math.min(size, 4096))
    if (first.length < HEAD || first.toString('latin1', 0, 4) !== MAGIC) bad('not a recall index')
    const jsonLength = first.readUInt32LE(4)
    const json = jsonLength + HEAD <= first.length ? first.subarray(HEAD, HEAD + jsonLength) : readRange(fd, HEAD, jsonLength)
    if (json.length !== jsonLength || crc32(json) !== first.readUInt32LE(8)) bad('header damaged')
    const header = JSON.parse(json.toString('utf8')) as RecallIndexHeader
    if (header.format !== FORMAT) bad(`format ${header.format}`)
    if (header.fileSize !== size) bad('truncated or extended')
    const base = first.readUInt32LE(12)
    if (base < HEAD + jsonLength || base > size) bad('header damaged')
    const section = (name: 'dict' | 'lens'): Buffer => {
      const [offset, length, crc] = header.sections[name]
      const bytes = readRange(fd, base + offset, length)
      if (bytes.length !== length || crc32(bytes) !== crc) bad(`${name} damaged`)
      return bytes
    }
    const dict = section('dict')
    const lens = section('lens')
    const n = dict.readUInt32LE(0)
    if (n !== header.terms || dict.length < 4 + (n + 1) * 4 + n * 16) bad('dictionary damaged')
    // copied into aligned memory: the typed arrays below need 4-byte alignment
    const ints = new Uint32Array(1 + (n + 1) + 4 * n)
    Buffer.from(ints.buffer).set(dict.subarray(0, ints.byteLength))
    let at = 1
    const take = (count: number) => ints.subarray(at, (at += count))
    const termOff = take(n + 1)
    const dfs = take(n)
    const postOff = take(n)
    const postLen = take(n)
    const postCrc = take(n)
    const termsAt = ints.byteLength
    if (termsAt + termOff[n] !== dict.length) bad('dictionary damaged')
    const lengths = new Uint32Array(lens.length / 4)
    Buffer.from(lengths.buffer).set(lens)
    if (lengths.length !== header.seqs * FTS_COLUMN_COUNT) bad('lengths damaged')
    return new RecallIndexFile(fd, header, dict, termOff, dfs, postOff, postLen, postCrc, termsAt, lengths, base)
  }

  close(): void {
    try {
      closeSync(this.fd)
    } catch {
      // already closed
    }
  }

  /** True when everything after the header block is as written (reads the whole file). */
  intact(): boolean {
    const size = this.header.fileSize
    let crc = 0
    for (let at = this.base; at < size; at += 1 << 22) {
      const chunk = readRange(this.fd, at, Math.min(1 << 22, size - at))
      if (chunk.length === 0) return false
      crc = crc32(chunk, crc)
    }
    return crc === this.header.bodyCrc
  }

  /** The dictionary position of `term`, or -1. */
  private find(term: string): number {
    const key = Buffer.from(term, 'utf8')
    let lo = 0
    let hi = this.header.terms - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const c = this.dictBytes.compare(key, 0, key.length, this.termsAt + this.termOff[mid], this.termsAt + this.termOff[mid + 1])
      if (c === 0) return mid
      if (c < 0) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  /** The first dictionary position whose term is not below `key` (byte order). */
  private lowerBound(key: Buffer): number {
    let lo = 0
    let hi = this.header.terms
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      // compare() orders the dictionary's term (the source) against the key (the target)
      if (this.dictBytes.compare(key, 0, key.length, this.termsAt + this.termOff[mid], this.termsAt + this.termOff[mid + 1]) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** How many indexed memories hold `term` (0 when none). */
  docFrequency(term: string): number {
    const k = this.find(term)
    return k < 0 ? 0 : this.dfs[k]
  }

  /** Terms from `from` (inclusive) to `to` (exclusive) in byte order, with their frequencies. */
  termsBetween(from: string, to: string): Array<{term: string; df: number}> {
    const a = this.lowerBound(Buffer.from(from, 'utf8'))
    const b = this.lowerBound(Buffer.from(to, 'utf8'))
    const out: Array<{term: string; df: number}> = []
    for (let k = a; k < b; k++) out.push({term: this.dictBytes.toString('utf8', this.termsAt + this.termOff[k], this.termsAt + this.termOff[k + 1]), df: this.dfs[k]})
    return out
  }

  /** The postings of `term`: seqs ascending, and tf per field ([i * 3 + field]); null when unknown. */
  postings(term: string): {seqs: Uint32Array; tf: Uint32Array} | null {
    const k = this.find(term)
    if (k < 0) return null
    const n = this.dfs[k]
    const bytes = readRange(this.fd, this.base + this.postOff[k], this.postLen[k])
    if (bytes.length !== this.postLen[k] || crc32(bytes) !== this.postCrc[k]) bad(`postings of ${term} damaged`)
    const seqs = new Uint32Array(n)
    const tf = new Uint32Array(n * FTS_COLUMN_COUNT)
    let p = 0
    let seq = 0
    const varint = (): number => {
      let v = 0
      let shift = 0
      for (;;) {
        if (p >= bytes.length) bad(`postings of ${term} damaged`)
        const byte = bytes[p++]
        v += (byte & 0x7f) * 2 ** shift
        if (byte < 0x80) return v
        shift += 7
      }
    }
    for (let i = 0; i < n; i++) {
      seq += varint()
      seqs[i] = seq
      tf[i * 3] = varint()
      tf[i * 3 + 1] = varint()
      tf[i * 3 + 2] = varint()
    }
    if (p !== bytes.length || seq >= this.header.seqs) bad(`postings of ${term} damaged`)
    return {seqs, tf}
  }

  /**
   * The meaning vectors the index holds when they come from `model` with `dims` numbers (read and
   * checked whole on the first call); null when it holds none, or another model's.
   */
  vectors(model: string, dims: number): IndexVectors | null {
    const v = this.header.vectors
    const at = this.header.sections.vecs
    if (!v || !at || v.model !== model || v.dims !== dims) return null
    if (this.vectorCache) return this.vectorCache
    const [offset, length, crc] = at
    if (!Number.isInteger(v.count) || v.count <= 0 || !Number.isInteger(v.missing) || v.missing < 0 || length !== v.count * 4 * (1 + dims)) bad('vectors damaged')
    const bytes = readRange(this.fd, this.base + offset, length)
    if (bytes.length !== length || crc32(bytes) !== crc) bad('vectors damaged')
    // copied into aligned memory (the typed arrays need 4-byte alignment)
    const words = new Uint32Array(length / 4)
    Buffer.from(words.buffer).set(bytes)
    const seqs = words.subarray(0, v.count)
    for (let i = 0; i < seqs.length; i++) if (seqs[i] >= this.header.seqs || (i > 0 && seqs[i] <= seqs[i - 1])) bad('vectors damaged')
    this.vectorCache = {model, dims, missing: v.missing, seqs, matrix: new Float32Array(words.buffer, v.count * 4, v.count * dims)}
    return this.vectorCache
  }

  /** The record of each live indexed memory among `seqs` (others are left out). */
  memories(seqs: Iterable<number>): Map<number, IndexedMemory> {
    const out = new Map<number, IndexedMemory>()
    const [tableOffset] = this.header.sections.table
    const entry = Buffer.allocUnsafe(12)
    for (const seq of seqs) {
      if (out.has(seq) || !Number.isInteger(seq) || seq < 0 || seq >= this.header.seqs) continue
      if (readSync(this.fd, entry, 0, 12, this.base + tableOffset + seq * 12) !== 12) bad('seq table truncated')
      const length = entry.readUInt32LE(4)
      if (length === 0) continue
      const bytes = readRange(this.fd, this.base + entry.readUInt32LE(0), length)
      if (bytes.length !== length || crc32(bytes) !== entry.readUInt32LE(8)) bad(`record of ${seq} damaged`)
      const {s, ...m} = JSON.parse(bytes.toString('utf8')) as IndexedMemory & {s: number}
      if (s !== seq) bad(`record of ${seq} damaged`)
      // the file is in the repo's folder: its word on origins is checked, never taken (storage/origin.ts)
      verifyIndexed(this.origins, m.recall)
      if (m.newer) verifyIndexed(this.origins, m.newer)
      out.set(seq, m)
    }
    return out
  }
}

