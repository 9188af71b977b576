/**
 * The npm package mem is published as (`npm install -g mem-for-agents`; the command stays `mem`).
 * `mem` itself is an unrelated package on npm (a memoize library), so the update check, the
 * upgrade hints and the web UI name this one. package.json's `name` must equal it (a test checks).
 */
export const PACKAGE_NAME = 'mem-for-agents'
