import {z} from 'zod'
import {MemError} from '../model/errors.js'
import {isDirectory} from '../config/paths.js'
import {DEFAULT_TIME_LIMIT_S, gitHooksDir, installHooks as install, uninstallHooks as uninstall, type HooksInstallResult, type HooksUninstallResult} from '../engines/intake/git-hooks.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const HooksInstallInput = z.object({
  repo: RepoRef,
  /** Where the hook templates are (the package's templates/hooks). */
  templatesDir: z.string().min(1),
  runner: z.object({node: z.string().min(1), bin: z.string().min(1)}),
  timeLimit: z.number().int().min(1, 'time limit must be 1 to 3600 seconds').max(3600, 'time limit must be 1 to 3600 seconds').default(DEFAULT_TIME_LIMIT_S),
})
export type HooksInstallInput = z.input<typeof HooksInstallInput>
export const HooksUninstallInput = z.object({repo: RepoRef})
export type HooksUninstallInput = z.input<typeof HooksUninstallInput>
export type {HooksInstallResult, HooksUninstallResult} from '../engines/intake/git-hooks.js'

async function where(ctx: MemContext, repo: string) {
  const {id, root} = await ctx.locate(repo, 'write')
  if (!isDirectory(root)) {
    throw new MemError('not_found', `No working tree for repo ${repo}.`, {hint: 'Pass the repository by its path (--repo PATH), or run it inside the repository.'})
  }
  const {hooksPath} = await gitHooksDir(root)
  return {id, root, hooksPath}
}

/**
 * Adds post-commit, post-merge and post-checkout hooks that run `mem intake` in the background
 * (detached, with a time limit, output to .mem/hooks.log), in the folder git runs hooks from
 * (core.hooksPath respected). Existing hooks keep working; running it again updates our block.
 */
export async function installHooks(ctx: MemContext, raw: HooksInstallInput): Promise<HooksInstallResult> {
  const input = parseInput(HooksInstallInput, raw)
  const {id, root, hooksPath} = await where(ctx, input.repo)
  return install({repo: id, root, hooksPath, templatesDir: input.templatesDir, runner: input.runner, timeLimitS: input.timeLimit})
}

/** Removes only what installHooks added, giving back the hooks that were there before. */
export async function uninstallHooks(ctx: MemContext, raw: HooksUninstallInput): Promise<HooksUninstallResult> {
  const input = parseInput(HooksUninstallInput, raw)
  const {id, root, hooksPath} = await where(ctx, input.repo)
  return uninstall({repo: id, root, hooksPath})
}
