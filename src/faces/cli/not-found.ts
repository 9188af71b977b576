import {Errors, type Hook} from '@oclif/core'

/**
 * oclif's `command_not_found` hook (package.json `oclif.hooks`): a mistyped command fails with exit 2
 * (invalid input) and names the commands it may have meant, instead of oclif's bare
 * "command stor not found". `mem stor` → "Did you mean `mem store`?".
 */
export const notFound: Hook<'command_not_found'> = async function (options) {
  const commands = options.config.commandIDs.map((id) => id.replace(/:/g, ' '))
  const topics = options.config.topics.map((t) => t.name.replace(/:/g, ' '))
  const known = [...new Set([...commands, ...topics])]
  // oclif joins the words it could not place into the id (`mem stor "text"` → `stor text`): the
  // longest leading words that come close to a command are what was mistyped
  const words = options.id.split(':')
  let typed = topics.includes(words[0]) ? words.slice(0, 2).join(' ') : words[0]
  let suggestions: string[] = []
  for (let n = words.length; n > 0 && suggestions.length === 0; n--) {
    suggestions = suggest(words.slice(0, n).join(' '), known)
    if (suggestions.length > 0) typed = words.slice(0, n).join(' ')
  }
  const bin = options.config.bin
  const message = suggestions.length > 0
    ? `Unknown command "${typed}". Did you mean ${suggestions.map((s) => `\`${bin} ${s}\``).join(' or ')}?`
    : `Unknown command "${typed}".`
  throw new Errors.CLIError(message, {exit: 2, suggestions: [`Run \`${bin} --help\` (or \`${bin} -h\`) for the list of commands.`]})
}

/** The known names closest to `typed`: an edit distance within a quarter of its length, or a prefix. */
export function suggest(typed: string, known: readonly string[], max = 3): string[] {
  const word = typed.toLowerCase()
  const scored = known
    .map((name) => {
      const n = name.toLowerCase()
      // `mem stor` → store; `mem pack exprot` → pack export; `mem key` → keys
      const d = Math.min(distance(word, n), n.startsWith(word) && word.length >= 2 ? 1 : Infinity)
      return {name, d}
    })
    .filter(({d, name}) => d <= Math.max(1, Math.floor(Math.max(word.length, name.length) / 4)))
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
  return scored.slice(0, max).map((s) => s.name)
}

/** Damerau-Levenshtein distance (optimal string alignment): a swap of two neighbours counts 1. */
export function distance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({length: rows}, (_, i) => Array.from({length: cols}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}
