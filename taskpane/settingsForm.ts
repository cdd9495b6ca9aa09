/**
 * Small rules of the Settings form (SettingsPanel.tsx): what counts as changed, a URL's host, and
 * reading a secret field without keeping it in state.
 */
import type { RefObject } from "react";
import { requireSecureUrl } from "../src/core/transport.js";
import type { HostKind } from "../src/hosts/host.js";

/**
 * Where each host keeps the settings, in the user's words (the hosts' stores: Excel's add-in
 * storage on this computer, Apps Script's user properties with the Google account, the preview's
 * sessionStorage of this tab).
 */
export function storedWhere(kind: HostKind): string {
  switch (kind) {
    case "excel":
      return "Stored for you by Office on this computer, never in the workbook. Keys are never shown again.";
    case "sheets":
      return "Stored with your Google account for this add-on, never in the spreadsheet. Keys are never shown again.";
    default:
      return "Stored in this browser tab until you close it, never in the workbook. Keys are never shown again.";
  }
}

/** The placeholder of a secret field: whether one is stored, never the secret. */
export function secretHint(set: boolean | undefined): string {
  return set ? "A key is set (leave empty to keep it)" : "Not set";
}

/** Whether a text field differs from what is stored (nothing stored: it is new). */
export function changed(value: string, before: string | undefined): boolean {
  return before === undefined || value.trim() !== before.trim();
}

/** Whether a URL passes the add-in's own check (HTTPS, or loopback http for the sandbox). */
export function isSecure(url: string): boolean {
  try {
    requireSecureUrl(url.trim());
    return true;
  } catch {
    return false;
  }
}

/** The host of a URL as typed, or null when it does not parse. */
export function hostOf(url: string): string | null {
  try {
    return new URL(url.trim()).host || null;
  } catch {
    return null;
  }
}

/** A secret field's value, read on save (never kept in state). */
export function secretOf(ref: RefObject<HTMLInputElement | null>): string {
  return ref.current?.value.trim() ?? "";
}
