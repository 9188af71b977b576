/**
 * A reader of a text's parts (its tools, scopes, quantities, versions, commands, choices) run once
 * per key: a fact shape or its word sequence, which a rule, its guards and the band keys all ask
 * about. What it returns is shared: callers must not modify it.
 */
export function oncePer<K extends object, T>(read: (key: K) => T): (key: K) => T {
  const seen = new WeakMap<K, T>()
  return (key) => {
    let found = seen.get(key)
    if (found === undefined) seen.set(key, (found = read(key)))
    return found
  }
}
