/**
 * The content gate: text that is not a memory at all (binary data, no words) is rejected
 * before it reaches the store. Length and emptiness are input validation, checked earlier.
 */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/

export interface ContentFinding {
  rule: string
  message: string
}

export function checkContent(content: string): ContentFinding | null {
  if (CONTROL.test(content)) {
    return {
      rule: 'control-characters',
      message: 'content contains control characters (binary data?); store plain text',
    }
  }
  if (!/[\p{L}\p{N}]/u.test(content)) {
    return {rule: 'no-words', message: 'content has no letters or digits; a memory must say something'}
  }
  return null
}
