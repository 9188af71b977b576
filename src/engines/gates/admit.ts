/**
 * Admission of a new memory, shared by every path that writes one (store, edit, intake, pack
 * import, layer sync, consolidation, link memories): the secret scanner and content gate over every
 * kept field (gate), then, under the lock, the version-chain checks and the duplicate gate, and the
 * insert it plans (planStore), whose texts are kept admitted (src/text/admit.ts: hidden characters
 * out, NFC). The texts kept beside memories (forget reasons, link notes, layer and pack metadata)
 * go through admitNote.
 */
import {createHash} from 'node:crypto'
import {MemError} from '../../model/errors.js'
import {newMemory, setLink, UPDATED_BY, UPDATES, type Memory, type MemoryLink} from '../../model/memory.js'
import {heuristicOneLiner} from '../enrichment/heuristic.js'
import {checkContent} from './content.js'
import {credentialLikeTag} from './secret-tags.js'
import {admitOptional, admitTags, admitText, holdsNul} from '../../text/admit.js'
import {candidatesFor, findDuplicate, findRestatedReverts, findUpdateCandidates, type Candidates} from './duplicates.js'
import {duplicateCandidatesBySeq, getMemory, hasMemory, type Op} from '../../storage/memories.js'
import {vectorBytes} from '../../storage/vectors.js'
import {nearestByMeaning, type MeaningCandidate, type MeaningVector} from '../currency/meaning.js'
import {SAME_SUBJECT_COSINE} from '../currency/rules.js'
import type {LateUpdate, LinkPlanner} from '../meaning/pending.js'
import {bothInFiles} from './held.js'
import type {Db} from '../../storage/db.js'
import type {MemContext, RepoHandle} from '../context.js'
import type {StoreResult} from '../../model/shapes/memories.js'

export {isRejected} from '../../model/memory.js'
export type {StoreResult} from '../../model/shapes/memories.js'

export function memoryId(repoId: string, type: string, content: string, createdAt: string): string {
  const key = createHash('sha256').update(content + createdAt).digest('hex').slice(0, 12)
  return `memories/${repoId}/${type}/${key}`
}

/** The persisted text fields of a new memory, or of an entry about to become one. */
export interface GateFields {
  /** Absent for a change that leaves the content as it is (an edit of tags alone). */
  content?: string
  tags?: readonly string[]
  source?: string | null
  sessionId?: string | null
  oneLiner?: string | null
  /** A pack entry's lineage (a layer keeps it beside the memory). */
  lineage?: string | null
}

type Rejection = {success: false; reason: string}

/**
 * A tag as the scanner reads it: as stored (lower case, spaces as dashes), in upper case (`AKIA…`
 * is found upper-case only), and with its dashes as the spaces they were (`" --"` for a run of
 * three), so `password: "…"` or `--password …` pasted as a tag reads as it was typed.
 */
function tagReadings(tag: string): string[] {
  const out = [tag, tag.toUpperCase()]
  if (tag.includes('-')) out.push(tag.replace(/---/g, '\0').replace(/-/g, ' ').replace(/\0/g, ' --'))
  return out
}

/** A finding's message about one field: the scanner speaks of "content". */
function about(field: string, message: string): string {
  return field === 'content' ? message : message.replace(/^content\b/, field)
}

/**
 * The admission gate every path that writes a memory goes through (store, edit, intake, pack
 * import, layer sync, link notes, the stop hook's candidates): each persisted text field in its
 * admitted form (src/text/admit.ts) through the secret scanner, then the content gate. The fields
 * are scanned as one text, each apart from the next by a blank line (the line rules do not read
 * across one), and, on a finding, one by one to name the field. Tags are also read in upper case
 * and piece by piece (they are stored lower-cased, see credentialLikeTag). A finding becomes a
 * rejection that names the field and the rule and never echoes the text.
 */
