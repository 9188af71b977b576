// What text/versions.ts reads as a runtime with a version, and what it does not.
import {describe, expect, it} from 'vitest'
import {versionsIn} from '../../src/text/versions.js'
import {factShape} from '../../src/text/values.js'

const read = (text: string) => versionsIn(factShape(text).sequence).map(({runtime, version}) => `${runtime} ${version}`)

describe('versions', () => {
  it('reads a runtime by any of its names, with the version after it or joined to it, normalized', () => {
    expect(read('Node 18 is the minimum supported runtime')).toEqual(['node 18'])
    expect(read('The package requires Node.js v20 or newer')).toEqual(['node 20'])
    expect(read('CI runs Node 20.x')).toEqual(['node 20'])
    expect(read('The codebase needs CPython 3.12 or later')).toEqual(['python 3.12'])
    expect(read('Create the venv with python3.12')).toEqual(['python 3.12'])
    expect(read('The Java baseline is JDK 11')).toEqual(['java 11'])
    expect(read('Build with the Go 1.22 toolchain')).toEqual(['go 1.22'])
    expect(read('Projects target net8.0')).toEqual(['dotnet 8'])
    expect(read('The image is FROM postgres:16')).toEqual(['postgres 16'])
    expect(read('Runners use ubuntu-24.04')).toEqual(['ubuntu 24.04'])
    expect(read('Python >= 3.10 is required')).toEqual(['python 3.10'])
    // a few words of a requirement between the name and the version, and more joined forms (2026-11-27)
    expect(read('The Go toolchain is pinned at 1.20')).toEqual(['go 1.20'])
    expect(read('Our MySQL server version is 5.7')).toEqual(['mysql 5.7'])
    expect(read('The Java baseline is 11')).toEqual(['java 11'])
    expect(read('Build with go1.22')).toEqual(['go 1.22'])
    expect(read('Lambda functions use the nodejs16.x runtime')).toEqual(['node 16'])
    expect(read('The library targets netcoreapp3.1')).toEqual(['dotnet 3.1'])
    // pinned "to", the minimum Rust version by its acronym, React Native apart from React (2026-11-28)
    expect(read('TypeScript is pinned to 4.9')).toEqual(['typescript 4.9'])
    expect(read('We bumped the MSRV to 1.78')).toEqual(['rust 1.78'])
    expect(read('The mobile app is on React Native 0.72, the site on React 18')).toEqual(['react-native 0.72', 'react 18'])
    // compilers and runtimes of other languages: GHC for Haskell, Zig, OCaml, Julia, Perl, Lua (2026-11-28)
    expect(read('Use GHC 9.8 (see `cabal.project`)')).toEqual(['haskell 9.8'])
    expect(read('The firmware builds with Zig 0.13 and the tools run on Lua 5.4')).toEqual(['zig 0.13', 'lua 5.4'])
  })

  it('reads no version where the runtime or its version is not said', () => {
    for (const text of ['Nothing older than 3.11 is supported', 'The API is written in Python', 'Node is managed by Volta', 'The pg client is pinned', 'Redis runs on port 6379 locally', 'Python is used in 3 services', 'The v8 engine is fast']) expect(read(text), text).toEqual([])
  })

  it('reads each runtime of a text of several', () => {
    expect(read('The API runs on Node 20 and the ML service on Python 3.11')).toEqual(['node 20', 'python 3.11'])
  })
})
