import pg from 'pg'

/** Runs one statement on its own connection (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function pgAdmin(url, sql) {
  const client = new pg.Client({connectionString: url})
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}
