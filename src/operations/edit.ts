import {MemError} from '../model/errors.js'
import {getMemory, type Op} from '../storage/memories.js'
import {normalizeForDuplicate} from '../text/tokenize.js'
import type {MemContext} from '../engines/context.js'
import {notFound, repoForId, resolveRefs} from './lookup.js'
import {EditInput} from '../model/shapes/memories.js'
import {gate, planStore, versionsAfter} from '../engines/gates/admit.js'
import {parseInput} from '../model/validate.js'
import {admitTags} from '../text/admit.js'
import type {EditResult} from '../model/shapes/memories.js'
export type {EditResult} from '../model/shapes/memories.js'

export {EditInput} from '../model/shapes/memories.js'

/**
 * Edits a live memory. A content change creates a new version (new id) that supersedes this one,
 * which stays readable through history; tags or importance alone are updated in place.
 */
export async function edit(ctx: MemContext, raw: EditInput): Promise<EditResult> {
  const input = await resolveRefs(ctx, parseInput(EditInput, raw), 'id')
  const handle = await repoForId(ctx, input.id, input.repo)
  if (input.content !== undefined || input.tags !== undefined) {
    const rejected = await gate(ctx, {content: input.content, tags: input.tags})
    if (rejected) return rejected
  }
  const now = ctx.now().toISOString()
  const result = await handle.store.write<EditResult>((db) => {
    const old = getMemory(db, input.id)
    if (!old) throw notFound(input.id)
    if (old.supersededBy) {
      // the hint names the end of the chain (a version superseded twice names its newest, not the next)
      let head = getMemory(db, old.supersededBy)
      for (const seen = new Set([old.id]); head?.supersededBy && !seen.has(head.id); ) {
        seen.add(head.id)
        head = getMemory(db, head.supersededBy)
      }
      const newest = head?.id ?? old.supersededBy
      throw new MemError('conflict', `${old.id} was superseded by ${old.supersededBy}.`, {hint: `Edit the newest version, ${newest}.`})
    }
    if (old.forgottenAt) throw new MemError('conflict', `${old.id} was forgotten; it cannot be edited.`, {hint: 'Store a new memory instead.'})

    const contentChanged = input.content !== undefined && normalizeForDuplicate(input.content) !== normalizeForDuplicate(old.content)
    if (contentChanged) {
      const plan = planStore(db, handle, {
        content: input.content!,
        type: old.type,
        tags: input.tags ?? old.tags,
        importance: input.importance ?? old.importance,
        source: old.source,
        sessionId: old.sessionId,
        supersedes: old.id,
        createdAt: now,
        // the new version keeps the old one's links (below): an outdated memory edited stays outdated,
        // and updates none of the versions that outdated it, however its words compare with theirs
        updatesNone: versionsAfter(db, old),
      })
      // the new version keeps the old one's links to other memories
      const insert = plan.ops[0]
      if (insert?.op === 'insert' && old.links.length > 0) insert.memory.links = old.links
      const r = plan.result
      const result: EditResult = r.success ? {success: true, id: r.id, superseded: old.id} : r
      return {ops: plan.ops, result}
    }
    const set: Extract<Op, {op: 'update'}>['set'] = {updatedAt: now}
    if (input.tags !== undefined) set.tags = admitTags(input.tags)
    if (input.importance !== undefined) set.importance = input.importance
    return {ops: [{op: 'update', id: old.id, set}], result: {success: true, id: old.id, superseded: null}}
  })
  return result
}
