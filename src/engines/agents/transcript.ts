/**
 * Lessons a session's transcript suggests, found without a model: a shell command that failed
 * and then a command of the same tool that worked (a procedure), or the same command failing and
 * then passing after files were edited (an error and its fix). Only candidates: the stop hook
 * offers them to the agent, which stores what is true through `mem store` (the secret and
 * duplicate gates apply there; the hook also drops candidates those gates would refuse).
 *
 * Reads the JSONL transcripts of Claude Code (assistant `tool_use` / user `tool_result` entries)
 * and Codex (rollout `function_call` / `function_call_output` items); anything else yields none.
 */

import {admitText} from '../../text/admit.js'

export interface CommandRun {
  command: string
  ok: boolean
  /** The first line of the output that reads like an error, for a failure. */
  error?: string
  /** Files edited between the previous command and this one. */
  editedBefore: string[]
}

export interface Candidate {
  type: 'procedure' | 'insight'
  content: string
  tags: string[]
}

const MAX_BYTES = 8 * 1024 * 1024

/** The shell commands of a transcript, in order, with whether each worked. */
export function commandRuns(text: string): CommandRun[] {
  const body = text.length > MAX_BYTES ? text.slice(text.length - MAX_BYTES) : text
  const pending = new Map<string, {command: string; editedBefore: string[]}>()
  const runs: CommandRun[] = []
  let edited: string[] = []
  for (const line of body.split('\n')) {
    if (!line.trim().startsWith('{')) continue
    let entry: Record<string, any>
    try {
      entry = JSON.parse(line)
    } catch {
      continue
    }
    // Claude Code
    const content = entry?.message?.content
    if (Array.isArray(content)) {
      for (const item of content) {
        if (item?.type === 'tool_use' && typeof item.id === 'string') {
          const input = item.input ?? {}
          if (typeof input.command === 'string' && /bash|shell/i.test(String(item.name))) {
            pending.set(item.id, {command: input.command, editedBefore: edited})
            edited = []
          } else if (typeof input.file_path === 'string' && /edit|write/i.test(String(item.name))) {
            edited.push(input.file_path)
          }
        } else if (item?.type === 'tool_result' && typeof item.tool_use_id === 'string' && pending.has(item.tool_use_id)) {
          const call = pending.get(item.tool_use_id)!
          pending.delete(item.tool_use_id)
          const out = resultText(item.content)
          const ok = item.is_error !== true && !/^Exit code [1-9]/m.test(out)
          runs.push({...call, ok, ...(ok ? {} : {error: errorLine(out)})})
        }
      }
      continue
    }
    // Codex rollout
    const p = entry?.payload
    if (p?.type === 'function_call' && typeof p.call_id === 'string') {
      const command = codexCommand(p.arguments)
      if (command) {
        pending.set(p.call_id, {command, editedBefore: edited})
        edited = []
      }
    } else if (p?.type === 'function_call_output' && pending.has(p.call_id)) {
      const call = pending.get(p.call_id)!
      pending.delete(p.call_id)
      const {exitCode, output} = codexOutput(p.output)
      const ok = exitCode === 0
      runs.push({...call, ok, ...(ok ? {} : {error: errorLine(output)})})
    }
  }
  return runs
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map((c) => (typeof c?.text === 'string' ? c.text : '')).join('\n')
  return ''
}

function codexCommand(args: unknown): string | undefined {
  try {
    const a = typeof args === 'string' ? JSON.parse(args) : args
    const cmd = a?.command ?? a?.cmd
    if (typeof cmd === 'string') return cmd
    if (Array.isArray(cmd)) {
      const parts = cmd.filter((c: unknown): c is string => typeof c === 'string')
      // ["bash", "-lc", "npm test"] runs the last part
      return parts.length >= 3 && /(^|\/)(ba|z)?sh$/.test(parts[0]) && parts[1].startsWith('-') ? parts.slice(2).join(' ') : parts.join(' ')
    }
  } catch {
    // not JSON
  }
  return undefined
}

function codexOutput(output: unknown): {exitCode: number; output: string} {
  try {
    const o = typeof output === 'string' ? JSON.parse(output) : output
    const code = o?.metadata?.exit_code ?? o?.exit_code
    return {exitCode: typeof code === 'number' ? code : 0, output: String(o?.output ?? '')}
  } catch {
    const text = String(output ?? '')
    const m = /exit code:?\s*(\d+)/i.exec(text)
    return {exitCode: m ? Number(m[1]) : 0, output: text}
  }
}

const ERROR_LINE = /(error|fail|cannot|not found|denied|invalid|unexpected|exception|refused|missing)/i

function errorLine(out: string): string | undefined {
  const lines = out.split('\n').map((l) => l.trim()).filter((l) => l && !/^Exit code \d+$/.test(l))
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0]
  return line ? quote(line, 160) : undefined
}

/** The tool a command runs and its first argument (`npm test`, `npx vitest`, `cargo build`). */
function toolKey(command: string): string {
  const words = command.replace(/^(\w+=\S+\s+)+/, '').trim().split(/\s+/)
  return words.slice(0, 2).join(' ')
}

/**
 * A command or error line as a candidate quotes it: admitted like any stored text (hidden
 * characters out, NFC) and cut at a space, never inside a word, so a token or password in it is
 * either whole, for the gate to see, or not there at all (a token cut to its first half passes
 * the gate's length rules and still leaks that half).
 */
function quote(s: string, n: number): string {
  const one = admitText(s).replace(/\s+/g, ' ').trim()
  if (one.length <= n) return one
  const cut = one.lastIndexOf(' ', n - 1)
  return cut > 0 ? `${one.slice(0, cut)} …` : '…'
}

/**
 * At most `max` candidate lessons from a transcript's commands, newest first, no two alike. Each
 * quotes whole words of its commands (see quote); the stop hook then drops any the store's gate
 * would refuse (operations/agent-hooks.ts), so what is offered can be stored as it stands.
 */
export function candidatesFrom(runs: CommandRun[], max = 3): Candidate[] {
  const out: Candidate[] = []
  const seen = new Set<string>()
  for (let i = runs.length - 1; i >= 0 && out.length < max; i--) {
    const ok = runs[i]
    if (!ok.ok) continue
    // the last failure of the same tool before this success, within a few commands
    for (let j = i - 1; j >= Math.max(0, i - 12); j--) {
      const bad = runs[j]
      if (bad.ok || toolKey(bad.command) !== toolKey(ok.command)) continue
      const key = `${bad.command}\0${ok.command}`
      if (seen.has(key)) break
      seen.add(key)
      const err = bad.error ? ` (${bad.error})` : ''
      if (bad.command.trim() === ok.command.trim()) {
        const files = [...new Set(runs.slice(j + 1, i + 1).flatMap((r) => r.editedBefore))].slice(0, 3)
        if (files.length === 0) break // passed again unchanged: a flake, not a lesson
        out.push({type: 'insight', content: quote(`\`${quote(ok.command, 80)}\` failed${err}; it passed after changes to ${files.map((f) => f.split('/').slice(-2).join('/')).join(', ')}.`, 400), tags: ['fix']})
      } else {
        out.push({type: 'procedure', content: quote(`Use \`${quote(ok.command, 100)}\`: \`${quote(bad.command, 100)}\` failed${err}.`, 400), tags: ['command']})
      }
      break
    }
  }
  return out
}