export async function gate(ctx: MemContext, fields: string | GateFields): Promise<Rejection | null> {
  const f: GateFields = typeof fields === 'string' ? {content: fields} : fields
  const content = f.content === undefined ? undefined : admitText(f.content)
  const texts: Array<[string, string]> = content === undefined ? [] : [['content', content]]
  const tags = admitTags(f.tags ?? [])
  if (tags.length > 0) texts.push(['a tag', tags.flatMap(tagReadings).join('\n\n')])
  for (const [field, value] of [['source', f.source], ['session id', f.sessionId], ['one-liner', f.oneLiner], ['lineage', f.lineage]] as const) {
    if (value) texts.push([field, admitText(value)])
  }
  // one scan of everything (the scanner's cost is mostly per call); on a finding, field by field
  const together = texts.length > 0 ? await ctx.scanSecrets(texts.map(([, text]) => text).join('\n\n')) : null
  if (together) {
    for (const [field, text] of texts) {
      const found = texts.length === 1 ? together : await ctx.scanSecrets(text)
      if (found) return {success: false, reason: `Rejected: ${about(field, found.message)}`}
    }
    // a rule that matched only across two fields: refused all the same
    return {success: false, reason: `Rejected: ${about('the fields together', together.message)}`}
  }
  // content's control characters are the content gate's (below); any other field with a NUL is refused here
  // (the tags as given: their readings above turn a NUL into a space)
  const nul = tags.some(holdsNul) ? 'a tag' : texts.find(([field, text]) => field !== 'content' && field !== 'a tag' && holdsNul(text))?.[0]
  if (nul) return {success: false, reason: `Rejected: ${nul} holds a NUL character (\\u0000), which no store keeps; remove it (rule nul-character)`}
  if (tags.some(credentialLikeTag)) {
    return {success: false, reason: 'Rejected: a tag looks like a generated credential (rule credential-like-tag); remove the secret and tag the memory with words'}
  }
  const bad = content === undefined ? null : checkContent(content)
  if (bad) return {success: false, reason: `Rejected: ${bad.message} (rule ${bad.rule})`}
  return null
}

/**
 * One text a memory is not made of but that is kept (a forget reason, a link note, a layer's or a
 * pack's name and version): its admitted form, or a 422 naming the field and the rule when the
 * scanner flags it. `what` names the field in the message ("the reason").
 */
export async function admitNote(ctx: MemContext, what: string, text: string): Promise<string> {
  const admitted = admitText(text)
  if (holdsNul(admitted)) {
    throw new MemError('unprocessable', `${what[0]!.toUpperCase()}${what.slice(1)} was not stored. Rejected: ${what} holds a NUL character (\\u0000), which no store keeps (rule nul-character).`, {
      hint: 'Remove the NUL character and send it again; nothing was changed.',
    })
  }
  const found = await ctx.scanSecrets(admitted)
  if (found) {
    throw new MemError('unprocessable', `${what[0]!.toUpperCase()}${what.slice(1)} was not stored. Rejected: ${about(what, found.message)}`, {
      hint: 'Write it without the secret (name the variable or the vault entry instead); nothing was changed.',
    })
  }
  return admitted
}

/** The metadata a pack's manifest carries into a store or a layer, admitted (see admitNote). */
export async function admitManifest<T extends {name: string; version: string; packId: string; sourceRepo: string}>(ctx: MemContext, manifest: T): Promise<T> {
  return {
    ...manifest,
    name: await admitNote(ctx, "the pack's name", manifest.name),
    version: await admitNote(ctx, "the pack's version", manifest.version),
    packId: await admitNote(ctx, "the pack's id", manifest.packId),
    sourceRepo: await admitNote(ctx, "the pack's source repository", manifest.sourceRepo),
  }
}

export interface NewMemory {
  content: string
  type: Memory['type']
  tags: string[]
  importance: number
  source: string
  sessionId: string | null
  supersedes: string | null
  createdAt: string
  derivedFrom?: string[]
  oneLiner?: string
  /** Where it came from (model/memory.ts `origin`); the user's own when not given. */
  origin?: string
  /** Its vector from the meaning model, when meaning is on: stored with it, and its nearest memories are update candidates (currency/meaning.ts). */
  meaning?: MeaningVector
  /**
   * Memories this one updates none of, whatever the words say: intake's seeds whose lines the
   * project's files hold now, and the other seeds of the run; an edit's versions that outdated the
   * memory it replaces (versionsAfter: the new version keeps its links, so it stays outdated).
   */
  updatesNone?: ReadonlySet<string>
}

