// Help and mistakes at the command line (issue 20): `mem -h`, "did you mean" for a mistyped command,
// help text wrapped once (by oclif, to the terminal), and `mem keys auth` to turn auth off again.
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {distance, suggest} from '../../../src/faces/cli/not-found.js'
import {runCli, runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

function setup() {
  const base = tempDir()
  const home = join(base, 'home')
  const mem = (args: string[], env?: Record<string, string>) => runCliInProcess(args, {cwd: base, home, env})
  return {base, home, mem}
}

/** The DESCRIPTION section of a command's help, as printed. */
function descriptionOf(help: string): string[] {
  const lines = help.split('\n')
  const start = lines.indexOf('DESCRIPTION')
  expect(start, help).toBeGreaterThan(0)
  const end = lines.findIndex((l, i) => i > start && /^[A-Z]+$/.test(l))
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

describe('mem -h and --help', () => {
  it('mem -h and mem --help print the same command list; mem store -h prints the command\'s help', async () => {
    const {mem} = setup()
    const short = await mem(['-h'])
    expect(short.code, short.stderr).toBe(0)
    expect(short.stderr).not.toMatch(/not found/)
    expect(short.stdout).toMatch(/USAGE\s+\$ mem \[COMMAND\]/)
    for (const command of ['store', 'recall', 'serve', 'keys']) expect(short.stdout).toMatch(new RegExp(`^  ${command} `, 'm'))
    const long = await mem(['--help'])
    expect(long.stdout).toBe(short.stdout)
    const store = await mem(['store', '-h'])
    expect(store.code, store.stderr).toBe(0)
    expect(store.stdout).toMatch(/^Store a memory in this repository\./)
    expect(store.stdout).toContain('--supersedes=<value>')
    const recall = await mem(['recall', '-h']) // the quick path leaves help to oclif
    expect(recall.code).toBe(0)
    expect(recall.stdout).toContain('--limit=<value>')
  })
})

describe('a mistyped command', () => {
  it('names the command meant, exits 2, and says how to list them', async () => {
    const {mem} = setup()
    const stor = await mem(['stor', 'something'])
    expect(stor.code).toBe(2)
    expect(stor.stderr).toContain('Unknown command "stor". Did you mean `mem store`?')
    expect((await mem(['stor'])).stderr).toContain('Unknown command "stor". Did you mean `mem store`?')
    expect(stor.stderr).toContain('mem --help')
    expect(stor.stderr).not.toMatch(/command stor not found/)
    const topic = await mem(['pack', 'exprot'])
    expect(topic.code).toBe(2)
    expect(topic.stderr).toContain('Did you mean `mem pack export`?')
    const nothing = await mem(['zzzqqq', 'more'])
    expect(nothing.code).toBe(2)
    expect(nothing.stderr).toContain('Unknown command "zzzqqq".')
    expect(nothing.stderr).not.toContain('Did you mean')
  })

  it('suggest: close names within a quarter of the length, prefixes, swapped letters; nothing far off', () => {
    const known = ['store', 'stats', 'status', 'recall', 'repos', 'pack export', 'pack import', 'keys', 'consolidate']
    expect(suggest('stor', known)).toEqual(['store'])
    expect(suggest('stoer', known)).toEqual(['store'])
    expect(suggest('recal', known)).toEqual(['recall'])
    expect(suggest('consoldate', known)).toEqual(['consolidate'])
    expect(suggest('pack exprot', known)).toEqual(['pack export'])
    expect(suggest('key', known)).toEqual(['keys'])
    expect(suggest('st', known)).toEqual(['stats', 'status', 'store'])
    expect(suggest('deploy', known)).toEqual([])
    expect(distance('abc', 'acb')).toBe(1)
    expect(distance('', 'abc')).toBe(3)
    expect(distance('kitten', 'sitting')).toBe(3)
  })
})

describe('help text', () => {
  const commandsDir = join(import.meta.dirname, '..', '..', '..', 'src', 'faces', 'cli', 'commands')
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []))

  it('is not wrapped by hand in the command files: a description breaks only between paragraphs', () => {
    const found = files(commandsDir).flatMap((file) => {
      const m = /static description =\s*(`(?:[^`\\]|\\.)*`|'(?:[^'\\]|\\.)*')/s.exec(readFileSync(file, 'utf8'))
      return m ? [{file, text: m[1]}] : []
    })
    expect(found.length).toBeGreaterThan(15)
    for (const {file, text} of found) expect(text.replace(/\n\n/g, ''), file).not.toContain('\n')
  })

  it('is wrapped once, to the terminal: at 80 columns every line of a paragraph but its last is filled', async () => {
    const {mem} = setup()
    for (const command of [['intake'], ['hooks', 'install'], ['serve'], ['quality']]) {
      const help = await mem([...command, '--help'])
      const lines = descriptionOf(help.stdout)
      const paragraphs = lines.join('\n').split(/\n\s*\n/).map((p) => p.split('\n').filter((l) => l.trim()))
      for (const p of paragraphs) {
        for (const line of p.slice(0, -1)) {
          expect(line.length, `${command.join(' ')}: "${line}"`).toBeLessThanOrEqual(80)
          expect(line.length, `${command.join(' ')}: a short line mid-paragraph, "${line}"`).toBeGreaterThan(60)
        }
      }
    }
  })

  it('on a wide terminal a paragraph takes the width (OCLIF_COLUMNS=200, a process of its own)', () => {
    const base = tempDir()
    const r = runCli(['intake', '--help'], {cwd: base, home: join(base, 'home'), env: {OCLIF_COLUMNS: '200'}})
    expect(r.code).toBe(0)
    const first = descriptionOf(r.stdout).find((l) => l.includes('Reads the files'))!
    expect(first.length).toBeGreaterThan(150)
    expect(first).toContain('Reads the files an agent needs to know: agent instruction files (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md')
  })
})

describe('mem keys auth', () => {
  it('turns auth off after the last key is revoked, and on again only with a key', async () => {
    const {mem, home} = setup()
    const created = await mem(['keys', 'create', 'ci', '--scope', 'write', '--json'])
    expect(created.json()).toMatchObject({authEnabled: true, turnedAuthOn: true})
    const revoked = await mem(['keys', 'revoke', 'ci'])
    expect(revoked.stdout).toContain('`mem keys auth off` turns auth off')
    expect((await mem(['keys', 'list', '--json'])).json()).toMatchObject({authEnabled: true, keys: []})

    const shown = await mem(['keys', 'auth'])
    expect(shown.stdout).toContain('API key auth: on (0 keys)')
    const off = await mem(['keys', 'auth', 'off', '--json'])
    expect(off.code, off.stderr).toBe(0)
    expect(off.json()).toEqual({authEnabled: false, changed: true, keys: 0})
    expect((await mem(['keys', 'list', '--json'])).json()).toMatchObject({authEnabled: false})
    expect(readFileSync(join(home, 'config.yaml'), 'utf8')).toMatch(/enabled: false/)
    expect((await mem(['keys', 'auth', 'off'])).stdout).toContain('API key auth is off already.')

    // on with no key would lock every client out: refused, nothing changed
    const on = await mem(['keys', 'auth', 'on'])
    expect(on.code).toBe(4)
    expect(on.stderr).toMatch(/No API key exists/)
    expect((await mem(['keys', 'list', '--json'])).json()).toMatchObject({authEnabled: false})
    // the first key turns it on, as always; off and on again keep the key
    expect((await mem(['keys', 'create', 'ci', '--scope', 'read', '--json'])).json()).toMatchObject({authEnabled: true, turnedAuthOn: true})
    expect((await mem(['keys', 'auth', 'off', '--json'])).json()).toEqual({authEnabled: false, changed: true, keys: 1})
    const onAgain = await mem(['keys', 'auth', 'on', '--json'])
    expect(onAgain.json()).toEqual({authEnabled: true, changed: true, keys: 1})
    expect((await mem(['keys', 'list', '--json'])).json()).toMatchObject({authEnabled: true, keys: [expect.objectContaining({name: 'ci'})]})

    const bad = await mem(['keys', 'auth', 'maybe'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/Expected maybe to be one of: on, off/)
  })
})

describe("oclif's parse errors, worded as mem words its own", () => {
  it('one plain line each, with the flag or argument named, exit 2, and the same in --json', async () => {
    const {mem} = setup()
    const cases: Array<[string[], string]> = [
      [['recall', 'pnpm', '--limit', 'abc'], 'Invalid --limit: expected an integer but received: abc'],
      [['store', 'some text'], 'Missing required flag --type'],
      [['recall'], 'Missing the argument q (the question or keywords)'],
      [['links', 'attach'], 'Missing the arguments id (the memory to link from), targetId (the memory to link to)'],
      [['recall', 'a', 'b', 'c'], 'Unexpected arguments: b, c'],
    ]
    for (const [args, message] of cases) {
      const r = await mem(args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.stderr.split('\n')[0], args.join(' ')).toBe(`Error: ${message}`)
      const json = await mem([...args, '--json'])
      expect(json.code).toBe(2)
      expect(JSON.parse(json.stdout)).toMatchObject({error: message, code: 'invalid_input'})
    }
  })

  it('keeps the words of a message of another shape, its lines joined', async () => {
    const {plainParseMessage} = await import('../../../src/faces/cli/mem-command.js')
    expect(plainParseMessage('Nonexistent flag: --bogus\nSee more help with --help')).toBe('Nonexistent flag: --bogus')
    expect(plainParseMessage('The following errors occurred:\n  Missing required flag type\n  Missing required flag repo')).toBe('Missing required flag --type; Missing required flag --repo')
    expect(plainParseMessage('Something new\n  on two lines')).toBe('Something new; on two lines')
  })
})
