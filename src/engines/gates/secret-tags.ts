// Tags and the secret gate: tags are stored lower-cased (model/schemas.ts), so a token pasted as a
// tag reaches the store without the case its format is known by. Kept apart from secrets.ts so the
// gate can ask this without loading the scanner's rules.
import {scanForm} from '../../text/admit.js'
import {DUMMY_TOKEN, KEYBOARD_RUN, letterDigitSwitches} from './secret-values.js'

/**
 * A tag shaped like a generated credential once lower-cased (tags are stored in lower case, which
 * takes the case-sensitive prefixes of some formats away: `AIza…`, `eyJ…`, `AKIA…`): a piece of it,
 * between `=`, `:`, `/`, `.`, `@`, `-` or `_`, of 16 or more letters and digits that interleave at
 * least five times. Words, versions and names (`utf8mb4`, `cl100k`, `x86-64`) interleave once or
 * twice a piece; a git hash (hex alone) is a tag people use. And an `Authorization: Basic` or
 * `Bearer` credential, whose base64 the lower case has mangled but not hidden.
 */
export function credentialLikeTag(tag: string): boolean {
  // `Authorization: Basic …` / `Bearer …` lower-cased: base64 whose case is lost is still a few
  // thousand guesses from the credential
  for (const [, value = ''] of tag.matchAll(/\b(?:basic|bearer)[-\s]+([a-z0-9+/]{12,}={0,2})(?![\w-])/gi)) if (/\d/.test(value)) return true
  for (const piece of scanForm(tag).split(/[=:/.@\s_-]+/)) {
    if (piece.length < 16 || /^[0-9a-f]+$/i.test(piece) || !/[a-z]/i.test(piece) || !/\d/.test(piece)) continue
    if (letterDigitSwitches(piece) >= 5 && !DUMMY_TOKEN.test(piece) && !KEYBOARD_RUN.test(piece)) return true
  }
  return false
}
