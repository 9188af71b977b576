import {findRepoRoot, isDrivePath, looksLikePath} from '../../config/paths.js'
import {MemError} from '../../model/errors.js'
import {absoluteRepoRef} from './mem-command.js'

/** The checkout a `mem remote` command is about: --repo (a folder), else the nearest folder with .git or .mem. */
export function checkoutRoot(flags: {repo?: string}): string {
  const given = flags.repo?.trim()
  if (!given) return findRepoRoot(process.cwd())
  if (!looksLikePath(given) || isDrivePath(given)) {
    throw new MemError('invalid_input', `mem remote works on a checkout (a folder), not the repo id ${JSON.stringify(given)}.`, {hint: 'Run it inside the checkout, or pass --repo PATH.'})
  }
  return absoluteRepoRef(given)
}
