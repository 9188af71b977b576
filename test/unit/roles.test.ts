// The roles of the same-role rule (src/text/roles.ts): which words of a text name a tool
// of which role, and which scopes a text names.
import {describe, expect, it} from 'vitest'
import {scopesIn, toolsIn} from '../../src/text/roles.js'
import {factShape} from '../../src/text/values.js'

const tools = (text: string) => Object.fromEntries([...toolsIn(factShape(text).sequence)].map(([role, t]) => [role, [...t.values()]]))

describe('roles: the tools a text names', () => {
  it('reads names as written (case, dots, dashes and two words joined) and a tool of two roles in both', () => {
    expect(tools('The job queue is pg-boss')).toEqual({'node-job-queue': ['pg-boss']})
    expect(tools('Deploy from GitHub Actions to Fly.io')).toEqual({'code-host': ['GitHub'], ci: ['GitHub Actions'], 'app-hosting': ['Fly.io']})
    expect(tools('Biome lints and formats')).toEqual({'js-linter': ['Biome'], 'js-formatter': ['Biome']})
    // a tool of two roles, in a text that says which: that one only
    expect(tools('The linter is Biome')).toEqual({'js-linter': ['Biome']})
    expect(tools('Format the code with Biome on save')).toEqual({'js-formatter': ['Biome']})
    expect(tools('We use Biome')).toEqual({'js-linter': ['Biome'], 'js-formatter': ['Biome']})
    // assertion libraries beside the test frameworks (2026-11-28)
    expect(tools('In the C# tests, assert with Shouldly, not FluentAssertions')).toEqual({'dotnet-assertions': ['Shouldly', 'FluentAssertions']})
    expect(tools('Kotlin tests assert with AssertJ')).toEqual({'jvm-assertions': ['AssertJ']})
  })
  it('reads a tool named by a common word only when it is written as a name inside a sentence', () => {
    expect(tools('Production now runs on Render')).toEqual({'app-hosting': ['Render']})
    expect(tools('Render the invoice page on the server')).toEqual({})
    expect(tools('We render the invoice page on the server')).toEqual({})
    expect(tools('Python code is formatted with Black')).toEqual({'python-formatter': ['Black']})
    expect(tools('Use a black border around the avatar')).toEqual({})
    // a season is not the Java framework (2026-11-28: "which replaced Squirrel in the spring" read Spring as the new tool)
    expect(tools('The services run on Spring')).toEqual({'jvm-web-framework': ['Spring']})
    expect(tools('The installers moved to a new builder in the spring')).toEqual({})
  })
  it('reads the package a package path names last, not the file at the end of a path of folders', () => {
    expect(tools('Structured logging uses log/slog')).toEqual({'go-logger': ['log/slog']})
    expect(tools('Import github.com/sirupsen/logrus for logs')).toEqual({'go-logger': ['github.com/sirupsen/logrus']})
    expect(tools('Test with build/reldebug/test/unittest')).toEqual({})
  })
  it('names no tool in a text about none, and leaves out tools often used beside another of their kind', () => {
    expect(tools('Keep functions short and names plain')).toEqual({})
    expect(tools('Read-heavy reports use Dapper')).toEqual({})
  })
})

describe('roles: the scopes a text names', () => {
  it('gives each kind of scope the class the text names', () => {
    const scopes = (text: string) => [...scopesIn(factShape(text).sequence)].map(([d, s]) => [d, [...s]])
    expect(scopes('The frontend is deployed to Vercel')).toEqual([[0, [0]]])
    expect(scopes('The backend is deployed to Fly.io')).toEqual([[0, [1]]])
    expect(scopes('End-to-end tests run in CI')).toEqual([[3, [2]], [1, [3]]])
    expect(scopes('Errors are reported to Sentry')).toEqual([[7, [3]]])
    expect(scopes('Keep functions short')).toEqual([])
  })
})
