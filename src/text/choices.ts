/**
 * The conventions a text chooses: how a team merges, exports, names, tests, pins — the decisions a
 * project's agent rules record and later reverse. A convention has a few known options (a squash, a
 * merge commit or a rebase; default or named exports; camelCase or snake_case). Two texts choosing
 * another option of one convention are that rule changed — "Squash commits when merging" → "Merge
 * pull requests with a merge commit" — in words that may share nothing but the convention: what the
 * same-choice rule of currency compares (engines/currency/rules.ts). Written from the trade's
 * vocabulary, like roles.ts and the thesaurus; narrow on purpose. Pure functions.
 *
 * A practice a rule asks for or forbids (enums, mocks, semicolons) is not read: on the blind pair
 * sets written from general rule files, the other stance on one practice was a rule beside its
 * exception far more often than the rule reversed (docs/currency.md, "Practices").
 */
import {oncePer} from './once.js'

/** A convention with options: each option's patterns, matched in the text's words joined by spaces (lowercased). */
interface Convention {
  options: Readonly<Record<string, readonly RegExp[]>>
  /** Options name how, not what (a case style names no subject): the two texts must share a word of what they are about. */
  needsSubject?: boolean
}

const CONVENTIONS: Readonly<Record<string, Convention>> = {
  'pr-merge': {
    options: {
      squash: [/\bsquash(ed|es|ing)?\b/],
      'merge-commit': [/\bmerge commits?\b/, /\bwith a merge\b/, /\bno-ff\b/, /\bno fast-?forward\b/],
      'rebase-merge': [/\brebase[- ](and[- ])?merg/, /\b(merg|land)\w* (\w+ ){0,2}(with|by|via|through) (a )?rebase\b/],
    },
  },
  'branch-update': {
    options: {
      rebase: [/\brebas\w*\b[^,;]*\b(onto|on top of)\b/],
      merge: [/\bmerg\w* (main|master|the default branch) into\b/, /\bbring (main|master) into\b/],
    },
  },
  'export-style': {
    options: {
      default: [/\bdefault exports?\b/, /\bexport default\b/, /\bas the (module )?default\b/],
      named: [/\bnamed exports?\b/, /\bunder (its|their) own names?\b/],
    },
  },
  'name-case': {
    needsSubject: true,
    options: {
      camel: [/\bcamel ?case\b/, /\bcamelcased\b/],
      snake: [/\bsnake[_ -]?case\b/, /\bsnake-?cased\b/],
      kebab: [/\bkebab[_ -]?case\b/, /\bkebab-?cased\b/],
      pascal: [/\bpascal ?case\b/, /\bpascal-?cased\b/],
      screaming: [/\bscreaming[_ -]?snake[_ -]?case\b/],
    },
  },
  'commit-style': {
    options: {
      conventional: [/\bconventional commits?\b/, /\bfeat:/],
      gitmoji: [/\bgitmoji\b/],
      // a ticket key in the message: "Commit messages follow the format `[JIRA-123] Short summary`".
      // The lookahead first: the lookbehind scans back to the text's start or a ';', so tried at
      // every position it made a 14 kB note's store take 250 ms (quadratic); now only where a key starts.
      ticket: [/\b(?=[a-z]{2,10}-\d{1,5}\b)(?<=\bcommits?\b[^;]*)[a-z]{2,10}-\d{1,5}\b/],
      plain: [/\bimperative\b/, /\bno (type )?prefix(es)?\b/, /\bplain (english )?(sentences?|subjects?|messages?)\b/, /\bfree[- ]?form\b/],
    },
  },
  changelog: {
    options: {
      // written by each change's author into the file, or assembled from fragments a tool keeps
      'by-hand': [/\bchangelog(\.md)?\b[^;]*\bby hand\b/, /\bby hand\b[^;]*\bchangelog\b/, /\bunder "?unreleased"?\b/],
      generated: [/\bchangesets?\b/, /\btowncrier\b/, /\bnews fragments?\b/, /\brelease-please\b/, /\bgit-cliff\b/],
    },
  },
  'api-versioning': {
    options: {
      path: [/\b(url|uri|request) paths?\b/, /`\/v\d+\//],
      header: [/\bapi-version\b/, /\bversion headers?\b/, /\baccept headers?\b/],
    },
  },
  'import-style': {
    options: {
      relative: [/\brelative (imports?|paths?)\b/],
      alias: [/\b(path |import )?alias(es)?\b/, /\babsolute imports?\b/],
    },
  },
  'test-location': {
    options: {
      colocated: [/\bnext to (the )?(code|source|files?|modules?|components?|what they test)\b/, /\bbeside (the )?(code|source|files?|modules?)\b/, /\balongside (the )?(code|source|files?|modules?)\b/, /\bco-?located\b/, /\bsame (folder|directory) as\b/],
      separate: [/\b(under|in|into) (a |the )?(top-level |separate |root )?(tests?|__tests__|spec)\/? (directory|folder|tree)\b/, /\b(under|in|into) (the )?(tests?|spec)\/ /],
    },
  },
  'class-or-function': {
    needsSubject: true,
    options: {
      classes: [/\bclass(es)?\b(?! names?)/],
      functions: [/\b(plain|pure|standalone|free) functions\b/, /\bfunctions instead\b/],
    },
  },
  'version-pinning': {
    options: {
      exact: [/\bexact versions?\b/, /\bpin(ned|s)? (every |all |each )?(dependenc\w*|deps|versions?|packages?)\b/, /\bsave-exact\b/],
      ranges: [/\bcaret\b/, /\b(version |semver )?ranges?\b/, /\btilde\b/],
    },
  },
  'direct-push': {
    options: {
      direct: [/\b(commit|push|merge)\w* (directly |straight )(to|into|on) (the )?(main|master|trunk)\b/, /\b(directly|straight) (to|into|on) (the )?(main|master|trunk)\b/],
      'pull-request': [/\b(through|via|open|opens|in) (a |an )?(pull requests?|prs?|merge requests?)\b/, /\b(main|master) is protected\b/],
    },
  },
  quotes: {
    needsSubject: true,
    options: {
      single: [/\bsingle[- ]quot/],
      double: [/\bdouble[- ]quot/],
    },
  },
  'time-zone': {
    options: {
      utc: [/\butc\b/],
      local: [/\blocal time( ?zones?)?\b/, /\bthe user'?s time ?zone\b/],
    },
  },
  'component-style': {
    options: {
      class: [/\bclass components?\b/],
      function: [/\bfunction(al)? components?\b/, /\bhooks\b/],
    },
  },
  'type-declaration': {
    options: {
      interface: [/\binterfaces?\b/],
      type: [/\btype aliases?\b/, /\b`?type`? (declarations?|keyword)\b/],
    },
  },
  'docs-format': {
    options: {
      markdown: [/\bmarkdown\b/, /\bmdx\b/],
      rst: [/\brestructuredtext\b/, /\brst\b/],
      asciidoc: [/\basciidoc\b/],
    },
  },
  'line-endings': {
    options: {
      lf: [/\blf\b/],
      crlf: [/\bcrlf\b/],
    },
  },
  'branching-model': {
    options: {
      trunk: [/\btrunk[- ]based\b/],
      gitflow: [/\bgit ?flow\b/],
    },
  },
  versioning: {
    options: {
      semver: [/\bsemver\b/, /\bsemantic versioning\b/],
      calver: [/\bcalver\b/, /\bcalendar versioning\b/],
    },
  },
}

/** The conventions a text can choose, by name. */
export const CONVENTION_NAMES: readonly string[] = Object.keys(CONVENTIONS)

/** Words that refuse what follows them in a clause: "never use default exports", "avoid classes", "instead of a merge commit". */
const NEGATION = /\b(never|not|no|don'?t|do not|doesn'?t|does not|avoid|avoids|without|instead of|rather than|bans?|banned|forbid\w*|disallow\w*|prohibit\w*|must not|shouldn'?t|should not|nothing)\b/g
/** Words after an option that refuse it: "squashing is disabled in the repository settings", "squash merges are no longer allowed". */
const REFUSED_AFTER = /^\w*(\s+\w+)?\s+(is|are|was|were|has been|have been)\s+(now\s+)?(disabled|off|forbidden|not allowed|banned|turned off|switched off|no longer\b)/
export interface Choice {
  /** The convention. */
  convention: string
  /** The option chosen. */
  option: string
  /** What the text wrote for it, as people read it. */
  shown: string
  /** Whether the convention's options name how, not what (both texts must share a word of their subject). */
  needsSubject: boolean
}

/** The conventions a text chooses, by convention (one choice each: a text naming two options of one convention chooses none). */
export const choicesIn: (shape: {sequence: readonly string[]; breaks: readonly number[]}) => ReadonlyMap<string, Choice> = oncePer(readChoices)

/** The clauses of a text, each split where a negation stands: [before any negation, after it]. */
function negatedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = []
  for (const m of text.matchAll(NEGATION)) {
    // a negation reaches to the clause's end
    const rest = text.slice(m.index!)
    const end = rest.search(/[;,.:!?]|\b(but|and then|so|while|whereas)\b/)
    spans.push([m.index!, end < 0 ? text.length : m.index! + Math.max(end, m[0].length)])
  }
  return spans
}

/** Any pattern of any convention, in one: a text none matches (most texts) chooses nothing, read with one search. */
let anyChoice: RegExp | undefined
const mentionsAny = (lower: string) =>
  (anyChoice ??= new RegExp(Object.values(CONVENTIONS).flatMap((c) => Object.values(c.options).flat()).map((p) => `(?:${p.source})`).join('|'))).test(lower)

function readChoices({sequence, breaks}: {sequence: readonly string[]; breaks: readonly number[]}): Map<string, Choice> {
  // the words, with a ";" where a clause ends (a negation reaches to it)
  const lower = sequence.map((w, i) => (breaks.includes(i + 1) && i + 1 < sequence.length ? `${w} ;` : w)).join(' ').toLowerCase()
  if (!mentionsAny(lower)) return new Map()
  const negated = negatedSpans(lower)
  // a negation word inside an option ("no-ff") does not refuse it
  const inNegation = (at: number) => negated.some(([a, b]) => at > a && at < b)
  const out = new Map<string, Choice>()
  for (const [convention, {options, needsSubject = false}] of Object.entries(CONVENTIONS)) {
    const chosen = new Map<string, string>()
    const refused = new Set<string>()
    for (const [option, patterns] of Object.entries(options)) {
      for (const p of patterns) {
        // patterns hold no g flag: exec finds the first match, with no state kept between texts
        const m = p.exec(lower)
        if (!m) continue
        if (inNegation(m.index) || REFUSED_AFTER.test(lower.slice(m.index + m[0].length))) refused.add(option)
        else chosen.set(option, m[0])
        break
      }
    }
    const names = Object.keys(options)
    if (chosen.size === 1) {
      const [[option, shown]] = chosen
      out.set(convention, {convention, option, shown, needsSubject})
    } else if (chosen.size === 0 && refused.size === 1 && names.length === 2) {
      // "never use default exports": of two options, the other
      const option = names.find((n) => !refused.has(n))!
      out.set(convention, {convention, option, shown: `not ${[...refused][0]}`, needsSubject})
    }
  }
  return out
}

/**
 * The convention two texts choose otherwise: the first the newer text chooses that the older
 * chooses too, with another option. Null when they choose alike, or nothing in common.
 */
export function changedChoice(newer: {sequence: readonly string[]; breaks: readonly number[]}, older: {sequence: readonly string[]; breaks: readonly number[]}): {mine: Choice; theirs: Choice} | null {
  const theirs = choicesIn(older)
  for (const [convention, mine] of choicesIn(newer)) {
    const other = theirs.get(convention)
    if (other && other.option !== mine.option) return {mine, theirs: other}
  }
  return null
}

/** The kinds of branch a text names ("feature branches", "the release branch"): a policy for one kind is not one for another. */
export function branchKindsIn(sequence: readonly string[]): ReadonlySet<string> {
  const words = sequence.map((w) => w.toLowerCase())
  const kinds = new Set<string>()
  words.forEach((w, i) => {
    if (/^branch(es)?$/.test(w) && i > 0 && !NO_KIND.has(words[i - 1])) kinds.add(words[i - 1].replace(/-merge$/, ''))
  })
  return kinds
}
/** Words before "branch" that name no kind of branch: "your branch", "a branch", "feature branches" (the branches all work is on). */
const NO_KIND = new Set(['the', 'a', 'your', 'each', 'every', 'this', 'that', 'its', 'their', 'our', 'any', 'default', 'one', 'feature', 'topic', 'working', 'own'])
