/**
 * Placements whose sheet changed name (platform-api.md "Placing a report": `addressOnly: true` with
 * `placementId` corrects an address without erasing the stored fingerprint):
 *
 * - a placement stored with a `sheetId` that the workbook now has under another name moved with its
 *   sheet: its address is corrected on the service once, when the pane sees it (`addressCorrections`);
 * - a placement stored without a `sheetId` whose sheet name is gone is "Not found" (the sheet may
 *   have been renamed, or deleted: the add-in cannot tell); the user says where it is now with
 *   "Move here", which records it at the active cell's sheet and anchor (`planMoveHere`).
 *
 * Pure: the pane (and any host) runs the requests these plan.
 */
import { describePlacement, revealInvisible } from "./display.js";
import type { PlatformError } from "./errors.js";
import { formatCell, formatLocation, parseCell, quoteSheetName } from "./location.js";
import { locatePlacement, type PlacedReport, reportName, type SheetRef } from "./placement-view.js";
import { findPlacementAt, type PlacementAt, placementAnchor, placementEnd } from "./placements.js";
import type { ConnectWorkbookInput } from "./schema.js";

export interface AddressCorrection {
  placement: PlacedReport;
  /** The sheet's name now. */
  sheetName: string;
  input: ConnectWorkbookInput;
}

/** The address of `p` with its sheet called `sheetName` and its anchor at `anchor` (the extent kept). */
function addressInput(p: PlacedReport, sheetName: string, sheetId: string | null, anchor: string) {
  const from = parseCell(placementAnchor(p) ?? anchor);
  const to = parseCell(anchor);
  const oldEnd = placementEnd(p);
  const endRef = oldEnd ? parseCell(oldEnd) : null;
  let end: string | null = null;
  if (from && to && endRef) {
    end = formatCell({ col: endRef.col - from.col + to.col, row: endRef.row - from.row + to.row });
  }
  const input: ConnectWorkbookInput = {
    placementId: p.id ?? null,
    externalWorkbookId: p.workbookId,
    resultLocation: formatLocation({ sheetName, start: anchor, end: end && end !== anchor ? end : null }),
    sheetName,
    anchorCell: anchor,
    addressOnly: true,
  };
  if (sheetId) input.sheetId = sheetId;
  if (end) input.endResultCell = end;
  return input;
}

/**
 * The placements of this workbook (`here`) whose sheet id is found under a new name, each with the
 * addressOnly body that records the new name. Placements without an id are left out: addressOnly
 * needs `placementId`.
 */
export function addressCorrections(
  here: readonly PlacedReport[],
  sheets: readonly SheetRef[],
): AddressCorrection[] {
  const out: AddressCorrection[] = [];
  for (const p of here) {
    if (!p.id || !p.sheetId) continue;
    const where = locatePlacement(p, sheets);
    if (where.note?.kind !== "renamed") continue;
    const anchor = placementAnchor(p);
    if (!anchor) continue;
    out.push({
      placement: p,
      sheetName: where.sheetName,
      input: addressInput(p, where.sheetName, p.sheetId, anchor),
    });
  }
  return out;
}

const sheetWords = (name: string) => quoteSheetName(revealInvisible(name));

/** "Revenue moved with its sheet, now on 'Sales 2025'." */
export function addressCorrectedMessage(correction: AddressCorrection): string {
  return `${reportName(correction.placement.report)} moved with its sheet, now on ${sheetWords(correction.sheetName)}: its record was updated.`;
}

export function addressCorrectionFailedMessage(correction: AddressCorrection, error: PlatformError): string {
  return `${reportName(correction.placement.report)} moved with its sheet to ${sheetWords(correction.sheetName)}, but the service could not record the new name (${error.message.replace(/\s*Try again[^.]*\.$/, "")}). It is listed under the new name here; press Reload list to try again.`;
}

export type MoveHerePlan =
  | { kind: "move"; placement: PlacedReport; input: ConnectWorkbookInput; where: string }
  | { kind: "refused"; message: string };

/**
 * "Move here" for a placement that is Not found: its record moved to the active cell's sheet, with
 * the active cell as its anchor and the same extent. Refused when the placement has no id (an
 * address correction needs one), when it is not one of this workbook's, or when the active cell is
 * already under a placement (`placed`: every listed placement).
 */
export function planMoveHere(
  placement: PlacedReport,
  at: PlacementAt,
  placed: readonly PlacedReport[],
): MoveHerePlan {
  const name = reportName(placement.report);
  if (!placement.id) {
    return {
      kind: "refused",
      message: `${name} was placed before placements had ids, so its record cannot be moved: disconnect it and place it again.`,
    };
  }
  if (placement.workbookId !== at.workbookId) {
    return {
      kind: "refused",
      message: `${name} is placed in another workbook: open that workbook to move it.`,
    };
  }
  const anchor = parseCell(at.cell);
  if (!anchor)
    return { kind: "refused", message: "Select one cell, the top-left cell of the report, then try again." };
  const there = findPlacementAt(placed, at);
  if (there && there.key !== placement.key) {
    return {
      kind: "refused",
      message: `${reportName(there.report)} is placed at ${describePlacement(there)}: select the top-left cell of ${name} on its sheet, then choose Move here.`,
    };
  }
  const input = addressInput(placement, at.sheetName, at.sheetId ?? null, formatCell(anchor));
  const where = describePlacement({
    workbookId: placement.workbookId,
    resultLocation: input.resultLocation,
    sheetName: at.sheetName,
    anchorCell: input.anchorCell ?? null,
    endResultCell: input.endResultCell ?? null,
  });
  return { kind: "move", placement, input, where };
}

export function movedHereMessage(plan: Extract<MoveHerePlan, { kind: "move" }>): string {
  return `${reportName(plan.placement.report)} is now recorded at ${plan.where}. Only its record moved: the cells were not changed.`;
}

/** Which placements of this workbook are Not found (stored without a sheet id, their sheet name gone). */
export function isNotFound(p: PlacedReport, sheets: readonly SheetRef[]): boolean {
  return locatePlacement(p, sheets).note?.kind === "not-found";
}
