/**
 * The core's clients (`createPlatformClient`, `createAgentChat`) against the sandbox over loopback
 * HTTP, with the demo data: the client's disconnect inputs and the service's reading of them agree.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgentChat } from "../../src/core/chat-client.js";
import { createPlatformClient } from "../../src/core/client.js";
import { isPlatformError } from "../../src/core/errors.js";
import {
  placementAnchor,
  placementSheetName,
  placementsOf,
  toDisconnectInput,
} from "../../src/core/placements.js";
import { fetchTransport } from "../../src/core/transport.js";
import { DEMO_AGENT_KEY, DEMO_API_KEY, DEMO_SCIM_TOKEN, DEMO_SCOPED_KEY } from "../../src/sandbox/demo.js";
import { DEMO_WORKBOOK, OTHER_WORKBOOK } from "../../src/sandbox/demo-workbook.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;
beforeAll(async () => {
  sandbox = await spawnSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

const client = () =>
  createPlatformClient({
    transport: fetchTransport(fetch),
    baseUrl: sandbox.url,
    token: DEMO_API_KEY,
    scimToken: DEMO_SCIM_TOKEN,
  });

async function rejection(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("createPlatformClient against the sandbox", () => {
  it("lists deployments and every page of reports", async () => {
    const c = client();
    expect((await c.listDeployments()).map((d) => d.name)).toEqual(["Production", "Staging"]);
    const all = await c.listReports(1, { pageSize: 5 });
    // Reports 101-113 of deployment 1 (docs/sandbox.md, "The demo data").
    expect(all).toHaveLength(13);
    const inOther = await c.listReports(1, { externalWorkbookId: OTHER_WORKBOOK.id });
    expect(inOther.map((r) => r.name)).toEqual(["Revenue by Region"]);
    expect((await c.listReports(1, { search: "q1 SALES" })).map((r) => r.id)).toEqual([104, 105]);
  });

  it("lists SCIM users", async () => {
    const page = await client().listScimUsers({ count: 3, startIndex: 2 });
    expect(page.totalResults).toBe(7);
    expect(page.Resources?.map((u) => u.id)).toEqual(["12", "13", "14"]);
  });

  it("maps 401 and a scoped key's 403 to errors that say what to do", async () => {
    const bad = createPlatformClient({
      transport: fetchTransport(fetch),
      baseUrl: sandbox.url,
      token: "sk-wrong",
      retries: 0,
    });
    const e401 = await rejection(bad.listDeployments());
    expect(isPlatformError(e401) && e401.kind).toBe("unauthorized");
    const scoped = createPlatformClient({
      transport: fetchTransport(fetch),
      baseUrl: sandbox.url,
      token: DEMO_SCOPED_KEY,
      retries: 0,
    });
    const e403 = await rejection(scoped.listReports(2));
    expect(isPlatformError(e403) && e403.kind).toBe("forbidden");
  });

  it("toDisconnectInput removes exactly the placement it was made for, for every demo placement (disconnect rules 1-8)", async () => {
    const c = client();
    const reports = [
      ...(await c.listReports(1, { externalWorkbookId: DEMO_WORKBOOK.id })),
      ...(await c.listReports(2, { externalWorkbookId: DEMO_WORKBOOK.id })),
    ];
    let removed = 0;
    for (const report of reports) {
      for (const p of placementsOf(report).filter((x) => x.workbookId === DEMO_WORKBOOK.id)) {
        const before = placementsOf(await c.getReport(report.deploymentId, report.id));
        // The sheet the user is on now: its current id (a recreated tab has a new one).
        const sheet = DEMO_WORKBOOK.sheets.find(
          (s) =>
            s.id === p.sheetId ||
            ("recreated" in s && s.recreated.previousId === p.sheetId) ||
            s.name === placementSheetName(p) ||
            ("placedAs" in s && s.placedAs === placementSheetName(p)),
        )!;
        const input = toDisconnectInput(p, {
          workbookId: DEMO_WORKBOOK.id,
          sheetId: sheet.id,
          sheetName: sheet.name,
        });
        const after = placementsOf(
          await c.disconnectReportFromWorkbook(report.deploymentId, report.id, input),
        );
        const key = (x: typeof p) => `${x.workbookId}|${placementSheetName(x)}|${placementAnchor(x)}`;
        expect(after.map(key), `${report.name} ${JSON.stringify(input)}`).toEqual(
          before.filter((x) => key(x) !== key(p)).map(key),
        );
        removed++;
      }
    }
    expect(removed).toBeGreaterThanOrEqual(12);
    // What is left of the demo workbook: nothing. The other workbook keeps its placements.
    expect(await c.listReports(1, { externalWorkbookId: DEMO_WORKBOOK.id })).toEqual([]);
    expect(await c.listReports(1, { externalWorkbookId: OTHER_WORKBOOK.id })).toHaveLength(1);
  });
});

describe("createAgentChat against the sandbox", () => {
  const chat = () =>
    createAgentChat({
      transport: fetchTransport(fetch),
      chatUrl: `${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
      apiKey: DEMO_AGENT_KEY,
      sessionSettings: { externalId: "ann", userAttributes: [{ name: "region", value: "EU" }] },
      randomBytes: (n) => new Uint8Array(randomBytes(n)),
    });

  it("gets the answer and keeps the conversation with the chatId", async () => {
    const c = chat();
    const first = await c.ask({ input: "Revenue by region?" });
    expect(first.answer).toContain("| Europe |");
    expect(first.answer).not.toContain("North America");
    expect(first.chatId).toBeTruthy();
    const second = await c.ask({ input: "And Q1?", chatId: first.chatId! });
    expect(second.chatId).toBe(first.chatId);
    expect(second.answer).toContain("Revenue by region?");
  });

  it("resumes a suspended run and reports an error line", async () => {
    const c = chat();
    const resumed = await c.ask({ input: "Revenue by region trigger:suspend" });
    expect(resumed.answer).toContain("| Europe |");
    const failed = await rejection(c.ask({ input: "trigger:error" }));
    expect(isPlatformError(failed) && failed.kind).toBe("stream");
  });

  it("stops a slow answer with abort", async () => {
    const c = chat();
    let chatId: string | null = null;
    const asking = c.ask(
      { input: "Revenue trigger:slow" },
      {
        onMessage: (m) => {
          if (m.id === "__cutoff__")
            chatId = (m.state as { chatId?: string } | null | undefined)?.chatId ?? null;
        },
      },
    );
    const outcome = rejection(asking);
    while (!chatId) await new Promise((r) => setTimeout(r, 10));
    expect(await c.abort(chatId)).toBe(true);
    const stopped = await outcome;
    expect(isPlatformError(stopped) && stopped.kind).toBe("aborted");
  });
});
