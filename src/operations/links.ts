import {z} from 'zod'
import {normalizeRepoId} from '../config/paths.js'
import {MemError} from '../model/errors.js'
import {getMemory, type Op} from '../storage/memories.js'
import {DISTINCT, RESOLVED_UPDATE, setLink, UPDATED_BY, UPDATES} from '../model/memory.js'
import {LINK_SOURCE} from '../storage/links.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import {CROSS_REPO_LINK_TAG, linkedRepos, linkItems, type RepoLink} from '../engines/sharing/sources.js'
import {answersTo, notFound, requireMemory, resolveRefs} from './lookup.js'
import {MemoryRef, RepoRef, repoIdOf} from '../model/schemas.js'
import {admitNote, planStore} from '../engines/gates/admit.js'
import {parseInput} from '../model/validate.js'

export {CROSS_REPO_LINK_TAG, linkedRepos, type RepoLink}

export const LinkRepoInput = z.object({
  repo: RepoRef,
  targetRepo: z.string({error: 'targetRepo is required'}).trim().min(1, 'targetRepo is required').max(1_000),
  note: z.string().trim().max(2_000, 'note is longer than 2,000 characters').default(''),
})
export type LinkRepoInput = z.input<typeof LinkRepoInput>

export const ListLinksInput = z.object({repo: RepoRef})
export type ListLinksInput = z.input<typeof ListLinksInput>

export const Relation = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'relation must be a word of letters, digits, - or _ (at most 40), e.g. related, depends-on, explains')

export const LinkMemoryInput = z.object({
  id: MemoryRef,
  targetId: MemoryRef,
  relation: Relation.default('related'),
  repo: z.string().optional(),
})
export type LinkMemoryInput = z.input<typeof LinkMemoryInput>

export const UnlinkMemoryInput = z.object({id: MemoryRef, targetId: MemoryRef, repo: z.string().optional()})
export type UnlinkMemoryInput = z.input<typeof UnlinkMemoryInput>

/** Relations kept on both memories of a pair, each with its reverse. */
const PAIRED = new Map<string, string>([
  [UPDATES, UPDATED_BY],
  [UPDATED_BY, UPDATES],
  [DISTINCT, DISTINCT],
])

/** The registered repo a value names (a repo id or an absolute path), or a 404 naming the fix. */
async function registeredRepo(ctx: MemContext, value: string): Promise<string> {
  const trimmed = value.trim().replace(/(?<![\\/])[\\/]+$/, '')
  const id = normalizeRepoId(trimmed)
  // a folder's own entry first: its base id may belong to another folder (config/repo-identity.ts)
  const repos = await ctx.listRepos()
  const match = repos.find((r) => r.path === trimmed) ?? repos.find((r) => r.repoId === id)
  if (!match) {
    throw new MemError('not_found', `Unknown repository ${value}: mem has no store registered for it.`, {
      hint: 'Link only repositories mem knows (`mem repos` lists them): store a memory there first, e.g. `mem store "…" -t observation --repo PATH`.',
    })
  }
  return match.repoId
}


/**
 * Links this repo to another registered repository: stores a memory tagged `cross-repo-link`.
 * An unknown repo (404), the repo itself (400) or a second link to the same repo (409) is refused;
 * a note the secret scanner flags is refused (422) and written nowhere.
 */
export async function linkRepo(ctx: MemContext, raw: LinkRepoInput): Promise<{id: string; from: string; to: string; note: string}> {
  const input = parseInput(LinkRepoInput, raw)
  const handle = await ctx.repo(input.repo, 'write')
  const to = await registeredRepo(ctx, input.targetRepo)
  if (to === handle.id) throw new MemError('invalid_input', `A repository cannot link to itself (${to}).`, {hint: 'Name another repository in targetRepo.'})
  if (input.note) input.note = await admitNote(ctx, 'the note', input.note)
  const existing = linkItems(handle).find((l) => l.to === to)
  if (existing) {
    throw new MemError('conflict', `${handle.id} is already linked to ${to} (${existing.id}).`, {hint: 'Forget that link memory first (`mem forget ID`) to replace its note.'})
  }
  const content = `Linked repository ${to}${input.note ? `: ${input.note}` : ''}`
  const createdAt = ctx.now().toISOString()
  const created = await handle.store.write((db) => {
    const plan = planStore(db, handle, {
      content,
      type: 'observation',
      tags: [CROSS_REPO_LINK_TAG],
      importance: 0.4,
      source: LINK_SOURCE,
      sessionId: null,
      supersedes: null,
      createdAt,
    })
    if (!plan.result.success) {
      throw new MemError('conflict', `${handle.id} already has this link (${'duplicateId' in plan.result ? plan.result.duplicateId : ''}).`)
    }
    const insert = plan.ops[0]
    if (insert.op === 'insert') insert.extra = {link: {to}}
    return {ops: plan.ops, result: {id: plan.result.id, from: handle.id, to, note: input.note}}
  })
  return created
}

