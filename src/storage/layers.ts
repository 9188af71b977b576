import type {Db} from './db.js'

/**
 * The `layers` table: shared and base layers mounted in a repo. A layer's memories live in a
 * store of its own (`.mem/layers/<id>/store`); this row says where they come from and when they
 * were last synced. Written only through the journal ops `layer-put` and `layer-delete`.
 */
export interface LayerRecord {
  id: string
  name: string
  type: 'shared' | 'base'
  /** Null when mounted without a source. */
  source: string | null
  mountedAt: string
  lastSyncAt: string | null
  memoryCount: number
}

export function putLayer(db: Db, l: LayerRecord): void {
  db.run(
    `INSERT OR REPLACE INTO layers(id, name, type, source, mounted_at, last_sync_at, memory_count) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [l.id, l.name, l.type, l.source, l.mountedAt, l.lastSyncAt, l.memoryCount],
  )
}

export function deleteLayer(db: Db, id: string): void {
  db.run(`DELETE FROM layers WHERE id = ?`, [id])
}

export function listLayers(db: Db): LayerRecord[] {
  return db
    .all<{id: string; name: string; type: LayerRecord['type']; source: string | null; mounted_at: string; last_sync_at: string | null; memory_count: number}>(
      `SELECT * FROM layers ORDER BY mounted_at, id`,
    )
    .map((r) => ({id: r.id, name: r.name, type: r.type, source: r.source, mountedAt: r.mounted_at, lastSyncAt: r.last_sync_at, memoryCount: r.memory_count}))
}

export function getLayer(db: Db, id: string): LayerRecord | undefined {
  return listLayers(db).find((l) => l.id === id)
}

/** A layer store's memories as sync compares them: keyed by `extra.layerKey`. */
export interface LayerMemoryRow {
  id: string
  key: string
  fingerprint: string
}

export function layerMemoryRows(db: Db): LayerMemoryRow[] {
  return db
    .all<{id: string; extra: string}>(`SELECT id, extra FROM memories WHERE live = 1`)
    .map((r) => {
      const extra = JSON.parse(r.extra) as {layerKey?: string; fingerprint?: string}
      return {id: r.id, key: extra.layerKey ?? r.id, fingerprint: extra.fingerprint ?? ''}
    })
}
