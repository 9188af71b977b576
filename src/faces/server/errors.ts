import type {FastifyError, FastifyReply, FastifyRequest} from 'fastify'
import {type ErrorBody, errorBody, MemError} from '../../model/errors.js'

export const BODY_LIMIT_BYTES = 1024 * 1024

/**
 * Turns anything thrown while answering into the status and `{error, code, hint?, details?}` body
 * of decisions.md. Fastify's own request errors (body too large, malformed JSON, wrong content
 * type, bad URL) become the matching MemError; anything else is a bug and answers a bare 500.
 */
export function httpError(err: unknown, bodyLimit = BODY_LIMIT_BYTES): {status: number; body: ErrorBody; internal: boolean} {
  const known = err instanceof MemError ? err : fromFastify(err as FastifyError, bodyLimit)
  if (known) return {status: known.status, body: errorBody(known), internal: false}
  return {status: 500, body: errorBody(err), internal: true}
}

function fromFastify(err: FastifyError | undefined, bodyLimit: number): MemError | undefined {
  switch (err?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // the limit of the route asked (pack import takes a whole pack), not only the default
      return new MemError('payload_too_large', `The request body is larger than ${formatMb(bodyLimit)} MB.`, {
        hint: bodyLimit === BODY_LIMIT_BYTES ? 'Memories are short texts (16,000 characters at most).' : 'Split the data: export smaller packs (fewer memories each).',
      })
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new MemError('invalid_input', 'The request body is not valid JSON.', {hint: 'Send a JSON object with Content-Type: application/json.'})
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new MemError('invalid_input', 'The request body is empty.', {hint: 'Send a JSON object with Content-Type: application/json.'})
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new MemError('invalid_input', 'Unsupported Content-Type: the body must be JSON.', {hint: 'Send Content-Type: application/json.'})
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new MemError('invalid_input', 'The request body does not match its Content-Length.')
    case 'FST_ERR_BAD_URL':
      return new MemError('invalid_input', 'The URL is not validly encoded.', {hint: 'Percent-encode ids and query values (a memory id\'s / as %2F).'})
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new MemError('invalid_input', 'A path segment is too long.')
  }
  // A JSON parse error surfaces as a SyntaxError marked 400 by fastify's JSON parser.
  if (err instanceof SyntaxError && (err as FastifyError).statusCode === 400) {
    return new MemError('invalid_input', 'The request body is not valid JSON.', {hint: 'Send a JSON object with Content-Type: application/json.'})
  }
  const status = err?.statusCode
  if (status === 413) return new MemError('payload_too_large', 'The request is too large.')
  if (status && status >= 400 && status < 500) return new MemError('invalid_input', 'The request is malformed.')
  return undefined
}

function formatMb(bytes: number): string {
  const mb = bytes / 1024 / 1024
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1)
}

/** A folder of the service's own (MEM_HOME) that error messages name by label, not by path. */
export interface PrivatePath {
  path: string
  label: string
}

/** The body with every private folder's path replaced by its label (a client learns no home path). */
export function redactBody(body: ErrorBody, paths: readonly PrivatePath[]): ErrorBody {
  if (paths.length === 0) return body
  const redact = (text: string) => paths.reduce((t, p) => (p.path ? t.split(p.path).join(p.label) : t), text)
  return {...body, error: redact(body.error), ...(body.hint ? {hint: redact(body.hint)} : {})}
}

export function errorHandler(onInternal: (err: unknown, req: FastifyRequest) => void, privatePaths: readonly PrivatePath[] = []) {
  return (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const {status, body, internal} = httpError(err, req.routeOptions?.bodyLimit ?? BODY_LIMIT_BYTES)
    if (internal) onInternal(err, req)
    void reply.code(status).type('application/json; charset=utf-8').send(redactBody(body, privatePaths))
  }
}

export function notFoundHandler(req: FastifyRequest, reply: FastifyReply) {
  const path = req.url.split('?')[0]
  const hint = /^\/api\/mem\/(?:history\/)?memories\//.test(path)
    ? 'URL-encode the memory id in the path: each / as %2F (encodeURIComponent).'
    : 'GET /api/openapi.json lists every route.'
  const body: ErrorBody = {error: `No route ${req.method} ${path}.`, code: 'not_found', hint}
  void reply.code(404).type('application/json; charset=utf-8').send(body)
}