/** Under the lock: checks the chain and duplicates, and returns the ops of a store. */
export function planStore(db: Db, repo: RepoHandle, given: NewMemory): {ops: Op[]; result: StoreResult} {
  // every text the row keeps in its admitted form (src/text/admit.ts), whichever path wrote it
  const m: NewMemory = {
    ...given,
    content: admitText(given.content),
    tags: admitTags(given.tags),
    source: admitText(given.source),
    sessionId: admitOptional(given.sessionId),
    oneLiner: admitOptional(given.oneLiner),
  }
  let old: Memory | undefined
  if (m.supersedes) {
    old = getMemory(db, m.supersedes)
    if (!old || old.repoId !== repo.id) {
      throw new MemError('not_found', `No memory ${m.supersedes} in repo ${repo.id} to supersede.`, {
        hint: 'Check the id with `mem browse` or `mem history`.',
      })
    }
    if (old.supersededBy) {
      throw new MemError('conflict', `${m.supersedes} is already superseded by ${old.supersededBy}.`, {
        hint: `Supersede the newest version, ${old.supersededBy}.`,
      })
    }
    if (old.forgottenAt) {
      throw new MemError('conflict', `${m.supersedes} was forgotten; it cannot be superseded.`, {
        hint: 'Store the new memory without --supersedes.',
      })
    }
  }
  const candidates = candidatesFor(db, m.content)
  const duplicateId = findDuplicate(db, m.content, m.supersedes, candidates)
  if (duplicateId) return {ops: [], result: {success: false, duplicateId, reason: 'duplicate'}}

  const id = memoryId(repo.id, m.type, m.content, m.createdAt)
  // Live memories of the same subject with another value: the newer of each pair updates the
  // older (an import can bring in a text older than what the repo holds).
  const near = m.meaning ? nearestByMeaning(db, m.meaning, {exclude: m.supersedes}) : []
  const found = findUpdateCandidates(db, m.content, m.type, m.supersedes, candidates, near)
  // and the newest versions of what it restates in other words (a revert across wordings)
  for (const r of findRestatedReverts(db, m.content, m.type, m.supersedes, candidates)) if (!found.some((f) => f.id === r.id)) found.push(r)
  const links: Memory['links'] = []
  const relinks: Op[] = []
  const updates: Array<{id: string; reason: string}> = []
  for (const other of currentVersions(found).filter((f) => !m.updatesNone?.has(f.id))) {
    const newer = other.createdAt <= m.createdAt
    if (newer) updates.push({id: other.id, reason: other.reason})
    links.push({targetId: other.id, relation: newer ? UPDATES : UPDATED_BY})
    relinks.push({op: 'update', id: other.id, set: {links: setLink(other.links, id, newer ? UPDATED_BY : UPDATES)}})
  }
  const memory = newMemory({
    id,
    repoId: repo.id,
    type: m.type,
    content: m.content,
    oneLiner: m.oneLiner ?? heuristicOneLiner(m.content),
    tags: m.tags,
    importance: m.importance,
    source: m.source,
    sessionId: m.sessionId,
    supersedes: m.supersedes,
    createdAt: m.createdAt,
    derivedFrom: m.derivedFrom,
    links,
    origin: m.origin,
  })
  if (hasMemory(db, id)) {
    throw new MemError('conflict', `A memory with id ${id} already exists.`, {hint: 'Store it again; the id includes the time.'})
  }
  const ops: Op[] = [{op: 'insert', memory}, ...relinks]
  if (m.meaning) ops.push({op: 'vector', id, model: m.meaning.model, dims: m.meaning.vector.length, vector: Buffer.from(vectorBytes(m.meaning.vector)).toString('base64'), at: m.createdAt})
  if (old) ops.push({op: 'update', id: old.id, set: {supersededBy: id, updatedAt: m.createdAt}})
  // candidates past the budget were not compared (duplicates.ts COMPARE_BUDGET): the outcome says so
  const unchecked = candidates.unchecked ? {unchecked: candidates.unchecked} : {}
  return {ops, result: updates.length > 0 ? {success: true, id, updates, ...unchecked} : {success: true, id, ...unchecked}}
}

/** At most this many memories are followed from an outdated memory to the versions that outdated it. */
const VERSIONS_FOLLOWED = 256

