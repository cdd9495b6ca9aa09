/**
 * The Reports view's filter (shown once a workbook has more than FILTER_ABOVE placements): a
 * placement matches when what was typed (its spaces collapsed, case ignored) is found in its
 * report's name or in where it is ("Summary!B2:F8", the sheet named as it is called now). A phrase,
 * not separate words: "report 3" finds Report 3, not every report with a 3 in its address.
 */
import { describePlacementIn, type PlacedReport } from "../src/core/placement-view.js";
import type { SheetInfo } from "../src/hosts/host.js";

export function filterPlacements(
  here: readonly PlacedReport[],
  sheets: readonly SheetInfo[],
  query: string,
): readonly PlacedReport[] {
  const phrase = query.trim().replace(/\s+/g, " ").toLocaleLowerCase();
  if (phrase === "") return here;
  return here.filter(
    (p) =>
      p.report.name.replace(/\s+/g, " ").toLocaleLowerCase().includes(phrase) ||
      describePlacementIn(p, sheets).toLocaleLowerCase().includes(phrase),
  );
}
