import {isAbsolute} from 'node:path'
import {z} from 'zod'
import {isDirectory} from '../config/paths.js'
import {MemError} from '../model/errors.js'
import type {MemContext} from '../engines/context.js'
import {parseInput} from '../model/validate.js'

export const InitInput = z.object({
  path: z.string({error: 'path is required'}).trim().min(1, 'path is required').max(1024, 'path is longer than 1,024 characters'),
  adopt: z.boolean().optional().describe('Vouch for a store this machine did not write (a clone\'s committed .mem): its memories become the user\'s own'),
})
export type InitInput = z.input<typeof InitInput>

export interface InitResult {
  repoId: string
  path: string
  /** False when the folder already had a store (nothing changed). */
  created: boolean
  /** With `adopt`: how many memories were signed as this user's (0 when all already were). */
  adopted?: number
}

/**
 * Makes a folder a repository for mem without git: creates its `.mem/` (an empty store) and
 * registers it. Elsewhere a path names a repo only if it is a git work tree or already holds
 * `.mem/`, so this is the one way to keep memories in any other folder. Idempotent.
 */
export async function init(ctx: MemContext, raw: InitInput): Promise<InitResult> {
  const input = parseInput(InitInput, raw)
  if (!isAbsolute(input.path)) {
    throw new MemError('invalid_input', `Invalid path: ${JSON.stringify(input.path)} is not an absolute path.`, {hint: 'Give the folder\'s absolute path.'})
  }
  if (!isDirectory(input.path)) {
    throw new MemError('invalid_input', `Invalid path: ${JSON.stringify(input.path)} is not a folder.`, {hint: 'Create the folder first, or check the path for a typo.'})
  }
  if (input.adopt) {
    const {hasStore} = await import('../config/repo-identity.js')
    if (!hasStore(input.path)) {
      throw new MemError('not_found', `${input.path} holds no memory store to adopt.`, {hint: 'Run `mem init` (without --adopt) to make an empty one.'})
    }
    const adopted = await ctx.adoptStore(input.path)
    const {id, root} = await ctx.locate(input.path, 'write')
    return {repoId: id, path: root, created: false, adopted}
  }
  const created = await (await ctx.storeAt(input.path)).create()
  const {id, root} = await ctx.locate(input.path, 'write')
  return {repoId: id, path: root, created}
}
