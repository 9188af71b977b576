import {isOwnOrigin, originMark} from '../../model/memory.js'
import {addressesAgent} from '../../text/instructions.js'

/**
 * What an agent is told of a memory's origin (docs/security.md, "What reaches an agent"): the
 * user's own memories as they are; any other — a project file's seed, a pack, a layer, a store
 * this machine did not write — with a short mark, and held back from what is pushed to the agent
 * unasked (session context, prompt hook) when its text speaks to the agent as instructions.
 */
export function originSuffix(origin: string): string {
  const mark = originMark(origin)
  return mark ? ` (${mark})` : ''
}

/** True when a memory must not be pushed to an agent: instruction-shaped text from an origin other than the user's own. */
export function heldBack(m: {origin: string; content: string}): boolean {
  return !isOwnOrigin(m.origin) && addressesAgent(m.content)
}
