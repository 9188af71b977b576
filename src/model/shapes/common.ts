/**
 * The wire model: every shape an operation answers with, as a zod schema, and its type
 * (`z.output`). Written once: the operations and engines return these types, the declarations
 * publish the schemas (HTTP routes and OpenAPI, MCP output schemas), the client library and the
 * web UI take the types with `import type`. Response shapes are strict, so a contract test that
 * parses every answer notices a field the schema does not describe.
 */
import {z} from 'zod'
import {ERROR_CODES, type ErrorCode} from '../errors.js'

export const Iso = z.string().describe('ISO 8601 UTC timestamp')

export const ErrorResponse = z
  .strictObject({
    error: z.string(),
    code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
    hint: z.string().optional(),
    details: z.unknown().optional(),
    required: z.enum(['read', 'write', 'admin']).optional().describe('The scope a 403 needs'),
  })
  .meta({id: 'Error'})
export type ErrorResponse = z.output<typeof ErrorResponse>
