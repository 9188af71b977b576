/**
 * The names of team mode: a team, a key, a team repo's id, a request id. Checked once here, before
 * anything reaches Postgres, so every face refuses the same input with the same message.
 */
import {MemError} from './errors.js'

/** A team or key name: letters, digits, '.', '_' or '-', starting with a letter or digit, up to 64. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * A team repo's id: what a normalized git remote gives (`github.com/org/app`) or an explicit id:
 * segments of letters, digits and `._~@:+-` joined by '/', no '.' or '..' segment, up to 200
 * characters. Never a path: no leading '/', no backslash, no empty segment.
 */
const REPO_SEGMENT = /^[A-Za-z0-9_~@:+-][A-Za-z0-9._~@:+-]*$/
export const MAX_REPO_ID = 200
/** A request id (idempotency key): up to 200 printable ASCII characters without spaces. */
const REQUEST_ID = /^[\x21-\x7e]{1,200}$/

export function checkTeamName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new MemError('invalid_input', `Invalid team name ${JSON.stringify(name)}: use letters, digits, '.', '_' or '-' (up to 64, starting with a letter or digit).`, {
      hint: 'mem team create platform --store postgres://…',
    })
  }
  return name
}

export function checkKeyName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new MemError('invalid_input', `Invalid key name ${JSON.stringify(name)}: use letters, digits, '.', '_' or '-' (up to 64, starting with a letter or digit).`, {
      hint: 'mem keys create ci-agent --team platform --scope write --store postgres://…',
    })
  }
  return name
}

export function checkRepoId(id: string): string {
  const segments = id.split('/')
  const ok = id.length > 0 && id.length <= MAX_REPO_ID && segments.every((s) => REPO_SEGMENT.test(s) && s !== '.' && s !== '..')
  if (!ok) {
    throw new MemError('invalid_input', `Invalid team repo id ${JSON.stringify(id.length > 220 ? `${id.slice(0, 200)}…` : id)}: a team repo is an id like github.com/org/app, never a path.`, {
      hint: `Segments of letters, digits and . _ ~ @ : + - joined by '/', no '.' or '..' segment, up to ${MAX_REPO_ID} characters.`,
    })
  }
  return id
}

export function checkRequestId(id: string): string {
  if (!REQUEST_ID.test(id)) {
    throw new MemError('invalid_input', 'Invalid request id: use 1 to 200 printable ASCII characters without spaces (a UUID does).', {
      hint: 'A request id names one write so that a retry of it appends nothing.',
    })
  }
  return id
}
