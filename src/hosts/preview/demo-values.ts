/**
 * The values the demo's reports show in the preview before any refresh: a header row, a label
 * column and deterministic numbers in each placement's range, so the same workbook draws every time.
 */
import { formatCount } from "../../core/limits.js";
import { formatCell } from "../../core/location.js";
import { placementRange, placementsOf } from "../../core/placements.js";
import type { Report } from "../../core/schema.js";
import { GRID_COLUMNS, GRID_ROWS, type PreviewSheet, sheetOfPlacement } from "./sheet-of-placement.js";

const ROW_LABELS = [
  "North America",
  "Europe",
  "Asia Pacific",
  "Latin America",
  "Middle East",
  "Africa",
  "Nordics",
  "Benelux",
  "DACH",
  "UK & Ireland",
  "Iberia",
  "Italy",
];
const COLUMN_LABELS = ["Q1", "Q2", "Q3", "Q4", "Total", "Growth", "Target", "Gap", "Share", "Rank"];

/** Deterministic numbers for the demo's cells: the same workbook every time. */
function pseudoNumber(seed: string): number {
  let h = 2166136261;
  for (const ch of seed) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return 100 + (Math.abs(h) % 9900);
}

/** The values the demo reports wrote into their ranges: a header row, a label column, numbers. */
export function valuesWrittenBy(
  reports: readonly Report[],
  workbookId: string,
  sheets: readonly PreviewSheet[],
): Map<string, Map<string, string>> {
  const values = new Map<string, Map<string, string>>();
  for (const report of reports) {
    for (const p of placementsOf(report)) {
      if (p.workbookId !== workbookId) continue;
      const on = sheetOfPlacement(p, sheets);
      const range = placementRange(p);
      if (!on || !range) continue;
      let cells = values.get(on.sheet.id);
      if (!cells) {
        cells = new Map();
        values.set(on.sheet.id, cells);
      }
      for (let row = range.top; row <= Math.min(range.bottom, GRID_ROWS); row++) {
        for (let col = range.left; col <= Math.min(range.right, GRID_COLUMNS); col++) {
          const r = row - range.top;
          const c = col - range.left;
          let text: string;
          if (r === 0) text = c === 0 ? report.name : (COLUMN_LABELS[(c - 1) % COLUMN_LABELS.length] ?? "");
          else if (c === 0) text = ROW_LABELS[(r - 1) % ROW_LABELS.length] ?? "";
          else text = formatCount(pseudoNumber(`${report.id}:${r}:${c}`));
          cells.set(formatCell({ col, row }), text);
        }
      }
    }
  }
  return values;
}
