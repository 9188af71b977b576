/**
 * The browser's screen layout, shared with `mem browse` (which loads the first page while ink
 * loads): a header, the input line, the list, the status line and the keys bar, one line short
 * of the screen so that Ink never scrolls it.
 */
export function listHeight(terminalRows: number | undefined): number {
  return Math.max(3, (terminalRows || 24) - 5)
}
