/**
 * What the preview page learns from the server that serves it (`/preview-config.json`, answered by
 * tooling/preview/server.ts): where the local Reporting Platform runs and the settings the pane
 * starts with. Served by the page's own origin, never carried in the page's URL.
 */
import type { SettingsPatch } from "../../core/settings.js";

export const PREVIEW_CONFIG_PATH = "/preview-config.json";
/**
 * POST: a fresh sandbox with the demo's data (what the page's "Reset demo" asks for). The sandbox
 * keeps disconnects, refreshes and placements until it restarts, while the simulated workbook
 * starts over on every reload; this brings both back to the demo.
 */
export const PREVIEW_RESET_PATH = "/preview-reset";

export interface PreviewConfig {
  /** The sandbox's base URL, `http://127.0.0.1:PORT`. */
  sandboxUrl: string;
  /** The settings the pane uses until the user saves their own. */
  defaults: SettingsPatch;
}
