/** What several declarations share: the path parameter of a memory id, an optional repo, a count of one. */
import {z} from 'zod'
import {MemoryRef} from '../../model/schemas.js'

export const OptionalRepo = z.string().optional().describe('Repository path or repo id; defaults to the repo the id names.')
export const IdParams = z.object({id: MemoryRef.describe('Memory id, URL-encoded (/ as %2F), or a unique prefix of its key (≥ 6 hex digits) with ?repo=.')})
export const RepoOnly = z.object({repo: OptionalRepo})
/** A call that handled one memory. */
export const one = (): number => 1
