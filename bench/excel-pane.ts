/**
 * The Excel task pane as a user has it after setup, for the first-render figure: the production
 * build (taskpane.html) served by the add-in server, settings already in the add-in's per-user
 * store, and Office.js replaced by the kit's stand-in (Excel draws its own grid: nothing else is on
 * the page). The tenant is the sandbox with the demo data, over HTTPS as a real tenant is (the
 * pane's Content-Security-Policy lets it call HTTPS origins only) and accepting the page's calls
 * (CORS on), so the pane calls it directly, not through the add-in server's relay.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import type { Page } from "playwright-core";
import { devCertificate } from "../src/addin-server/dev-certs.js";
import { startAddinServer } from "../src/addin-server/server.js";
import { parseTenantList } from "../src/addin-server/tenants.js";
import { SETTINGS_KEY } from "../src/hosts/direct-gateway.js";
import { WORKBOOK_ID_PROPERTY } from "../src/hosts/excel/host.js";
import { SECRET_PREFIX } from "../src/hosts/excel/secrets.js";
import { createSandboxApp } from "../src/sandbox/app.js";
import { DEMO_AGENT_KEY, DEMO_API_KEY, DEMO_DEPLOYMENTS } from "../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../src/sandbox/demo-workbook.js";
import type { Seed } from "../src/sandbox/seed.js";
import { OFFICE_JS, officeStandIn } from "../test/support/office-stand-in.js";
import type { NavigateOptions } from "./browser-timing.js";

/** A placement list item of the Excel pane (PlacementList.tsx). */
export const EXCEL_PANE_ITEM = "#root li[data-placement-key]";

export interface ServedExcelPane {
  /** taskpane.html on the add-in server (plain HTTP on loopback, as the bare React page is served). */
  url: string;
  /** The tenant (the sandbox over HTTPS, CORS on), for a page that makes the pane's first request itself. */
  tenantUrl: string;
  /**
   * For the browser's launch: Office.js's host mapped to the local server of the stand-in. Not a
   * Playwright route: with a route set, every request of the page is paused and handed to this
   * process to decide, which would slow each of the pane's requests and none of the bare page's.
   */
  browserArgs: string[];
  /** The fresh context's options and the Office.js route, for `navigate`. */
  navigation: NavigateOptions;
  close(): Promise<void>;
}

/** The sandbox app with `seed`, served over HTTPS on loopback with the add-in's dev certificate. */
async function startHttpsSandbox(seed: Seed, tls: { cert: string; key: string }) {
  let baseUrl = "";
  const sandbox = createSandboxApp({ seed, chatDelayMs: 40, cors: true, baseUrl: () => baseUrl });
  const server = serve({
    fetch: sandbox.app.fetch,
    port: 0,
    hostname: "127.0.0.1",
    createServer: createHttpsServer,
    serverOptions: { cert: tls.cert, key: tls.key },
  });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once("listening", resolve);
    server.once("error", reject);
  });
  // The certificate names localhost.
  baseUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

/** The Office.js stand-in, served over HTTPS on loopback (the page asks for it over HTTPS). */
async function serveOfficeStandIn(body: string, tls: { cert: string; key: string }) {
  const server = createHttpsServer({ cert: tls.cert, key: tls.key }, (_request, response) => {
    response.writeHead(200, {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "no-store",
    });
    response.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What the pane's store holds after the user saved Settings: tenant, key, deployment, agent. */
function storedSettings(tenant: string): Record<string, string> {
  const origin = new URL(tenant).origin;
  const chatUrl = `${tenant}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`;
  return {
    [SECRET_PREFIX + SETTINGS_KEY]: JSON.stringify({
      tenantUrl: tenant,
      apiKey: DEMO_API_KEY,
      apiKeyFor: origin,
      deploymentId: DEMO_DEPLOYMENTS[0].id,
      chatUrl,
      agentApiKey: DEMO_AGENT_KEY,
      agentApiKeyFor: origin,
      externalId: "ann.lee@example.com",
      email: "ann.lee@example.com",
    }),
  };
}

/**
 * `officeScript`: script text run after the stand-in, in the same file (bench/refresh-pane.ts adds
 * the cells a refresh writes). `cells`: the kit's cells held to Excel's rules instead
 * (`excelCellsScript()`, office-stand-in.ts), which also read back what was written
 * (bench/hand-edits-pane.ts).
 */
export async function serveExcelPane(
  excelDir: string,
  seed: Seed,
  officeScript = "",
  options: { cells?: string } = {},
): Promise<ServedExcelPane> {
  const certs = mkdtempSync(join(tmpdir(), "rp-bench-certs-"));
  const closers: (() => Promise<void>)[] = [async () => rmSync(certs, { recursive: true, force: true })];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    // Made afresh in a temporary folder (devCertificate says so on stderr, not in the output).
    const tls = await devCertificate(certs);
    const sandbox = await startHttpsSandbox(seed, tls);
    closers.push(sandbox.close);
    // No tenant listed: the add-in server serves the page and relays nothing.
    const server = await startAddinServer({ distDir: excelDir, port: 0, tenants: parseTenantList([]) });
    closers.push(server.close);
    const standIn = await officeStandIn({
      workbookName: DEMO_WORKBOOK.name,
      custom: { [WORKBOOK_ID_PROPERTY]: DEMO_WORKBOOK.id },
      sheets: DEMO_WORKBOOK.sheets.map(({ id, name }) => ({ id, name })),
      active: { sheet: "Summary", cell: "B2" },
      storage: storedSettings(sandbox.url),
      ...(options.cells ? { cells: options.cells } : {}),
    });
    const office = await serveOfficeStandIn(`${standIn}\n${officeScript}`, tls);
    closers.push(office.close);
    return {
      url: `${server.url}/taskpane.html`,
      tenantUrl: sandbox.url,
      browserArgs: [`--host-resolver-rules=MAP ${new URL(OFFICE_JS).hostname} 127.0.0.1:${office.port}`],
      navigation: {
        // Excel's task pane is 350 px wide; the dev certificate's authority is not trusted here.
        context: { viewport: { width: 350, height: 800 }, ignoreHTTPSErrors: true },
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Whether the pane has kept a list for this session (src/hosts/list-cache.ts). */
export async function listKept(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    Object.keys(sessionStorage).some((key) => key.startsWith("reporting-platform:last-list:")),
  );
}
