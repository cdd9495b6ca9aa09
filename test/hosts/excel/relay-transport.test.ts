/**
 * How the Excel pane reaches its tenant, over real sockets: the page's fetch behaves like a
 * browser's (browser-fetch.ts: CORS enforced), the tenant is the sandbox with and without
 * `--no-cors`, the relay is the real add-in server. The gateway is the one the Excel host uses.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAddinServer, startAddinServer } from "../../../src/addin-server/server.js";
import { parseTenantList } from "../../../src/addin-server/tenants.js";
import { placementsOf } from "../../../src/core/placements.js";
import { fetchTransport } from "../../../src/core/transport.js";
import { createDirectGateway, createMemorySecretStore } from "../../../src/hosts/direct-gateway.js";
import {
  createRelayingTransport,
  loadRelayRoute,
  TENANT_REFUSES_PAGE_MESSAGE,
} from "../../../src/hosts/excel/relay-transport.js";
import { DEMO_AGENT_KEY, DEMO_API_KEY } from "../../../src/sandbox/demo.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { browserFetch } from "../../support/browser-fetch.js";
import { type SpawnedSandbox, spawnSandbox } from "../../support/spawn-sandbox.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../../.."), "dist/excel");

let noCors: SpawnedSandbox;
let withCors: SpawnedSandbox;
/** Lists the no-cors sandbox. */
let listing: RunningAddinServer;
/** Lists nothing. */
let bare: RunningAddinServer;

beforeAll(async () => {
  // One after the other: a start that fails must not leave the other running unreferenced.
  noCors = await spawnSandbox(undefined, { args: ["--no-cors"] });
  withCors = await spawnSandbox();
  listing = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([noCors.url]) });
  bare = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([]) });
});
afterAll(async () => {
  await Promise.all([listing?.close(), bare?.close(), noCors?.stop(), withCors?.stop()]);
});

