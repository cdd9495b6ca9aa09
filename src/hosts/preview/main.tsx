/**
 * The preview page: the simulated workbook beside the task pane, connected to the local Reporting
 * Platform whose address the serving process hands over at `/preview-config.json`.
 *
 * `?width=300` narrows the pane to Google Sheets' sidebar width (Excel's is 350, the default); the
 * query options are in query.ts and docs/preview.md.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { mountTaskPane } from "../../../taskpane/mount.js";
import { demoSeed } from "../../sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../sandbox/demo-workbook.js";
import {
  createDirectGateway,
  createLocalStorageSecretStore,
  loadDirectGatewayCode,
} from "../direct-gateway.js";
import type { RangeTarget } from "../host.js";
import { PREVIEW_CONFIG_PATH, PREVIEW_RESET_PATH, type PreviewConfig } from "./config.js";
import { createPreviewHost } from "./host.js";
import { paneWidthFrom } from "./query.js";
import { rememberTheme } from "./theme.js";
import { WorkbookView } from "./WorkbookView.js";
import { PreviewWorkbook } from "./workbook.js";

function applyPaneWidth() {
  const width = paneWidthFrom(window.location.search);
  if (width !== null) document.documentElement.style.setProperty("--pane-width", `${width}px`);
}

async function loadConfig(): Promise<PreviewConfig> {
  const response = await fetch(PREVIEW_CONFIG_PATH, { cache: "no-store" });
  if (!response.ok) throw new Error(`${PREVIEW_CONFIG_PATH} answered ${response.status}`);
  return (await response.json()) as PreviewConfig;
}

/** "Reset demo": a fresh sandbox with the demo's data, then the page again (a fresh workbook). */
async function resetDemo(): Promise<void> {
  const response = await fetch(PREVIEW_RESET_PATH, { method: "POST", cache: "no-store" });
  if (!response.ok) throw new Error("The demo could not be reset. Restart npm start to reset it.");
  window.location.reload();
}

function showProblem(where: HTMLElement, text: string) {
  const p = document.createElement("p");
  p.className = "preview-message";
  p.textContent = text;
  where.replaceChildren(p);
}

async function start() {
  applyPaneWidth();
  // The gateway's code loads beside the config, not after it.
  void loadDirectGatewayCode().catch(() => undefined);
  const workbookElement = document.getElementById("workbook")!;
  const paneElement = document.getElementById("pane")!;

  let config: PreviewConfig;
  try {
    config = await loadConfig();
  } catch {
    showProblem(
      workbookElement,
      "The preview could not reach the process that serves it. Start it with `npm start` and open the address it prints.",
    );
    return;
  }

  // The demo data describes this workbook: its cells hold what the demo reports wrote, and its
  // placements are shaded until the pane has loaded the service's own list.
  const demoReports = demoSeed().reports;
  const workbook = new PreviewWorkbook(
    DEMO_WORKBOOK,
    demoReports.filter((r) => r.deploymentId === config.defaults.deploymentId),
    demoReports,
  );

  // Settings are kept per sandbox: a sandbox started later (another port, fresh data) starts from
  // the demo settings instead of a stored address that no longer answers. They live in the tab's
  // sessionStorage, not localStorage: keys typed into the demo are gone when its tab closes, rather
  // than left in plain text in the browser profile.
  const store = createLocalStorageSecretStore(
    `rp-preview:${new URL(config.sandboxUrl).host}:`,
    globalThis.sessionStorage,
  );
  const gateway = createDirectGateway({ store, defaults: config.defaults });
  // The sandbox's own route for a report's owner changing its query (docs/sandbox.md).
  const host = createPreviewHost(workbook, gateway, {
    async changeQuery(deploymentId, reportId) {
      const settings = config.defaults;
      const answer = await fetch(`${config.sandboxUrl}/sandbox/reports/${reportId}/change-query`, {
        method: "POST",
        headers: { Authorization: `Bearer ${settings.apiKey ?? ""}`, "Content-Type": "application/json" },
        body: "{}",
      });
      if (!answer.ok)
        throw new Error(
          `The sandbox did not change report ${reportId} of deployment ${deploymentId} (${answer.status}).`,
        );
    },
  });

  // The light or dark choice survives a reload (localStorage: the one word, no settings or keys).
  let themeStorage: Storage | undefined;
  try {
    themeStorage = globalThis.localStorage;
  } catch {
    themeStorage = undefined;
  }
  rememberTheme(workbook, themeStorage);

  const syncTheme = () => {
    document.body.dataset.theme = workbook.getSnapshot().theme;
  };
  workbook.subscribe(syncTheme);
  syncTheme();

  // The browser tests read the cells back as the host does (values only: no settings, no keys).
  Object.assign(window, { previewReadRange: (target: RangeTarget) => host.readRange(target) });

  createRoot(workbookElement).render(
    <StrictMode>
      <WorkbookView workbook={workbook} host={host} onResetDemo={resetDemo} />
    </StrictMode>,
  );
  mountTaskPane(paneElement, host);
}

void start();
