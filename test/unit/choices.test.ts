// What text/choices.ts reads as a convention chosen, and what it does not.
import {describe, expect, it} from 'vitest'
import {choicesIn} from '../../src/text/choices.js'
import {factShape} from '../../src/text/values.js'

const read = (text: string) => Object.fromEntries([...choicesIn(factShape(text))].map(([convention, c]) => [convention, c.option]))

describe('choices', () => {
  it('reads the option a text chooses, in its words', () => {
    expect(read('Squash commits when merging')).toEqual({'pr-merge': 'squash'})
    expect(read('Merge pull requests with a merge commit')).toEqual({'pr-merge': 'merge-commit'})
    expect(read('Commit subjects follow Conventional Commits')).toEqual({'commit-style': 'conventional'})
    expect(read('Keep tests next to the code they cover')).toEqual({'test-location': 'colocated'})
    expect(read('API payload keys are camelCase')).toEqual({'name-case': 'camel'})
    // commit styles of their own: gitmoji, a ticket key first, free-form (2026-11-28)
    expect(read('Commit messages follow gitmoji')).toEqual({'commit-style': 'gitmoji'})
    expect(read('Commit messages follow the format `[JIRA-123] Short summary`')).toEqual({'commit-style': 'ticket'})
    expect(read('Commit messages are free-form')).toEqual({'commit-style': 'plain'})
    // a changelog written by hand or assembled by a tool; API versions in the path or a header; relative or aliased imports
    expect(read('Update CHANGELOG.md by hand in every pull request')).toEqual({changelog: 'by-hand'})
    expect(read('Never edit the changelog by hand; add a changeset with `npx changeset`')).toEqual({changelog: 'generated'})
    expect(read('API versions go in the URL path, like `/v1/users`')).toEqual({'api-versioning': 'path'})
    expect(read('API versions are put in the `Api-Version` header, not in the URL path')).toEqual({'api-versioning': 'header'})
    expect(read('Use relative imports between modules')).toEqual({'import-style': 'relative'})
    expect(read('Import through the `@/` alias instead of relative paths')).toEqual({'import-style': 'alias'})
  })

  it('reads an option a text refuses as the other of two, and none of three', () => {
    // a negation reaches to its clause's end: "open a PR" is chosen
    expect(read('Never commit directly to main; open a PR')).toEqual({'direct-push': 'pull-request'})
    expect(read('Export each component under its own name, never as the module default')).toEqual({'export-style': 'named'})
    expect(read('Never use default exports')).toEqual({'export-style': 'named'})
    // three ways to merge: refusing one chooses none
    expect(read('Never squash pull requests')).toEqual({})
    // an option refused after it ("… is disabled"), beside the one chosen
    expect(read('Merge pull requests with a rebase; the squash option is disabled in the repository settings')).toEqual({'pr-merge': 'rebase-merge'})
    expect(read('PRs land by rebase; squashing is turned off')).toEqual({'pr-merge': 'rebase-merge'})
  })

  it('reads no stance on a practice: a ban and its lifting are not a convention with options', () => {
    expect(read('Do not use TypeScript enums')).toEqual({})
    expect(read('Enums are fine for a closed set of values')).toEqual({})
    expect(read('Mock the database in unit tests')).toEqual({})
  })

  it('reads no choice in a text naming two options of one convention', () => {
    expect(read('Squash feature work and keep merge commits for releases')).toEqual({})
  })
})
