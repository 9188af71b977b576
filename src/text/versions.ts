/**
 * The versions a text requires or targets: a runtime, language, toolchain, database, framework or OS
 * named with a version — "Node 18", "Node.js v20", "python3.12", "JDK 17", "Go 1.22", "net8.0",
 * "postgres:16", "ubuntu-24.04". One requirement said in other words is one runtime with another
 * version: what the same-version rule of currency compares (engines/currency/rules.ts). A version
 * without its runtime ("Nothing older than 3.11") or a name without a version is none.
 */
import {oncePer} from './once.js'

export interface VersionMention {
  /** The runtime, by its canonical name (`node`, `python`, `java`, …). */
  runtime: string
  /** The version, normalized: no leading `v`, no trailing `.0`, `.x` or `+` ("20.x" and "20" are one). */
  version: string
  /** Where it stands in the text's word sequence: its first word and the index after its last. */
  at: number
  end: number
}

/** Runtimes by the words that name them. "pg" is left out (the Node client library of Postgres has versions too). */
const RUNTIMES: Record<string, readonly string[]> = {
  node: ['node', 'node.js', 'nodejs'],
  python: ['python', 'python3', 'cpython'],
  go: ['go', 'golang'],
  java: ['java', 'jdk', 'openjdk', 'jre', 'temurin'],
  kotlin: ['kotlin'],
  scala: ['scala'],
  ruby: ['ruby'],
  rust: ['rust', 'rustc', 'msrv'],
  php: ['php'],
  elixir: ['elixir'],
  erlang: ['erlang', 'otp'],
  haskell: ['ghc', 'haskell'],
  zig: ['zig'],
  ocaml: ['ocaml'],
  julia: ['julia'],
  perl: ['perl'],
  lua: ['lua', 'luajit'],
  swift: ['swift'],
  xcode: ['xcode'],
  dotnet: ['.net', 'dotnet', 'net', 'netcoreapp'],
  typescript: ['typescript'],
  deno: ['deno'],
  bun: ['bun'],
  dart: ['dart'],
  flutter: ['flutter'],
  postgres: ['postgres', 'postgresql'],
  mysql: ['mysql'],
  mariadb: ['mariadb'],
  redis: ['redis'],
  mongodb: ['mongodb', 'mongo'],
  elasticsearch: ['elasticsearch'],
  kafka: ['kafka'],
  ubuntu: ['ubuntu'],
  debian: ['debian'],
  alpine: ['alpine'],
  react: ['react'],
  'react-native': ['react-native', 'react native'],
  vue: ['vue'],
  angular: ['angular'],
  next: ['next.js', 'nextjs'],
  rails: ['rails'],
  django: ['django'],
  laravel: ['laravel'],
  spring: ['spring'],
  gradle: ['gradle'],
  terraform: ['terraform'],
  kubernetes: ['kubernetes', 'k8s'],
  android: ['android'],
  ios: ['ios'],
  electron: ['electron'],
}
/** The runtimes a version can be of, by canonical name. */
export const RUNTIME_NAMES: readonly string[] = Object.keys(RUNTIMES)
const RUNTIME_BY_WORD = new Map(Object.entries(RUNTIMES).flatMap(([runtime, words]) => words.map((w) => [w, runtime] as const)))
/**
 * Words that may stand between a runtime and its version: "Python >= 3.10", "Node version 20", "The
 * Go toolchain is pinned at 1.20", "TypeScript is pinned to 4.9", "Our MySQL server version is 5.7", "The Java baseline is 11" (at
 * most BETWEEN_MAX of them).
 */
const BETWEEN = new Set(['>=', '>', '^', '~', '=', '==', 'version', 'v', 'sdk', 'lts', 'api', 'level', 'boot', 'toolchain', 'server', 'runtime', 'baseline', 'minsdk', 'is', 'at', 'pinned', 'of', 'to'])
const BETWEEN_MAX = 4
/** Runtime names of two letters that a version may follow in one word ("go1.22"; "v8" is no runtime). */
const SHORT_JOINED = new Set(['go'])

const VERSION = /^v?(\d+(?:\.(?:\d+|x))*)\+?(?:-(?:slim|alpine|lts|bookworm|bullseye|jammy|noble))?$/
/** A runtime and its version in one word: "python3.12", "node20", "nodejs16.x", "net8.0", "go1.22", "node:22-slim", "postgres:16", "ubuntu-24.04". */
const JOINED = /^([a-z.]+?)[:@-]?v?(\d+(?:\.\d+)*)(?:\.x)?(?:-[a-z]+)?$/

/** A version normalized: "v20.x" → "20", "8.0" → "8", "3.12+" → "3.12". */
function normalized(raw: string): string {
  return raw.replace(/^v/, '').replace(/\+$/, '').replace(/(?<!\.[0x])(?:\.[0x])+$/, '')
}

/** The versioned runtimes of a text's word sequence (values.ts `sequence`), in order. */
export const versionsIn: (sequence: readonly string[]) => readonly VersionMention[] = oncePer(readVersions)

function readVersions(sequence: readonly string[]): VersionMention[] {
  const words = sequence.map((w) => w.toLowerCase())
  const out: VersionMention[] = []
  for (let i = 0; i < words.length; i++) {
    // a name of two words first: "React Native 0.74" is a runtime of its own, not React's
    const twoWords = i + 1 < words.length ? RUNTIME_BY_WORD.get(`${words[i]} ${words[i + 1]}`) : undefined
    if (twoWords) i++
    const runtime = twoWords ?? RUNTIME_BY_WORD.get(words[i])
    if (runtime) {
      for (let j = i + 1; j <= i + 1 + BETWEEN_MAX && j < words.length; j++) {
        const v = VERSION.exec(words[j])
        if (v) {
          out.push({runtime, version: normalized(v[1]), at: i, end: j + 1})
          i = j
          break
        }
        if (!BETWEEN.has(words[j])) break
      }
      continue
    }
    const joined = JOINED.exec(words[i])
    const named = joined && RUNTIME_BY_WORD.get(joined[1])
    // a joined word needs a name of more than two letters ("go1.22" yes, "v8" no)
    if (named && (joined[1].length > 2 || SHORT_JOINED.has(joined[1]))) out.push({runtime: named, version: normalized(joined[2]), at: i, end: i + 1})
  }
  return out
}
