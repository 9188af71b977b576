import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {z} from 'zod'
import {MemError} from '../model/errors.js'
import {isDirectory} from '../config/paths.js'
import {runIntake, type IntakeOptions, type IntakeResult} from '../engines/intake/run.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'

export const IntakeInput = z.object({repo: RepoRef})
export type IntakeInput = z.input<typeof IntakeInput>
export type {IntakeResult, IntakeFileReport, IntakeProgress} from '../engines/intake/run.js'

/**
 * Scans the repository's project files (agent instruction files, README, CONTRIBUTING,
 * .editorconfig, package.json, tsconfig, Makefile, pyproject.toml, Cargo.toml, go.mod, version
 * files) and writes small seed memories tagged `intake` and `source:<path>` (source
 * `intake:<path>`), through the store's gates. A second run over the same files writes nothing
 * (`skippedCount`); a changed file's seeds supersede their old versions; seeds of removed lines
 * are forgotten. The repo must resolve to a project directory (a path, or a registered id).
 */
export async function intake(ctx: MemContext, raw: IntakeInput, options: IntakeOptions = {}): Promise<IntakeResult> {
  const input = parseInput(IntakeInput, raw)
  const where = await ctx.locate(input.repo, 'read')
  if (!isDirectory(where.root) || (!existsSync(join(where.root, '.git')) && !hasProjectFile(where.root))) {
    throw new MemError('not_found', `No project directory for repo ${input.repo}: intake reads files from a working tree.`, {
      hint: 'Pass the repository by its path (mem intake --repo PATH, or ?repo=/abs/path), or run it inside the repository.',
    })
  }
  const repo = await ctx.repo(input.repo, 'write')
  const result = await runIntake(ctx, repo, options)
  return result
}

function hasProjectFile(root: string): boolean {
  return ['README.md', 'AGENTS.md', 'CLAUDE.md', 'package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'Makefile'].some((f) => existsSync(join(root, f)))
}
