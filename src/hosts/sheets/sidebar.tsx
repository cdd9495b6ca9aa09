/** The Google Sheets sidebar: the task pane over the Apps Script server (see host.ts). */
import { mountTaskPane } from "../../../taskpane/mount.js";
import { createSheetsHost } from "./host.js";

const root = document.getElementById("root");
if (root) mountTaskPane(root, createSheetsHost());
