// The real agent hosts the end-to-end tests drive: each pinned in versions.json (a version bump is
// one line there), installed from npm by scripts/test-prepare.mjs into a cache folder outside the
// repository (MEM_TEST_HOSTS_DIR, default ~/.cache/mem-test-hosts/<package>@<version>) and reused.
import {existsSync, readFileSync} from 'node:fs'
import {homedir} from 'node:os'
import {join} from 'node:path'

export type RealHost = 'claude' | 'codex' | 'gemini' | 'opencode'
export const REAL_HOSTS: Record<RealHost, {package: string; version: string; bin: string}> = JSON.parse(readFileSync(join(import.meta.dirname, 'versions.json'), 'utf8'))

export function hostsCache(): string {
  return process.env.MEM_TEST_HOSTS_DIR?.trim() || join(homedir(), '.cache', 'mem-test-hosts')
}

export function hostDir(host: RealHost): string {
  const h = REAL_HOSTS[host]
  return join(hostsCache(), `${h.package.replace('/', '+')}@${h.version}`)
}

/** The host's command, installed; throws with the fix when it is not. */
export function hostBin(host: RealHost): string {
  const bin = join(hostDir(host), 'node_modules', '.bin', REAL_HOSTS[host].bin)
  if (!existsSync(bin)) throw new Error(`${REAL_HOSTS[host].package}@${REAL_HOSTS[host].version} is not installed in ${hostDir(host)}: run \`node scripts/test-prepare.mjs\` (npm test does).`)
  return bin
}

/** A file of the host's package (Gemini CLI's bundle entry, run with this Node). */
export function hostEntry(host: 'gemini'): string {
  hostBin(host)
  return join(hostDir(host), 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js')
}
