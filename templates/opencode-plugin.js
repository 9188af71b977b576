// mem's OpenCode plugin, written by `mem setup opencode` (`mem setup opencode --uninstall` removes
// it). It runs mem from the PATH: `mem hook session-start --host opencode` for the session context
// at the start of a session, `mem hook prompt --host opencode` for memories relevant to each
// prompt, and `mem hook pre-compact --host opencode` for a reminder to store what was learned
// before a compaction. mem answers in plain text; a failure or a slow answer adds nothing.
import {spawn} from 'node:child_process'

const LIMIT_MS = 5000

function hook(event, input, cwd) {
  return new Promise((resolve) => {
    let out = ''
    let done = false
    const finish = (text) => {
      if (done) return
      done = true
      resolve(text.trim())
    }
    try {
      const child = spawn('mem', ['hook', event, '--host', 'opencode'], {cwd, stdio: ['pipe', 'pipe', 'ignore']})
      const timer = setTimeout(() => {
        child.kill()
        finish('')
      }, LIMIT_MS)
      child.stdout.on('data', (chunk) => (out += chunk))
      child.on('error', () => finish(''))
      child.on('close', () => {
        clearTimeout(timer)
        finish(out)
      })
      child.stdin.on('error', () => undefined)
      child.stdin.end(JSON.stringify(input))
    } catch {
      finish('')
    }
  })
}

/** @type {import('@opencode-ai/plugin').Plugin} */
export const MemPlugin = async ({directory}) => {
  const context = new Map() // session id → the session context, fetched once
  const pending = new Map() // session id → memories for the prompt being answered
  return {
    'chat.message': async (input, output) => {
      const prompt = (output.parts ?? [])
        .filter((p) => p.type === 'text' && !p.synthetic)
        .map((p) => p.text)
        .join('\n')
      if (!prompt.trim()) return
      const text = await hook('prompt', {session_id: input.sessionID, cwd: directory, prompt}, directory)
      if (text) pending.set(input.sessionID, text)
      else pending.delete(input.sessionID)
    },
    'experimental.chat.system.transform': async (input, output) => {
      const id = input.sessionID ?? 'default'
      if (!context.has(id)) context.set(id, await hook('session-start', {session_id: id, cwd: directory}, directory))
      if (context.get(id)) output.system.push(context.get(id))
      if (pending.has(id)) output.system.push(pending.get(id))
    },
    'experimental.session.compacting': async (input, output) => {
      const text = await hook('pre-compact', {session_id: input.sessionID, cwd: directory}, directory)
      if (text) output.context.push(text)
    },
  }
}
