/**
 * The conventions a text chooses: how a team merges, exports, names, tests, pins, handles errors —
 * the decisions a project's agent rules record and later reverse. A convention has a few known
 * options (a squash, a merge commit or a rebase; default or named exports; camelCase or snake_case),
 * or is a practice a rule either asks for or forbids (semicolons, `any`, mocks of the database). Two
 * texts choosing another option of one convention, or taking the other stance on one practice, are
 * that rule changed — "Squash commits when merging" → "Merge pull requests with a merge commit",
 * "Never use TypeScript enums" → "Enums are fine for a fixed set of values" — in words that may share
 * nothing but the convention: what the same-choice rule of currency compares
 * (engines/currency/rules.ts). Written from the trade's vocabulary, like roles.ts and the thesaurus;
 * narrow on purpose. Pure functions.
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
      'rebase-merge': [/\brebase[- ](and[- ])?merg/],
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
      conventional: [/\bconventional commits?\b/, /\bfeat:/, /\bgitmoji\b/],
      plain: [/\bimperative\b/, /\bno (type )?prefix(es)?\b/, /\bplain (english )?(sentences?|subjects?|messages?)\b/],
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

/**
 * Practices a rule asks for or forbids: the stance is the choice ("Never use `any`" / "`any` is
 * allowed in tests"; "No semicolons" / "Always end statements with semicolons").
 */
const PRACTICES: Readonly<Record<string, readonly RegExp[]>> = {
  // specific: naming the practice is naming the subject
  semicolons: [/\bsemicolons?\b/],
  'trailing-commas': [/\btrailing commas?\b/],
  enums: [/\benums?\b/],
  'any-type': [/`any`/, /\bthe any type\b/, /\bany types?\b/],
  'non-null-assertions': [/\bnon-null assertions?\b/],
  comments: [/\bcomments?\b(?! (on|in) (the )?(pr|pull request|issue))/, /\bcomment (the|your) code\b/],
  docstrings: [/\bdocstrings?\b/, /\bjsdoc\b/, /\bdoc comments?\b/],
  mocks: [/\bmock(s|ing|ed)?\b/, /\bfakes?\b/, /\bstubs?\b/],
  snapshots: [/\bsnapshots? tests?\b/, /\bsnapshot testing\b/],
  'console-log': [/\bconsole\.log\b/, /\bprint statements?\b/, /\bprintln!?\b/],
  'barrel-files': [/\bbarrel (files?|exports?)\b/, /\bindex re-?exports?\b/],
  'inline-styles': [/\binline styles?\b/],
  abbreviations: [/\babbreviat\w+\b/],
  emoji: [/\bemojis?\b/],
  'todo-comments': [/\btodo comments?\b/, /\btodos?\b/],
  'raw-sql': [/\braw sql\b/, /\bhand-written sql\b/],
  'type-assertions': [/\btype assertions?\b/, /\bas casts?\b/],
  'global-state': [/\bglobal (state|variables?)\b/],
  'lockfile-committed': [/\block ?files?\b/],
  'generated-committed': [/\bgenerated (files?|code|output)\b/, /\bbuild output\b/],
  'default-parameters': [/\bdefault parameters?\b/],
  'optional-chaining': [/\boptional chaining\b/],
  'nested-ternaries': [/\bnested ternar\w*\b/, /\bternar\w*\b/],
  'early-returns': [/\bearly returns?\b/, /\bguard clauses?\b/],
  'magic-numbers': [/\bmagic numbers?\b/],
  'feature-flags': [/\bfeature flags?\b/],
}

/** Practices named by a word of many subjects (mocks of what? comments where?): the two texts must share a word of what they are about. */
const GENERIC_PRACTICES = new Set(['comments', 'docstrings', 'mocks', 'console-log', 'lockfile-committed', 'generated-committed', 'global-state', 'feature-flags', 'todo-comments', 'abbreviations', 'emoji', 'raw-sql', 'early-returns', 'magic-numbers', 'default-parameters', 'snapshots', 'inline-styles'])

/** Words that take a side for a practice: "Use …", "Always …", "… are fine". Without one (or a negation), a text only names it. */
const FOR = /\b(use|uses|using|prefer|prefers|preferred|always|require|requires|required|must|should|add|write|keep|enable|enabled|enforce|enforced|fine|allowed|ok|okay|acceptable|permitted|welcome|encouraged|every|mandatory|generously|are|is)\b/

/** The conventions and practices a text can choose, by name. */
export const CONVENTION_NAMES: readonly string[] = [...Object.keys(CONVENTIONS), ...Object.keys(PRACTICES)]

/** Words that refuse what follows them in a clause: "never use enums", "no semicolons", "avoid classes", "instead of default exports". */
const NEGATION = /\b(never|not|no|don'?t|do not|doesn'?t|does not|avoid|avoids|without|instead of|rather than|bans?|banned|forbid\w*|disallow\w*|prohibit\w*|must not|shouldn'?t|should not|nothing)\b/g
/** Words that let back what a rule forbade: "enums are fine", "`any` is allowed". */
const ALLOWED = /\b(fine|allowed|ok|okay|acceptable|permitted|welcome|encouraged)\b/

export interface Choice {
  /** The convention or practice. */
  convention: string
  /** The option chosen, or for a practice `for` / `against`. */
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

/** Any pattern of any convention or practice, in one: a text none matches (most texts) chooses nothing, read with one search. */
let anyChoice: RegExp | undefined
const mentionsAny = (lower: string) =>
  (anyChoice ??= new RegExp([...Object.values(CONVENTIONS).flatMap((c) => Object.values(c.options).flat()), ...Object.values(PRACTICES).flat()].map((p) => `(?:${p.source})`).join('|'))).test(lower)

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
        if (inNegation(m.index)) refused.add(option)
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
  for (const [practice, patterns] of Object.entries(PRACTICES)) {
    let stance: 'for' | 'against' | undefined
    let shown = ''
    for (const p of patterns) {
      const m = p.exec(lower)
      if (!m) continue
      shown = m[0]
      if (inNegation(m.index) && !ALLOWED.test(lower)) stance = 'against'
      // "Mock the database in unit tests": a practice the text starts with, as a verb, is asked for ("Mocks live in …" only names it)
      else if ((FOR.test(lower) || (m.index === 0 && !m[0].endsWith('s'))) && negated.length === 0) stance = 'for'
      break
    }
    if (stance) out.set(practice, {convention: practice, option: stance, shown: `${stance === 'against' ? 'no ' : ''}${shown}`, needsSubject: GENERIC_PRACTICES.has(practice)})
  }
  return out
}

/**
 * The convention two texts choose otherwise: the first the newer text chooses that the older
 * chooses too, with another option or stance. Null when they choose alike, or nothing in common.
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