/** The repo's cross-repo links, newest first. */
export async function listLinks(ctx: MemContext, raw: ListLinksInput): Promise<{repo: string; links: RepoLink[]}> {
  const input = parseInput(ListLinksInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const links = linkItems(handle)
  return {repo: handle.id, links}
}

function readOnlyLayer(handle: RepoHandle): void {
  if (handle.id.startsWith('layer-')) {
    throw new MemError('conflict', `${handle.id.slice('layer-'.length)} is a read-only layer; its memories cannot be changed here.`, {
      hint: 'Change the memory in the repository its pack comes from, export and commit the pack, then sync.',
    })
  }
}

/**
 * Attaches a link `{targetId, relation}` to a live memory (a second link to the same target
 * replaces the relation). The target must exist: in this repo, or in a registered repo this repo
 * is linked to.
 */
export async function linkMemory(ctx: MemContext, raw: LinkMemoryInput): Promise<{linked: true}> {
  const input = await resolveRefs(ctx, parseInput(LinkMemoryInput, raw), 'id', 'targetId')
  if (input.id === input.targetId) throw new MemError('invalid_input', 'A memory cannot link to itself.', {hint: 'Give another memory as targetId.'})
  const {handle, memory} = await requireMemory(ctx, input.id, input.repo)
  readOnlyLayer(handle)
  const targetRepo = repoIdOf(input.targetId)
  let target = handle
  if (!answersTo(handle, targetRepo)) {
    if (!(await linkedRepos(ctx, handle)).includes(targetRepo)) {
      throw new MemError('not_found', `${input.targetId} is in repository ${targetRepo}, which ${handle.id} is not linked to.`, {
        hint: `Link the repositories first: mem links add ${targetRepo} --note "why"`,
      })
    }
    target = await ctx.repo(targetRepo, 'read')
  }
  if (!target.store.read((db) => getMemory(db, input.targetId))) throw notFound(input.targetId)
  if (memory.supersededBy || memory.forgottenAt) {
    throw new MemError('conflict', `${memory.id} is ${memory.supersededBy ? `superseded by ${memory.supersededBy}` : 'forgotten'}; link a live memory.`, {
      hint: memory.supersededBy ? `Link the newest version, ${memory.supersededBy}.` : undefined,
    })
  }
  const now = ctx.now().toISOString()
  const linked = await handle.store.write((db) => {
    const m = getMemory(db, input.id)
    if (!m) throw notFound(input.id)
    if (m.links.some((l) => l.targetId === input.targetId && l.relation === input.relation)) return {ops: [], result: {linked: true as const}}
    const links = setLink(m.links, input.targetId, input.relation)
    const ops: Op[] = [{op: 'update', id: m.id, set: {links, updatedAt: now}}]
    // the currency relations are kept on both memories (currency.ts)
    const t = target === handle ? getMemory(db, input.targetId) : undefined
    const hadPaired = m.links.some((l) => l.targetId === input.targetId && PAIRED.has(l.relation))
    if (t && (PAIRED.has(input.relation) || hadPaired)) {
      // `distinct` undoes maintenance's supersede of the pair (dedup.ts): the older is live again
      const undo = input.relation === DISTINCT && t.supersededBy === m.id && m.supersedes === t.id && !!t.forgetReason?.startsWith(RESOLVED_UPDATE)
      ops.push({op: 'update', id: t.id, set: {links: setLink(t.links, m.id, PAIRED.get(input.relation)), ...(undo ? {supersededBy: null, forgetReason: null, updatedAt: now} : {})}})
      if (undo) ops[0] = {op: 'update', id: m.id, set: {links, supersedes: null, updatedAt: now}}
    }
    return {ops, result: {linked: true as const}}
  })
  return linked
}

/** Removes the link from a memory to `targetId`; `removed` is false when there was none. */
export async function unlinkMemory(ctx: MemContext, raw: UnlinkMemoryInput): Promise<{removed: boolean}> {
  const input = await resolveRefs(ctx, parseInput(UnlinkMemoryInput, raw), 'id', 'targetId')
  const {handle} = await requireMemory(ctx, input.id, input.repo)
  readOnlyLayer(handle)
  const now = ctx.now().toISOString()
  const outcome = await handle.store.write<{removed: boolean}>((db) => {
    const m = getMemory(db, input.id)
    if (!m) throw notFound(input.id)
    const links = setLink(m.links, input.targetId)
    if (links.length === m.links.length) return {ops: [], result: {removed: false}}
    const ops: Op[] = [{op: 'update', id: m.id, set: {links, updatedAt: now}}]
    const t = m.links.some((l) => l.targetId === input.targetId && PAIRED.has(l.relation)) ? getMemory(db, input.targetId) : undefined
    if (t) ops.push({op: 'update', id: t.id, set: {links: setLink(t.links, m.id)}})
    return {ops, result: {removed: true}}
  })
  return outcome
}
