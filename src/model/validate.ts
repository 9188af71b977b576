import type {z} from 'zod'
import {MemError} from './errors.js'

/** Parses input against a core schema; a failure is a 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const issues = result.error.issues.map((i) => ({path: i.path.join('.'), message: i.message}))
  const first = issues[0]
  // a check of the whole input words its own message and hint (WholeInputCheck)
  const own = (result.error.issues[0] as {params?: Partial<WholeInputCheck>}).params
  if (own?.whole) throw new MemError('invalid_input', own.message ?? first.message, {details: issues, hint: own.hint})
  if (first.path === '' && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
    const got = raw === undefined ? 'nothing (an empty body)' : raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`
    throw new MemError('invalid_input', `Invalid input: expected a JSON object, got ${got}.`, {
      details: issues,
      hint: 'Send a JSON object with the operation\'s fields (GET /api/openapi.json describes each).',
    })
  }
  throw new MemError('invalid_input', `Invalid ${first.path || 'input'}: ${first.message}`, {
    details: issues,
    hint: hintFor(first.path),
  })
}

/**
 * The `params` of a schema's check of the whole input (a refine, such as "an edit changes
 * something"): the error says `message`, not "Invalid <field>: …", with this hint.
 */
export interface WholeInputCheck {
  whole: true
  message: string
  hint: string
}

function hintFor(path: string): string | undefined {
  switch (path) {
    case 'type':
      return 'Use one of: observation, insight, procedure, heuristic.'
    case 'importance':
      return 'Importance is a number from 0.0 to 1.0 (default 0.5).'
    case 'content':
      return 'Give the memory text (1 to 16,000 characters).'
    case 'repo':
      return 'Pass the repository as a path or repo id.'
    case 'id':
    case 'memoryId':
      return 'Memory ids look like memories/<repo-id>/<type>/<12 hex>; `mem browse` lists them.'
    default:
      return undefined
  }
}
