/**
 * Refresh in Excel when a deployment's data API is at another origin than the tenant's, as on the
 * real platform: the sandbox serves its data API on a second port (`--data-port`), both origins
 * refuse the page's own calls (`--no-cors`), and the Excel pane's way to them is the one the Excel
 * host uses (the relaying transport over a fetch that enforces CORS, the direct gateway, the cells
 * held to Office.js's rules) through the real add-in server. One add-in server lists the data origin
 * (`dataOrigins`, `--data-origin`), the other lists the tenant only.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAddinServer, startAddinServer } from "../../../src/addin-server/server.js";
import { DATA_ORIGIN, parseTenantList } from "../../../src/addin-server/tenants.js";
import { placedReports, planRefresh, type RefreshOutcome } from "../../../src/core/index.js";
import { fetchTransport } from "../../../src/core/transport.js";
import { createDirectGateway, createMemorySecretStore } from "../../../src/hosts/direct-gateway.js";
import { refreshInExcel } from "../../../src/hosts/excel/cells.js";
import { createRelayingTransport, loadRelayRoute } from "../../../src/hosts/excel/relay-transport.js";
import { DEMO_API_KEY } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { browserFetch } from "../../support/browser-fetch.js";
import { createCellsWorkbook } from "../../support/excel-cells.js";
import { type SpawnedSandbox, spawnSandbox } from "../../support/spawn-sandbox.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "dist/excel");

let sandbox: SpawnedSandbox;
/** The data API's origin, as the deployment names it (`deploymentUrl`). */
let dataOrigin: string;
/** Lists the tenant and the data origin. */
let listing: RunningAddinServer;
/** Lists the tenant only. */
let tenantOnly: RunningAddinServer;

beforeAll(async () => {
  sandbox = await spawnSandbox(undefined, { args: ["--no-cors", "--data-port", "0"] });
  const deployment = await fetch(`${sandbox.url}/api/v1/deployments/1`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  dataOrigin = new URL(((await deployment.json()) as { deploymentUrl: string }).deploymentUrl).origin;
  listing = await startAddinServer({
    distDir: DIST,
    port: 0,
    tenants: parseTenantList([sandbox.url]),
    dataOrigins: parseTenantList([dataOrigin], DATA_ORIGIN),
  });
  tenantOnly = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([sandbox.url]) });
});
afterAll(async () => {
  await Promise.all([listing?.close(), tenantOnly?.close(), sandbox?.stop()]);
});

/** Refreshes the demo's "Revenue by region" placement on Summary from a pane served by `server`. */
async function refreshFrom(server: RunningAddinServer) {
  const pageUrl = `${server.url}/taskpane.html`;
  const page = browserFetch(new URL(pageUrl).origin);
  // What the page sent, with its credential: the relay's target is in its path.
  const sent: { url: string; authorization: string | null }[] = [];
  const recording: typeof fetch = (input, init = {}) => {
    sent.push({ url: String(input), authorization: new Headers(init.headers).get("authorization") });
    return page.fetch(input, init);
  };
  const transport = createRelayingTransport({
    direct: fetchTransport(recording),
    route: () => loadRelayRoute(pageUrl, page.fetch),
  });
  const gateway = createDirectGateway({ store: createMemorySecretStore(), transport });
  await gateway.saveSettings({ tenantUrl: sandbox.url, apiKey: DEMO_API_KEY, deploymentId: 1 });
  const { reports } = await gateway.listWorkbookReports(DEMO_WORKBOOK.id);
  const sheets = DEMO_WORKBOOK.sheets.map((s) => ({ id: s.id, name: s.name }));
  const plan = planRefresh(placedReports(reports), { kind: "all" }, sheets);
  const item = plan.items.find((i) => i.placement.id === "plc-101-summary");
  if (!item) throw new Error("The demo's placement plc-101-summary is not in the plan.");
  const workbook = createCellsWorkbook(sheets);
  const outcomes: RefreshOutcome[] = [];
  await refreshInExcel(
    [item],
    { confirmOverwrite: async () => true, onOutcome: (o) => outcomes.push(o) },
    gateway,
    workbook.Excel as never,
  );
  return { outcome: outcomes[0], workbook, asked: page.asked, sent };
}

describe("a deployment whose data API is at its own origin (sandbox --data-port), refusing the page", () => {
  it("the sandbox names the second origin in deploymentUrl", () => {
    expect(dataOrigin).not.toBe(sandbox.url);
    expect(new URL(dataOrigin).port).not.toBe(new URL(sandbox.url).port);
  });

  it("is reached through the relay when the add-in server lists it: the placement is refreshed and recorded", async () => {
    const { outcome, workbook, asked } = await refreshFrom(listing);
    expect(outcome?.status, outcome?.message).toBe("refreshed");
    expect(workbook.value("{00000000-0001-0000-0000-000000000000}", "B2")).toBeDefined();
    const dataHost = new URL(dataOrigin).host;
    // The load went through the relay to the data origin, and nowhere directly.
    expect(asked.filter((a) => a.includes(`/relay/${dataHost}/`))).toEqual([
      expect.stringMatching(/^POST .*\/cubejs-api\/v1\/load$/),
    ]);
    expect(asked.filter((a) => a.includes(`//${dataHost}/`))).toEqual([]);
  });

  it("is named when the add-in server does not list it: Not refreshed, ask your admin to list it", async () => {
    const { outcome, workbook, asked } = await refreshFrom(tenantOnly);
    expect(outcome?.status).toBe("not-refreshed");
    expect(outcome?.message).toContain(`ask your admin to list ${dataOrigin} on the add-in server`);
    expect(workbook.syncPayloads).toEqual([]);
    // One direct attempt, refused by the browser; the load (a POST) is not resent anywhere.
    const dataHost = new URL(dataOrigin).host;
    expect(asked.filter((a) => a.includes(dataHost))).toEqual([
      expect.stringMatching(new RegExp(`^POST ${dataOrigin}/data/1/cubejs-api/v1/load$`)),
    ]);
  });

  it("gets the data token only, never the tenant's API key, at the data origin", async () => {
    const { sent } = await refreshFrom(listing);
    const dataHost = new URL(dataOrigin).host;
    const toData = sent.filter((s) => s.url.includes(dataHost));
    expect(toData.length).toBeGreaterThan(0);
    for (const request of toData) {
      expect(request.authorization).not.toContain(DEMO_API_KEY);
      expect(request.authorization).not.toMatch(/^Bearer /);
    }
    // The key went to the tenant (through the relay), for the deployment and the token.
    expect(sent.some((s) => !s.url.includes(dataHost) && s.authorization === `Bearer ${DEMO_API_KEY}`)).toBe(
      true,
    );
  });
});
