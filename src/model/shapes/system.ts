/** Shapes of the service's own routes: health and status. */
import {z} from 'zod'
import {EnrichmentStatus} from './insight.js'

export const HealthResult = z.strictObject({
  status: z.string(),
  version: z.string(),
  latestVersion: z.string().nullable(),
  updateAvailable: z.boolean(),
})
export type HealthResult = z.output<typeof HealthResult>
export const StatusResult = z.strictObject({
  version: z.string(),
  status: z.string(),
  uptime: z.string().describe('Human uptime, e.g. "1 day, 2 hours, 5 minutes"'),
  api: z.string().describe('The address the service listens on'),
  enrichment: EnrichmentStatus,
})
export type StatusResult = z.output<typeof StatusResult>