/** The ids of the memories that outdated `old`, directly or through them: updated-by links and edits (supersededBy), followed. */
export function versionsAfter(db: Db, old: Memory): Set<string> {
  const seen = new Set<string>()
  const next = old.links.filter((l) => l.relation === UPDATED_BY).map((l) => l.targetId)
  while (next.length > 0 && seen.size < VERSIONS_FOLLOWED) {
    const id = next.pop()!
    if (seen.has(id) || id === old.id) continue
    seen.add(id)
    const m = getMemory(db, id)
    if (!m) continue
    if (m.supersededBy) next.push(m.supersededBy)
    for (const l of m.links) if (l.relation === UPDATED_BY) next.push(l.targetId)
  }
  return seen
}

/**
 * Of the versions a text was found to update (or to be updated by), those to link: a version
 * another of them already updates is reached through that one (currency.ts follows the chain), so
 * only the current versions are linked, one row rewritten per fact, not one per version. So is a
 * version one of the memories the text is already linked with updates (`linked`).
 */
function currentVersions<T extends {id: string; links: MemoryLink[]}>(found: T[], linked: ReadonlySet<string> = new Set()): T[] {
  const reached = new Set([...found.map((f) => f.id), ...linked])
  return found.filter((f) => !f.links.some((l) => l.relation === UPDATED_BY && reached.has(l.targetId)))
}

/**
 * Update detection by meaning for memories whose vectors came after they were written: the
 * built-in model is too slow to embed inside a store (about 25 ms a text), so its vectors are
 * made in the background or by the next recall (engines/meaning/pending.ts), and these links with
 * them. Each memory is compared with the live memories nearest it by meaning (and with the batch's
 * others, whose vectors are not in the store yet); the rules decide as they do for a store that
 * brings its vector (planStore: the words' candidates were looked at when it was written). Pairs
 * already linked are left as they are. Returns the ops that write the links, and the pairs.
 */
export const planMeaningLinks: LinkPlanner = (db, model, embedded) => {
  const rows = new Map(duplicateCandidatesBySeq(db, embedded.map((e) => e.seq)).map((r) => [r.id, r]))
  // the links of the rows this batch changes, as they now stand
  const changed = new Map<string, MemoryLink[]>()
  const linksOf = (id: string, stored: string): MemoryLink[] => changed.get(id) ?? (JSON.parse(stored) as MemoryLink[])
  const linked: LateUpdate[] = []
  const none: Candidates = []
  // oldest first: of two in the batch, the newer is the one compared with the other (as at a store)
  const inOrder = [...embedded].sort((x, y) => x.seq - y.seq)
  for (const [i, e] of inOrder.entries()) {
    const self = rows.get(e.id)
    if (!self) continue // forgotten or superseded since
    const near: MeaningCandidate[] = nearestByMeaning(db, {model, vector: e.vector}, {exclude: e.id})
    for (let j = 0; j < i; j++) {
      const other = rows.get(inOrder[j].id)
      if (!other) continue
      let dot = 0
      for (let k = 0; k < e.vector.length; k++) dot += e.vector[k] * inOrder[j].vector[k]
      if (dot >= SAME_SUBJECT_COSINE) near.push({...other, similarity: dot})
    }
    const already = new Set(linksOf(e.id, self.links).map((l) => l.targetId))
    // two lines the project's files hold are both true, however close (intake versions a seed itself)
    const candidates = near.filter((n) => !already.has(n.id) && !bothInFiles(db, e.id, n.id)).map((n) => ({...n, links: JSON.stringify(linksOf(n.id, n.links))}))
    if (candidates.length === 0) continue
    const found = findUpdateCandidates(db, self.content, self.type, e.id, none, candidates)
    for (const other of currentVersions(found, already)) {
      const newer = other.createdAt <= self.createdAt
      changed.set(e.id, setLink(linksOf(e.id, self.links), other.id, newer ? UPDATES : UPDATED_BY))
      changed.set(other.id, setLink(other.links, e.id, newer ? UPDATED_BY : UPDATES))
      linked.push(newer ? {newer: e.id, older: other.id, reason: other.reason} : {newer: other.id, older: e.id, reason: other.reason})
    }
  }
  return {ops: [...changed].map(([id, links]): Op => ({op: 'update', id, set: {links}})), linked}
}
