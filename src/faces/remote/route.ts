/**
 * Remote mode's one routing point (docs/team.md, "Remote mode"): the route every face that acts
 * for a checkout (the CLI, `mem mcp`, the agent hooks) gives its context. `invoke` hands it each
 * operation call; when the call's checkout is mapped to a team server (`.mem/remote.json`, or
 * MEM_SERVER in the environment) the call is answered there through the project's client
 * (./calls.ts), else it runs here, exactly as without a route.
 *
 * A checkout without a remote pays one failed read of `.mem/remote.json` per command: this module
 * loads neither the client nor the catalog until a remote is found.
 */
import {existsSync} from 'node:fs'
import {isAbsolute, join} from 'node:path'
import type {MemContext, RemoteRoute} from '../../engines/context.js'
import {findRepoRoot, isDrivePath, looksLikePath} from '../../config/paths.js'
import type {RemoteTarget} from '../../runtime/remote-config.js'
import type {RemoteRouteOptions} from './options.js'

export type {RemoteRouteOptions} from './options.js'


/** Operations that have nothing to do with a repository's memory: always here. */
const ALWAYS_LOCAL = new Set(['repos', 'init', 'setup', 'hooksInstall', 'hooksUninstall'])

export function remoteRoute(options: RemoteRouteOptions): RemoteRoute {
  const targets = new Map<string, RemoteTarget | null>()
  const targetOf = async (root: string): Promise<RemoteTarget | null> => {
    let target = targets.get(root)
    if (target === undefined) {
      // local mode's whole cost: the environment, and one stat of .mem/remote.json
      const mapped = !!options.env.MEM_SERVER?.trim() || existsSync(join(root, '.mem', 'remote.json'))
      target = mapped ? ((await import('../../runtime/remote-config.js')).remoteTarget(root, options.env, options.home) ?? null) : null
      targets.set(root, target)
    }
    return target
  }
  return {
    async call(ctx: MemContext, op: {name: string}, input: unknown) {
      if (ALWAYS_LOCAL.has(op.name)) return undefined
      const root = checkoutOf(input, options.cwd)
      if (!root) return undefined
      const target = await targetOf(root)
      if (!target) return undefined
      const {callRemote} = await import('./calls.js')
      return callRemote(ctx, target, op.name, input as Record<string, unknown>, options)
    },
  }
}

/**
 * The checkout a call is for: its `repo` when that is a folder, else (a call by memory id, or one
 * that names no repo) the checkout of the working directory. A repo given as an id is not a
 * checkout: it runs here.
 */
function checkoutOf(input: unknown, cwd: string): string | undefined {
  const repo = input && typeof input === 'object' ? (input as {repo?: unknown}).repo : undefined
  if (typeof repo === 'string' && repo.trim()) {
    const v = repo.trim()
    if (!looksLikePath(v) || isDrivePath(v)) return undefined
    return isAbsolute(v) ? v : undefined
  }
  return findRepoRoot(cwd)
}
