/**
 * The built Apps Script server under hostile settings and arguments: a secret goes only to the
 * origin it was saved for, the chat URL must be on the tenant's registrable domain (or confirmed),
 * every google.script.run argument is checked, message ids are random, a redirect is named, and a
 * disconnect whose answer was lost is judged from the list as it is now.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  callError,
  callOk,
  DIST,
  type FetchAnswer,
  type FetchedRequest,
  loadAppsScript,
  type World,
} from "../../../support/apps-script.js";

const SPREADSHEET_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789secure";
const TENANT = "https://acme.reporting.example";
const CHAT_URL = "https://ai.reporting.example/api/v1/public/acme/agents/sales/chat/stream-chat-state";
const API_KEY = "sk-live-sec-4f9a1c2b7e";
const AGENT_KEY = "ak-live-sec-88d1e0c3aa";
const SCIM_TOKEN = "scim-live-sec-01b2c3d4e5";
const SECRETS = [API_KEY, AGENT_KEY, SCIM_TOKEN];
const owner = { id: 11, email: "ann@example.com", firstName: "Ann", picture: null };
const PLACED = {
  id: 42,
  publicId: "rep000000042",
  deploymentId: 7,
  userId: 11,
  user: owner,
  name: "Revenue by Region",
  refreshedByUser: owner,
  createdAt: "2024-09-01T10:00:00Z",
  updatedAt: "2024-10-01T10:00:00Z",
  type: "REPORT",
  externalWorkbookPlacements: [
    {
      id: "plc-42",
      workbookId: SPREADSHEET_ID,
      resultLocation: "Summary!B2",
      endResultCell: "F8",
      sheetId: "0",
      sheetName: "Summary",
      anchorCell: "B2",
    },
  ],
};

function json(status: number, body: unknown, headers: Record<string, string> = {}): FetchAnswer {
  return { status, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) };
}

const ndjson = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join("\n");

function world(fetch: (r: FetchedRequest) => FetchAnswer = () => json(200, [])): World {
  const w = loadAppsScript({
    spreadsheetId: SPREADSHEET_ID,
    sheets: [{ id: 0, name: "Summary", cell: "C3" }],
    fetch,
  });
  callOk(w, "saveSettings", {
    tenantUrl: TENANT,
    deploymentId: 7,
    apiKey: API_KEY,
    chatUrl: CHAT_URL,
    agentApiKey: AGENT_KEY,
    scimToken: SCIM_TOKEN,
    externalId: "ann",
  });
  w.requests.length = 0;
  return w;
}

/** The requests that carried one of the saved secrets to a host other than the one it was saved for. */
function leaks(w: World): string[] {
  return w.requests
    .filter((r) => !r.url.startsWith(`${TENANT}/`) && !r.url.startsWith("https://ai.reporting.example/"))
    .filter((r) =>
      SECRETS.some((s) => JSON.stringify(r.headers).includes(s) || (r.payload ?? "").includes(s)),
    )
    .map((r) => r.url);
}

beforeAll(() => {
  if (!existsSync(join(DIST, "Code.js"))) throw new Error("run `npm run build:sheets` first");
});

describe("saved keys stay with the origin they were saved for", () => {
  it("one saveSettings to another tenant, then listDeployments: the keys are not sent there", () => {
    const w = world();
    const saved = callOk<Record<string, unknown>>(w, "saveSettings", {
      tenantUrl: "https://acme-reporting.example.net",
      chatUrl: "",
    });
    expect(saved).toMatchObject({ apiKeySet: false, scimTokenSet: false });
    const error = callError(w, "listDeployments");
    expect(error.kind).toBe("unauthorized");
    expect(error.message).toMatch(/No API key is set/);
    expect(callError(w, "listScimUsers", { count: 10, startIndex: 1 }).kind).toBe("unauthorized");
    expect(leaks(w)).toEqual([]);
    expect(w.requests).toEqual([]);
    // The stored settings no longer hold the old keys at all.
    for (const s of SECRETS.slice(0, 1)) expect([...w.properties.user.values()].join("")).not.toContain(s);
  });

  it("a chat URL moved to another origin does not receive the agent key", () => {
    const w = world();
    callOk(w, "saveSettings", {
      chatUrl: "https://ai2.reporting.example/api/v1/public/acme/agents/sales/chat/stream-chat-state",
    });
    const error = callError(w, "askAgent", { input: "Revenue?", sessionSettings: { externalId: "ann" } });
    expect(error.kind).toBe("unauthorized");
    expect(error.message).toMatch(/No agent API key is set/);
    expect(w.requests).toEqual([]);
  });

  it("a key typed in a sidebar still showing the old tenant is refused, not bound to the new one", () => {
    const w = world();
    // Another sidebar (or the pane) moved the tenant; this one still shows TENANT.
    const moved = "https://acme-reporting.example.net";
    callOk(w, "saveSettings", { tenantUrl: moved, chatUrl: "", apiKey: "sk-for-moved" });
    const error = callError(w, "saveSettings", { apiKey: "sk-for-old-tenant", seenTenantUrl: TENANT });
    expect(error.kind).toBe("bad-request");
    expect(error.message).toContain(moved);
    expect([...w.properties.user.values()].join("")).not.toContain("sk-for-old-tenant");
  });

  it("a look-alike chat URL (attacker.co.uk for acme.co.uk) is refused", () => {
    const w = world();
    callOk(w, "saveSettings", { tenantUrl: "https://acme.co.uk", chatUrl: "", apiKey: API_KEY });
    const error = callError(w, "saveSettings", {
      chatUrl: "https://attacker.co.uk/api/v1/public/a/agents/7/chat/stream-chat-state",
      agentApiKey: AGENT_KEY,
    });
    expect(error.kind).toBe("insecure-url");
    expect(callOk<Record<string, unknown>>(w, "getSettings")).toMatchObject({ chatUrl: "" });
  });
});

