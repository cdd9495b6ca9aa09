/**
 * The preview page's query options (docs/preview.md lists each one). There is one: `width`, the
 * pane's width in px. Anything else in the query is ignored.
 */

/** Every query option the page reads. */
export const QUERY_OPTIONS = ["width"] as const;

/** The narrowest and widest pane `?width=` accepts (Google Sheets' sidebar is 300, Excel's pane 350). */
const PANE_WIDTH_MIN = 260;
const PANE_WIDTH_MAX = 800;

/** The pane width asked for by `?width=N`, or null (absent, not a whole number, or out of range). */
export function paneWidthFrom(search: string): number | null {
  const raw = new URLSearchParams(search).get("width");
  if (raw === null || raw.trim() === "") return null;
  const width = Number(raw);
  return Number.isInteger(width) && width >= PANE_WIDTH_MIN && width <= PANE_WIDTH_MAX ? width : null;
}
