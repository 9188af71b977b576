/**
 * Runs the terminal browser on a real terminal: the alternate screen (left on every path: quit,
 * Ctrl-C, an error, a signal, process exit), the editor hand-over and the OSC 52 clipboard.
 * Only `mem browse` imports this module (lazily), so ink and React load for it alone.
 */
import {spawnSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {render} from 'ink'
import type {MemContext} from '../../engines/context.js'
import type {MemoryType} from '../../model/memory.js'
import {Browser, type BrowserProps} from './app.js'

const ENTER_ALT = '\u001b[?1049h\u001b[2J\u001b[H'
const LEAVE_ALT = '\u001b[?1049l'
const SHOW_CURSOR = '\u001b[?25h'

export interface RunBrowserOptions {
  ctx: MemContext
  repo: string
  type?: MemoryType
  skip?: number
  env: Record<string, string | undefined>
  stdin?: NodeJS.ReadStream
  stdout?: NodeJS.WriteStream
  refreshMs?: number
  firstPage?: BrowserProps['firstPage']
}

/** Single-quotes a word for /bin/sh. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}

/** OSC 52: the terminal (and tmux with set-clipboard on) puts the text on the clipboard. */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`
}

/** Splits what was read at once into keys: one character, or one whole escape sequence. */
export function splitKeys(chunk: string): string[] {
  const keys: string[] = []
  const chars = [...chunk]
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] !== '\u001b' || i === chars.length - 1) {
      keys.push(chars[i])
      continue
    }
    let end = i + 1
    if (chars[end] === '\u001b') end++ // meta + sequence
    else if (chars[end] !== '[' && chars[end] !== 'O') {
      // Esc, then a key typed quickly after it (the app has no Alt-key bindings)
      keys.push(chars[i])
      continue
    }
    if (chars[end] === '[') {
      end++
      if (chars[end] === '[') end++ // legacy function keys: ESC [ [ A
      while (end < chars.length && /[\x20-\x3f]/.test(chars[end])) end++
    } else if (chars[end] === 'O') end++
    keys.push(chars.slice(i, Math.min(end + 1, chars.length)).join(''))
    i = end
  }
  return keys
}

/**
 * Ink hands the keys read in one go (`/docker` typed fast, pasted, or sent by a script) to the
 * app in one turn, before React has applied the first one: `/` would open the search field only
 * after `docker` went to the list as commands. This hands Ink one key per turn of the event loop.
 * Returns the function that puts the stream back.
 */
export function oneKeyAtATime(stdin: NodeJS.ReadStream): () => void {
  const original = stdin.read
  const queue: string[] = []
  let holding = false
  stdin.read = function read(this: NodeJS.ReadStream, size?: number) {
    if (holding) return null
    if (queue.length === 0) {
      const chunk = original.call(this, size) as string | Buffer | null
      if (chunk === null) return null
      queue.push(...splitKeys(String(chunk)))
    }
    const key = queue.shift() ?? null
    if (queue.length > 0) {
      holding = true
      const next = () => {
        holding = false
        this.emit('readable')
      }
      // a lone Esc waits for Ink to flush it as a key (Ink does so on the next check phase)
      if (key === '\u001b') setTimeout(next, 1)
      else setImmediate(next)
    }
    return key
  } as typeof stdin.read
  return () => {
    stdin.read = original
  }
}

export async function runBrowser(options: RunBrowserOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin
  const stdout = options.stdout ?? process.stdout
  const editor = options.env.VISUAL || options.env.EDITOR || 'vi'
  let onAlt = false
  const enterAlt = () => {
    if (!onAlt) stdout.write(ENTER_ALT)
    onAlt = true
  }
  const leaveAlt = () => {
    if (onAlt) stdout.write(LEAVE_ALT + SHOW_CURSOR)
    onAlt = false
  }
  const onExit = () => leaveAlt()
  process.on('exit', onExit)

  /** The editor gets the whole terminal: main screen, cooked mode; then the app redraws. */
  const editText = (text: string): string | null => {
    const dir = mkdtempSync(join(tmpdir(), 'mem-edit-'))
    const file = join(dir, 'memory.md')
    try {
      writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`)
      leaveAlt()
      const raw = stdin.isTTY && stdin.isRaw
      if (raw) stdin.setRawMode(false)
      let result
      try {
        result = spawnSync(`${editor} ${shellQuote(file)}`, {shell: true, stdio: 'inherit'})
      } finally {
        if (raw) stdin.setRawMode(true)
        enterAlt()
      }
      if (result.error || result.status !== 0) return null
      return readFileSync(file, 'utf8')
    } finally {
      rmSync(dir, {recursive: true, force: true})
    }
  }

  const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGHUP']
  let instance: ReturnType<typeof render> | undefined
  const onSignal = () => instance?.unmount()
  const restoreRead = oneKeyAtATime(stdin)
  enterAlt()
  try {
    for (const s of signals) process.on(s, onSignal)
    instance = render(
      <Browser
        ctx={options.ctx}
        repo={options.repo}
        type={options.type}
        skip={options.skip}
        editText={editText}
        copy={(text) => stdout.write(osc52(text))}
        refreshMs={options.refreshMs}
        firstPage={options.firstPage}
        color={!options.env.NO_COLOR}
      />,
      {stdin, stdout, exitOnCtrlC: true, patchConsole: true},
    )
    await instance.waitUntilExit()
  } finally {
    for (const s of signals) process.off(s, onSignal)
    instance?.cleanup()
    restoreRead()
    leaveAlt()
    process.off('exit', onExit)
  }
}
