// Proves that each currency rule and guard has a test of its own: removes each one alone from the
// engine's tables (src/engines/currency/rules.ts), runs test/engines/currency/rules.test.ts, and
// checks that the test named for it fails — then puts the file back. Not part of `npm test` (it
// runs vitest once per rule and guard: a few minutes); run it after changing the rules:
//   node test/engines/currency/remove-each.mjs
import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const RULES = join(ROOT, 'src', 'engines', 'currency', 'rules.ts')
const TEST = 'test/engines/currency/rules.test.ts'
const original = readFileSync(RULES, 'utf8')

/** The rules of the tables (a line of their own in UPDATE_RULES and RESTATEMENT_RULES), by their variable names. */
const tables = [...original.matchAll(/_RULES[^=]*= \[\n((?:  \w+,\n)+)\]/g)].flatMap((m) => m[1].trim().split(/,\s*/).filter(Boolean))
/** Each rule's guards (guards: [...] in its definition, and PAIR_GUARDS): removed one at a time, from one rule at a time. */
const guardLists = [...original.matchAll(/export const (\w+)[^\n]*= \{\n(?:(?!\n\}).)*?guards: \[([^\]]*)\]|export const (PAIR_GUARDS)[^=]*= \[([^\]]*)\]/gs)].map((m) => ({
  owner: m[1] ?? m[3],
  guards: (m[2] ?? m[4]).split(/,\s*/).filter(Boolean),
}))
const kindOf = (name) => new RegExp(`export const ${name}: Rule(?:<[^>]*>)? = \\{\\n  kind: '([^']+)'`).exec(original)?.[1]

function failing(mutated) {
  writeFileSync(RULES, mutated)
  const out = join(ROOT, '.remove-each.json')
  try {
    execFileSync('npx', ['vitest', 'run', TEST, '--reporter=json', `--outputFile=${out}`], {cwd: ROOT, stdio: 'ignore'})
  } catch {
    // failures exit non-zero: read the report
  }
  const report = JSON.parse(readFileSync(out, 'utf8'))
  rmSync(out, {force: true})
  return report.testResults.flatMap((f) => f.assertionResults).filter((a) => a.status === 'failed').map((a) => a.title)
}

let missed = 0
try {
  for (const name of tables) {
    const kind = kindOf(name)
    const failed = failing(original.replace(new RegExp(`\\n  ${name},\\n`), '\n'))
    const ok = failed.includes(kind)
    if (!ok) missed++
    console.log(`${ok ? 'ok  ' : 'MISS'} rule ${name} (${kind}) removed: failing ${JSON.stringify(failed)}`)
  }
  for (const {owner, guards} of guardLists) {
    for (const name of guards) {
      // this guard out of this rule's list only
      const mutated = original.replace(new RegExp(`(export const ${owner}[^\\n]*= (?:\\{\\n(?:(?!\\n\\}).)*?guards: )?\\[)([^\\]]*)\\]`, 's'), (_m, head, list) => `${head}${list.split(/,\s*/).filter((g) => g && g !== name).join(', ')}]`)
      if (mutated === original) throw new Error(`could not remove ${name} from ${owner}`)
      const failed = failing(mutated)
      const ok = failed.includes(name)
      if (!ok) missed++
      console.log(`${ok ? 'ok  ' : 'MISS'} guard ${name} removed from ${owner}: failing ${JSON.stringify(failed)}`)
    }
  }
} finally {
  writeFileSync(RULES, original)
}
console.log(`${tables.length} rules, ${guardLists.reduce((n, l) => n + l.guards.length, 0)} guards of rules: ${missed === 0 ? 'each one removed alone fails its own test' : `${missed} removed without their test failing`}`)
process.exitCode = missed === 0 ? 0 : 1
