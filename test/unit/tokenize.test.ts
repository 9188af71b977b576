import {describe, expect, it} from 'vitest'
import {analyze} from '../../src/text/tokenize.js'

describe('analyze: the terms of a text', () => {
  it('splits code identifiers into parts and keeps them whole; plain and capitalized words are one part', () => {
    expect(analyze('HTTPServer parseConfigFile node_modules')).toEqual(['http', 'server', 'httpserver', 'pars', 'config', 'file', 'parseconfigfile', 'node', 'modul', 'nodemodules'])
    expect(analyze('Deploys v20.1 OPS-4821 iOS')).toEqual(['deploi', 'v20', '1', 'v201', 'op', '4821', 'ops4821', 'os', 'ios'])
  })

  it('stems a word the same way every time it comes back (stop words dropped, duplicates kept)', () => {
    expect(analyze('Running the tests Running')).toEqual(['run', 'test', 'run'])
    expect(analyze('running')).toEqual(['run'])
  })
})