/** The Excel pane's gateway on a page at `pageUrl`, with settings for `tenant`. */
async function paneGateway(pageUrl: string, tenant: string) {
  const page = browserFetch(new URL(pageUrl).origin);
  const transport = createRelayingTransport({
    direct: fetchTransport(page.fetch),
    route: () => loadRelayRoute(pageUrl, page.fetch),
  });
  const gateway = createDirectGateway({ store: createMemorySecretStore(), transport });
  await gateway.saveSettings({
    tenantUrl: tenant,
    apiKey: DEMO_API_KEY,
    deploymentId: 1,
    chatUrl: `${tenant}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
    agentApiKey: DEMO_AGENT_KEY,
    externalId: "ann@example.com",
  });
  const toTenant = () => page.asked.filter((a) => a.includes(new URL(tenant).host) && !a.includes("/relay/"));
  const throughRelay = () => page.asked.filter((a) => a.includes("/relay/"));
  return { gateway, page, toTenant, throughRelay };
}

describe("a tenant that accepts no calls from the page (sandbox --no-cors)", () => {
  it("is reached through the relay from the first call when the add-in server lists it: list, disconnect, chat", async () => {
    const { gateway, toTenant, throughRelay } = await paneGateway(`${listing.url}/taskpane.html`, noCors.url);
    const { reports } = await gateway.listWorkbookReports(DEMO_WORKBOOK.id);
    expect(reports.length).toBeGreaterThan(5);
    const report = reports.find((r) => r.id === 101)!;
    const after = await gateway.disconnect(report.deploymentId, report.id, {
      placementId: "plc-101-summary",
    });
    expect(placementsOf(after).map((p) => p.id)).not.toContain("plc-101-summary");
    expect(placementsOf(after).map((p) => p.id)).toContain("plc-101-q1");
    const answer = await gateway.ask({
      input: "revenue by region",
      sessionSettings: { externalId: "ann@example.com" },
    });
    expect(answer.answer).toMatch(/Answered for ann@example.com/);
    expect(toTenant()).toEqual([]);
    expect(throughRelay().map((a) => a.split(" ")[0])).toEqual(["GET", "DELETE", "POST"]);
  });

  it("says what to do when the add-in server does not list it; a DELETE is tried through the relay, a chat question is not", async () => {
    const { gateway, throughRelay } = await paneGateway(`${bare.url}/taskpane.html`, noCors.url);
    await expect(gateway.listWorkbookReports(DEMO_WORKBOOK.id)).rejects.toThrow(TENANT_REFUSES_PAGE_MESSAGE);
    await expect(gateway.disconnect(1, 101, { placementId: "plc-101-q1" })).rejects.toThrow(
      TENANT_REFUSES_PAGE_MESSAGE,
    );
    await expect(
      gateway.ask({ input: "revenue by region", sessionSettings: { externalId: "ann@example.com" } }),
    ).rejects.toThrow(TENANT_REFUSES_PAGE_MESSAGE);
    // The GET and the DELETE were sent again through the relay (which refused: not listed); the
    // chat question never went anywhere but its one direct attempt.
    expect(throughRelay().map((a) => a.split(" ")[0])).toEqual(["GET", "DELETE"]);
  });

  it("says the same on a page served without an add-in server (no relay to try)", async () => {
    const { gateway, throughRelay } = await paneGateway(
      "https://static.example.com/excel/taskpane.html",
      noCors.url,
    );
    await expect(gateway.listDeployments()).rejects.toThrow(TENANT_REFUSES_PAGE_MESSAGE);
    expect(throughRelay()).toEqual([]);
  });
});

describe("a tenant that accepts calls from the page (sandbox with CORS)", () => {
  it("is called directly, and once it has answered, a failure is a network error, not a refusal", async () => {
    const { gateway, toTenant, throughRelay } = await paneGateway(`${bare.url}/taskpane.html`, withCors.url);
    expect(await gateway.listDeployments()).toHaveLength(2);
    expect(toTenant()).toHaveLength(1);
    expect(throughRelay()).toEqual([]);

    const flaky = await spawnSandbox();
    const pane = await paneGateway(`${bare.url}/taskpane.html`, flaky.url);
    expect(await pane.gateway.listDeployments()).toHaveLength(2);
    await flaky.stop();
    const failure = await pane.gateway.listDeployments().catch((e: unknown) => e);
    expect(failure).toMatchObject({ kind: "network" });
    expect((failure as Error).message).not.toContain(TENANT_REFUSES_PAGE_MESSAGE);
    expect(pane.throughRelay()).toEqual([]);
  });
});

describe("a tenant that answers a disconnect with a redirect, reached through the relay", () => {
  it("fails with an error naming where the redirect pointed, and sends nothing there", async () => {
    // A page's fetch with redirect "manual" sees only an opaque redirect (no status, no headers),
    // so a relayed request must let the browser see the relay's own 3xx, which carries the target
    // in X-Relay-Location and never a Location to follow.
    const asked: string[] = [];
    const tenant = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      res.writeHead(307, { Location: "https://elsewhere.example.net/collect" }).end();
    });
    await new Promise<void>((done) => tenant.listen(0, "127.0.0.1", done));
    const tenantUrl = `http://127.0.0.1:${(tenant.address() as AddressInfo).port}`;
    const relay = await startAddinServer({ distDir: DIST, port: 0, tenants: parseTenantList([tenantUrl]) });
    try {
      const { gateway, toTenant } = await paneGateway(`${relay.url}/taskpane.html`, tenantUrl);
      const failure = await gateway
        .disconnect(1, 101, { placementId: "plc-101-q1" })
        .catch((e: unknown) => e);
      expect((failure as Error).message).toContain("redirect (307) to https://elsewhere.example.net/collect");
      expect(asked).toEqual(["DELETE /api/v1/deployments/1/reports/101/connect-workbook"]);
      expect(toTenant()).toEqual([]);
    } finally {
      await relay.close();
      await new Promise((done) => tenant.close(done));
    }
  });
});