describe("every google.script.run argument is checked", () => {
  it.each([
    ["saveSettings", [{ tenantUrl: 5 }], /The tenant URL must be text/],
    ["saveSettings", [{ apiKey: ["x"] }], /The API key must be text/],
    ["saveSettings", ["tenantUrl=x"], /The settings could not be read/],
    ["disconnectPlacement", ["7", 42, { placementId: "plc-42" }], /could not read the placement/],
    ["disconnectPlacement", [7, 42, { placementId: 5 }], /could not read the placement at 2\.placementId/],
    ["disconnectPlacement", [7, 42, "plc-42"], /could not read the placement at 2/],
    ["listScimUsers", [{ count: "10", startIndex: 1 }], /could not read the page of users at count/],
    ["listScimUsers", [null], /could not read the page of users/],
    ["askAgent", [{ input: 42 }], /could not read the question at input/],
    ["askAgent", [{ input: "q", chatId: 7 }], /could not read the question at chatId/],
    [
      "selectRange",
      [{ sheetId: 0, sheetName: "Summary", range: "B2" }],
      /could not read the range to select/,
    ],
    ["abortChat", [{ chatId: "c" }], /no conversation to stop/],
  ])("%s(%j) answers a clear bad-request, not a script error", (name, args, message) => {
    const w = world();
    const error = callError(w, name, ...args);
    expect(error.kind).toBe("bad-request");
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/is not a function|Cannot read properties|script failed/);
    expect(w.requests).toEqual([]);
  });
});

describe("the agent chat from Apps Script", () => {
  it("sends a random messageId within the documented pattern, and marks a fallback answer", () => {
    const w = world((r) => {
      expect(r.url).toBe(CHAT_URL);
      return {
        status: 200,
        headers: {},
        body: ndjson([
          { id: "__cutoff__", state: { chatId: "c-1" } },
          { id: "m-1", role: "assistant", content: "Only a draft", graphPath: ["analyst"] },
          { id: "__usage__", type: "usage" },
        ]),
      };
    });
    const first = callOk<{ messageId: string; incomplete: { reason: string } | null }>(w, "askAgent", {
      input: "Revenue?",
    });
    const second = callOk<{ messageId: string }>(w, "askAgent", { input: "Revenue?" });
    expect(first.messageId).toMatch(/^\d{25}-message$/);
    expect(first.messageId).not.toBe(second.messageId);
    expect(first.incomplete?.reason).toBe("fallback");
  });
});

describe("disconnect on the wire", () => {
  it("a redirect answering the DELETE is named, and not followed", () => {
    const w = world((r) =>
      r.method === "DELETE"
        ? { status: 307, headers: { Location: "https://collector.example.net/x" }, body: "" }
        : json(200, { items: [PLACED], pageInfo: { hasNextPage: false } }),
    );
    const error = callError(w, "disconnectPlacement", 7, 42, { placementId: "plc-42" });
    expect(error.message).toContain("redirect (307) to https://collector.example.net/x");
    expect(w.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    expect(w.requests.every((r) => r.followRedirects === false)).toBe(true);
  });

  it("the menu's disconnect whose answer is lost (504) is sent once, then judged from the reloaded list", () => {
    let deleted = false;
    const w = world((r) => {
      if (r.method === "DELETE") {
        deleted = true;
        return json(504, { message: "gateway timeout" });
      }
      const placements = deleted ? [] : PLACED.externalWorkbookPlacements;
      return json(200, {
        items: [{ ...PLACED, externalWorkbookPlacements: placements }],
        pageInfo: { hasNextPage: false },
      });
    });
    w.select("Summary", "C3");
    w.global.disconnectReportHere();
    expect(w.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
    expect(w.toasts.at(-1)?.message).toMatch(
      /The list was reloaded: Revenue by Region is no longer at Summary!B2:F8, so the disconnect was applied/,
    );
  });
});
