/** The yaml package, loaded on first use (~50 ms), whether bundled (CJS interop) or not. */
export async function loadYaml(): Promise<typeof import('yaml')> {
  const mod = (await import('yaml')) as typeof import('yaml') & {default?: typeof import('yaml')}
  return typeof mod.parse === 'function' ? mod : mod.default!
}
