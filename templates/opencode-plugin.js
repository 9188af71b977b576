// mem's OpenCode plugin, written by `mem setup opencode` (`mem setup opencode --uninstall` removes
// it). It runs mem from the PATH: `mem hook session-start --host opencode` for the session context,
// `mem hook prompt --host opencode` for memories relevant to each prompt, and
// `mem hook pre-compact --host opencode` for a reminder to store what was learned before a
// compaction. mem answers in plain text; a failure or a slow answer adds nothing.
//
// What mem adds goes into the conversation the agent's model calls send, once: the context before
// the session's first prompt, each prompt's memories beside that prompt (experimental.chat.messages.
// transform). Nothing goes into the system prompt, so OpenCode's own calls (the title generator)
// carry none of it.
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
  const contexts = new Map() // session id → the session context (a promise), fetched once per process
  const memories = new Map() // user message id → memories relevant to that prompt
  const contextOf = (sessionID) => {
    if (!contexts.has(sessionID)) contexts.set(sessionID, hook('session-start', {session_id: sessionID, cwd: directory}, directory))
    return contexts.get(sessionID)
  }
  // a message list the host hands over again (the same objects, next step of a turn) is not added to twice
  const add = (message, kind, text, first) => {
    const id = `prt_mem_${kind}_${message.info.id}`
    if (message.parts.some((p) => p?.id === id)) return
    const part = {id, sessionID: message.info.sessionID, messageID: message.info.id, type: 'text', text, synthetic: true}
    if (first) message.parts.unshift(part)
    else message.parts.push(part)
  }
  return {
    'chat.message': async (input, output) => {
      // the context first, so the prompt's memories never repeat what it shows
      await contextOf(input.sessionID)
      const prompt = (output.parts ?? [])
        .filter((p) => p.type === 'text' && !p.synthetic)
        .map((p) => p.text)
        .join('\n')
      if (!prompt.trim() || !output.message?.id) return
      const text = await hook('prompt', {session_id: input.sessionID, cwd: directory, prompt}, directory)
      if (text) memories.set(output.message.id, text)
    },
    'experimental.chat.messages.transform': async (_input, output) => {
      const users = (output.messages ?? []).filter((m) => m?.info?.role === 'user' && Array.isArray(m.parts))
      if (users.length === 0) return
      const context = await contextOf(users[0].info.sessionID)
      if (context) add(users[0], 'context', context, true)
      for (const m of users) if (memories.has(m.info.id)) add(m, 'recall', memories.get(m.info.id), false)
    },
    'experimental.session.compacting': async (input, output) => {
      const text = await hook('pre-compact', {session_id: input.sessionID, cwd: directory}, directory)
      if (text) output.context.push(text)
    },
  }
}
