/**
 * The Reports view's filter (shown once a workbook has more than FILTER_ABOVE placements): a
 * placement matches when what was typed (its spaces collapsed, case ignored) is found in its
 * report's name or in where it is ("Summary!B2:F8", the sheet named as it is called now). A phrase,
 * not separate words: "report 3" finds Report 3, not every report with a 3 in its address.
 */
import { describePlacementIn, type PlacedReport } from "../src/core/placement-view.js";
import type { SheetInfo } from "../src/hosts/host.js";

/** Each placement's text to search ("name\nwhere", lower case), per list of sheets it was made with. */
const haystacks = new WeakMap<readonly SheetInfo[], WeakMap<PlacedReport, string>>();

function haystack(p: PlacedReport, sheets: readonly SheetInfo[]): string {
  let bySheets = haystacks.get(sheets);
  if (!bySheets) {
    bySheets = new WeakMap();
    haystacks.set(sheets, bySheets);
  }
  let text = bySheets.get(p);
  if (text === undefined) {
    // A newline cannot be typed into the box: a phrase never runs from the name into the address.
    text = `${p.report.name.replace(/\s+/g, " ")}\n${describePlacementIn(p, sheets)}`.toLocaleLowerCase();
    bySheets.set(p, text);
  }
  return text;
}

/**
 * The placements whose name or address holds `query` as a phrase. Each placement's text is made
 * once per list (and list of sheets), not on every keystroke: 2,000 placements filter within a frame.
 */
export function filterPlacements(
  here: readonly PlacedReport[],
  sheets: readonly SheetInfo[],
  query: string,
): readonly PlacedReport[] {
  const phrase = query.trim().replace(/\s+/g, " ").toLocaleLowerCase();
  if (phrase === "") return here;
  return here.filter((p) => haystack(p, sheets).includes(phrase));
}
