/** What a write answers in remote mode when the team server cannot be reached: it waits in the outbox, nothing is written yet. */
export interface QueuedAnswer {
  queued: true
  /** Names the write in the outbox, and on the server once it is sent (sent twice, written once). */
  requestId: string
  server: string
  /** Writes waiting, this one included. */
  waiting: number
}

export function isQueued(result: unknown): result is QueuedAnswer {
  return !!result && typeof result === 'object' && (result as {queued?: unknown}).queued === true
}

/** How the CLI says it. */
export function queuedText(q: QueuedAnswer): string {
  return `Queued: the team server ${q.server} cannot be reached. The write waits in .mem/outbox (request ${q.requestId}; ${q.waiting} waiting) and is sent by the next command that reaches the server, or mem remote sync.`
}
