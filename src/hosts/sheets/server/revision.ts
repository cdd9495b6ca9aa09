/// <reference types="google-apps-script" />
/**
 * The workbook's revision as the sidebar sees it: a short opaque string that changes when the pane's
 * snapshot may be stale although the selection says nothing of it. Sheets tells a sidebar nothing,
 * so the polled `getActiveContext` carries it, and the sidebar reloads when it changes.
 *
 * Two parts:
 * - a signature of the sheets (ids and names, in order): a sheet added, renamed, moved or removed;
 * - a per-user, per-spreadsheet counter that the add-on menu's "Disconnect report here" bumps after
 *   it sent a DELETE (the service's list changed outside the pane).
 *
 * Neither part says anything secret: a number and a hash of the tab names.
 */
import type { SheetInfo } from "../../host.js";
import { listSheets } from "./spreadsheet.js";

const EDITS_PROPERTY_PREFIX = "reportingPlatform.edits.";

function editsKey(spreadsheetId: string): string {
  return EDITS_PROPERTY_PREFIX + spreadsheetId;
}

/** FNV-1a (32 bits) over the UTF-16 code units, in hex: short, and enough to notice a change. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

function sheetsSignature(sheets: readonly SheetInfo[]): string {
  return fnv1a(sheets.map((s) => `${s.id}\u0000${s.name}`).join("\u0001"));
}

function readEdits(spreadsheetId: string): number {
  const stored = Number(PropertiesService.getUserProperties().getProperty(editsKey(spreadsheetId)));
  return Number.isSafeInteger(stored) && stored > 0 ? stored : 0;
}

/** The revision of the open spreadsheet (`sheets`: its sheets, when the caller has read them already). */
export function workbookRevision(spreadsheetId: string, sheets: readonly SheetInfo[] = listSheets()): string {
  return `${readEdits(spreadsheetId)}.${sheetsSignature(sheets)}`;
}

/**
 * Notes that this spreadsheet's reports changed outside the pane, so the next poll tells the sidebar.
 * Never throws: a lost note costs only a stale list until Reload list, not the user's action.
 */
export function noteWorkbookEdited(spreadsheetId: string): void {
  try {
    const next = readEdits(spreadsheetId) + 1;
    PropertiesService.getUserProperties().setProperty(editsKey(spreadsheetId), String(next));
  } catch {
    // The properties store is unavailable or full: the pane's Reload list still shows the change.
  }
}
