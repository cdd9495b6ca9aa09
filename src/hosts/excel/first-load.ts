/**
 * The Excel page's second early script, an async module of its own like early.ts (which stays
 * tiny, for the right-click command): it runs as soon as its own graph has loaded, before the
 * pane's larger module, and starts what the first list waits for (start.ts): the transport and
 * the gateway's code at once, and, once Office is ready, the host with the first screen's reads.
 */
import { prepareExcel, startExcel } from "./start.js";

prepareExcel();

globalThis.Office?.onReady((info) => {
  if (!info?.host) return;
  try {
    startExcel();
  } catch {
    // The pane's module starts the same host and shows what failed.
  }
});
