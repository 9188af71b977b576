/** How `mem setup` reads on a terminal. */
import {HOST_SPECS, HOSTS, HOOK_EVENTS, type HostId} from '../../engines/agents/hosts.js'
import {hostFiles} from '../../engines/agents/setup-plan.js'
import type {SetupResult} from '../../operations/setup.js'

export interface HostListing {
  host: HostId
  name: string
  files: string[]
  hooked: Array<{event: string; hostEvent: string}>
  missing: Array<{event: string; why: string}>
  docs: string[]
  notes: string[]
  trust: string[]
}

export function listHosts(): HostListing[] {
  return HOSTS.map((host) => {
    const spec = HOST_SPECS[host]
    return {
      host,
      name: spec.name,
      files: hostFiles(host, {instructions: '', opencodePlugin: ''}).map((f) => f.path),
      hooked: HOOK_EVENTS.filter((e) => spec.events[e]).map((event) => ({event, hostEvent: spec.events[event]!})),
      missing: HOOK_EVENTS.filter((e) => spec.missing[e]).map((event) => ({event, why: spec.missing[event]!})),
      docs: spec.docs,
      notes: spec.notes,
      trust: spec.trust,
    }
  })
}

export function formatHostList(list: HostListing[]): string {
  return list
    .map((h) =>
      [
        `${h.host} (${h.name})`,
        `  writes: ${h.files.join(', ')}`,
        `  hooks:  ${h.hooked.map((e) => `${e.event} → ${e.hostEvent}`).join(', ')}`,
        ...h.missing.map((m) => `  no hook for ${m.event}: ${m.why}`),
        ...h.notes.map((n) => `  note: ${n}`),
        ...h.trust.map((t) => `  trust: ${t}`),
        `  docs:   ${h.docs.join(' ')}`,
      ].join('\n'),
    )
    .join('\n\n')
}

const VERB: Record<string, string> = {create: 'created', update: 'updated', remove: 'removed', restore: 'restored', unchanged: 'unchanged', kept: 'kept', conflict: 'left alone'}

export function formatSetup(r: SetupResult): string {
  const lines: string[] = []
  if (r.dryRun) {
    const diffs = r.files.map((f) => f.diff).filter(Boolean)
    lines.push(diffs.length ? diffs.join('') : `Nothing to change for ${r.name}.`)
    for (const f of r.files.filter((f) => f.note)) lines.push(`${f.path}: ${f.note}`)
    return lines.join('\n').trimEnd()
  }
  lines.push(`${r.uninstall ? 'Took out' : 'Set up'} ${r.name} in ${r.root}:`)
  for (const f of r.files) lines.push(`  ${(r.dryRun ? f.action : VERB[f.action]).padEnd(10)} ${f.path}${f.note ? ` (${f.note})` : ''}`)
  if (!r.uninstall) {
    lines.push(`Hooks: ${r.hooked.map((e) => `${e.event} (${e.hostEvent})`).join(', ')}.`)
    for (const m of r.missing) lines.push(`No hook for ${m.event}: ${m.why}`)
    for (const n of HOST_SPECS[r.host].notes) lines.push(`Note: ${n}`)
    lines.push('The hooks run `mem` from the PATH: make sure it is there for the host (`npm install -g`, or a link).')
    lines.push(`Before ${r.name} runs them, once:`)
    for (const t of r.trust) lines.push(`  - ${t}`)
  } else if (r.leftBehind.length > 0) {
    lines.push(`Left in place (${r.name} put these into folders setup made; they are not mem's): ${r.leftBehind.join(', ')}. Remove them if ${r.name} no longer needs them.`)
  }
  return lines.join('\n')
}
