/** Usage statistics, the quality report, the dashboard data, enrichment. */
import {z} from 'zod'
import {ERROR_CODES} from '../../model/errors.js'
import * as I from '../../model/shapes/insight.js'

import {defineOp, type OpDef} from '../define.js'
import {enrich, enrichAll, EnrichAllInput, EnrichInput} from '../enrich.js'
import {portal, PortalInput} from '../portal.js'
import {quality, QualityInput} from '../quality.js'
import {usage, usageHourly, UsageHourlyInput, UsageInput, usageTimeseries} from '../usage.js'


export const insightOps = {
  usage: defineOp({
    name: 'usage',
    summary: 'Calls per operation over the last `days` UTC days (default 30)',
    access: 'read',
    input: UsageInput,
    output: I.UsageResult,
    track: {count: (r) => r.operations.length},
    run: usage,
    http: {method: 'GET', path: '/api/mem/usage', answer: 'Usage by operation, most called first', tag: 'insight'},
  }),
  usageTimeseries: defineOp({
    name: 'usageTimeseries',
    summary: 'Calls per UTC day (every day present, zeros included)',
    access: 'read',
    input: UsageInput,
    output: I.UsageTimeseries,
    track: {as: 'usage-timeseries', count: (r) => r.buckets.length},
    run: usageTimeseries,
    http: {method: 'GET', path: '/api/mem/usage/timeseries', answer: 'Daily buckets, oldest first', tag: 'insight'},
  }),
  usageHourly: defineOp({
    name: 'usageHourly',
    summary: 'Calls per UTC hour over the last `days` days (default 7, at most 31)',
    access: 'read',
    input: UsageHourlyInput,
    output: I.UsageHourly,
    track: {as: 'usage-hourly', count: (r) => r.buckets.length},
    run: usageHourly,
    http: {method: 'GET', path: '/api/mem/usage/hourly', answer: 'Hourly buckets, oldest first', tag: 'insight'},
  }),
  quality: defineOp({
    name: 'quality',
    summary: 'Recall quality: echo and fizzle ratios, stale and dead memories, issues with advice, a score',
    access: 'read',
    input: QualityInput,
    output: I.QualityReport,
    track: {count: (r) => r.issues.length},
    run: quality,
    http: {method: 'GET', path: '/api/mem/quality', answer: 'The quality report', tag: 'insight'},
  }),
  portal: defineOp({
    name: 'portal',
    summary: "The web UI dashboard's data in one call",
    description: "Counts, the ten newest memories, the quality report, 30 days of usage and the scheduled tasks (this repo's and the global ones).",
    access: 'read',
    input: PortalInput,
    output: I.PortalResult,
    track: {count: (r) => r.recent.length},
    run: portal,
    http: {method: 'GET', path: '/api/mem/portal', answer: 'Dashboard data', tag: 'insight'},
  }),
  enrich: defineOp({
    name: 'enrich',
    summary: 'Write a one-liner, summary, foresight hint and entities for a memory',
    description:
      'Through the configured local language-model runtime (Ollama or OpenAI-compatible), else the deterministic heuristic (`provider: "heuristic"`). The answer is sanitized and secret-scanned; the memory\'s content never changes. A runtime that times out or fails answers 503 and leaves the memory unchanged.',
    access: 'write',
    input: EnrichInput,
    output: I.EnrichResult,
    track: {count: (r) => (r.enriched ? 1 : 0)},
    run: enrich,
    http: {method: 'POST', path: '/api/mem/enrich', answer: 'The supplements', tag: 'insight', errors: {404: 'No such memory', 409: 'The memory is superseded or forgotten', 503: 'The runtime timed out or failed; the memory is unchanged'}},
  }),
  enrichAll: defineOp({
    name: 'enrichAll',
    summary: 'Enrich every live memory without supplements from the current provider',
    access: 'write',
    input: EnrichAllInput,
    output: z.strictObject({
      repo: z.string(),
      provider: z.enum(I.ENRICH_PROVIDERS),
      candidates: z.number().int(),
      enriched: z.number().int(),
      unchanged: z.number().int(),
      failed: z.number().int(),
      errors: z.array(z.strictObject({id: z.string(), error: z.string()})),
      stopped: z.string().nullable(),
      embedded: z.number().int(),
    }),
    // memories the runtime failed on were left unchanged (the rest were enriched): the CLI exits as for an unavailable runtime (69)
    outcomes: [{when: (r) => r.failed > 0, status: 200, exit: ERROR_CODES.unavailable.exit}],
    track: {as: 'enrich-all', count: (r) => r.enriched},
    run: enrichAll,
  }),
} satisfies Record<string, OpDef<any, any, any>>
