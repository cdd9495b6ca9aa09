/** The Google Sheets sidebar: the task pane over the Apps Script server (see host.ts). */
import { mountTaskPane } from "../../../../taskpane/mount.js";
import { callServer } from "./bridge.js";
import { createSheetsHost } from "./host.js";

/** The module registry Sidebar.html starts with (tooling/sheets/sidebar-chunks.ts): its lazy parts come from the server. */
declare global {
  interface Window {
    __sidebarChunks?: { fetch: ((names: string[]) => Promise<string[]>) | null };
  }
}

if (window.__sidebarChunks) window.__sidebarChunks.fetch = (names) => callServer("loadSidebarChunks", names);

const root = document.getElementById("root");
if (root) mountTaskPane(root, createSheetsHost());
