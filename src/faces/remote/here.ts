import {resolveHome} from '../../config/home.js'
import type {RemoteRoute} from '../../engines/context.js'
import {remoteRoute} from './route.js'

/**
 * The remote route of this process (./route.ts) for the CLI, `mem mcp` and the hooks: the
 * environment (MEM_SERVER, MEM_KEY, MEM_HOME) and working directory of the process. Costs nothing
 * until a call asks it; `timeoutMs` is how long the server may take to answer (the hooks give less).
 */
export function remoteRouteHere(options: {timeoutMs?: number; quiet?: boolean} = {}): RemoteRoute {
  return remoteRoute({
    env: process.env,
    home: resolveHome(process.env),
    cwd: process.cwd(),
    timeoutMs: options.timeoutMs ?? (Number(process.env.MEM_REMOTE_TIMEOUT_MS) > 0 ? Number(process.env.MEM_REMOTE_TIMEOUT_MS) : undefined),
    onNotice: options.quiet ? undefined : (m) => process.stderr.write(`${m}\n`),
  })
}
