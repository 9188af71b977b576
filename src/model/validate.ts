import type {z} from 'zod'
import {MemError} from './errors.js'

/** Parses input against a core schema; a failure is a 400 naming each bad field. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw)
  if (result.success) return result.data
  const issues = result.error.issues.map((i) => ({path: i.path.join('.'), message: i.message}))
  const first = issues[0]
  if (first.path === '' && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) {
    const got = raw === undefined ? 'nothing (an empty body)' : raw === null ? 'null' : Array.isArray(raw) ? 'an array' : `a ${typeof raw}`
    throw new MemError('invalid_input', `Invalid input: expected a JSON object, got ${got}.`, {
      details: issues,
      hint: 'Send a JSON object with the operation\'s fields (GET /api/openapi.json describes each).',
    })
  }
  const message = first.message === NOTHING_TO_EDIT ? `Nothing to edit: ${NOTHING_TO_EDIT}.` : `Invalid ${first.path || 'input'}: ${first.message}`
  throw new MemError('invalid_input', message, {
    details: issues,
    hint: hintFor(first.path, first.message),
  })
}

/** An edit that changes nothing (EditInput's check) is named as such, not as bad content. */
export const NOTHING_TO_EDIT = 'give at least one of content, tags, importance'

function hintFor(path: string, message: string): string | undefined {
  if (message === NOTHING_TO_EDIT) return 'Send what changes: new content (a new version), tags or importance, at least one.'
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
