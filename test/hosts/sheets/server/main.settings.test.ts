import { beforeAll, describe, expect, it } from "vitest";
import { callError, callOk, loadAppsScript } from "../../../support/apps-script.js";
import {
  AGENT_KEY,
  API_KEY,
  CHAT_URL,
  configured,
  expectNoSecret,
  requireBuiltCodeJs,
  SCIM_TOKEN,
  SETTINGS,
  SHEETS,
  SPREADSHEET_ID,
  TENANT,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

describe("settings", () => {
  it("are stored in the user's properties only, and the sidebar never gets a secret back", () => {
    const world = loadAppsScript({ spreadsheetId: SPREADSHEET_ID, sheets: SHEETS });
    const saved = callOk(world, "saveSettings", {
      tenantUrl: `${TENANT}/`,
      deploymentId: 7,
      apiKey: API_KEY,
      chatUrl: CHAT_URL,
      agentApiKey: AGENT_KEY,
      scimToken: SCIM_TOKEN,
      externalId: "  Ann.Lee ",
    });
    expect(saved).toEqual({
      tenantUrl: TENANT,
      deploymentId: 7,
      chatUrl: CHAT_URL,
      externalId: "ann.lee",
      email: "",
      userAttributes: [],
      apiKeySet: true,
      agentApiKeySet: true,
      scimTokenSet: true,
      chatUrlConfirmed: false,
    });
    expect(callOk(world, "getSettings")).toEqual(saved);
    expectNoSecret(saved);
    expect(world.propertyAccess.every((a) => a.store === "user")).toBe(true);
    expect(world.properties.document.size).toBe(0);
    expect(world.properties.script.size).toBe(0);
    // The secrets are in the user's store (that is where they belong), each under its own key.
    expect(world.properties.user.get(`${SETTINGS}apiKey`)).toBe(JSON.stringify(API_KEY));
    expect(world.properties.user.get(`${SETTINGS}agentApiKey`)).toBe(JSON.stringify(AGENT_KEY));
  });

  it("a secret left out of a patch is kept; an empty one clears it", () => {
    const world = configured();
    expect(callOk(world, "saveSettings", { deploymentId: 8 })).toMatchObject({
      deploymentId: 8,
      apiKeySet: true,
    });
    expect(callOk(world, "saveSettings", { scimToken: "" })).toMatchObject({
      scimTokenSet: false,
      apiKeySet: true,
    });
  });

  it("refuses a tenant URL that is not HTTPS, and stores nothing", () => {
    const world = configured();
    const error = callError(world, "saveSettings", { tenantUrl: "http://acme.reporting.example" });
    expect(error.kind).toBe("insecure-url");
    expect(error.message).toMatch(/must use https:\/\//);
    expect(callOk(world, "getSettings")).toMatchObject({ tenantUrl: TENANT });
    expect(world.propertyAccess.filter((a) => a.op === "set")).toEqual([]);
  });

  it("refuses a chat URL outside the configured tenant", () => {
    const world = configured();
    const error = callError(world, "saveSettings", {
      chatUrl: "https://collector.evil.example/api/v1/public/x/agents/y/chat/stream-chat-state",
    });
    expect(error.kind).toBe("insecure-url");
    expect(error.message).toMatch(/not part of the tenant acme\.reporting\.example/);
    expect(callOk(world, "getSettings")).toMatchObject({ chatUrl: CHAT_URL });
  });

  it("a stored chat URL outside the tenant (saved before the check existed) is refused before anything is sent", () => {
    const world = configured();
    const outside = "https://collector.evil.example/api/v1/public/x/agents/y/chat/stream-chat-state";
    world.properties.user.set(`${SETTINGS}chatUrl`, JSON.stringify(outside));
    for (const call of [
      () => world.global.askAgent({ input: "Revenue?" }),
      () => world.global.abortChat("c-1"),
    ]) {
      const answer = call() as { ok: boolean; error?: { kind: string; message: string } };
      expect(answer.ok).toBe(false);
      expect(answer.error?.kind).toBe("insecure-url");
      expect(answer.error?.message).toMatch(
        /agent chat URL \(https:\/\/collector\.evil\.example\) is not on the tenant's domain and was not confirmed/,
      );
      expectNoSecret(answer);
    }
    expect(world.requests).toEqual([]);
  });

  it("ids from the sidebar cannot steer a request off the tenant", () => {
    const world = configured();
    const steer = [
      ["7/../../../x", 42],
      ["@evil.example", 42],
      [7, "42?next=https://evil.example/"],
      [7, "../../../../evil.example"],
    ] as const;
    for (const [deploymentId, reportId] of steer) {
      const answer = world.global.disconnectPlacement(deploymentId, reportId, {
        placementId: "plc-42-a",
      }) as {
        ok: boolean;
        error?: { kind: string };
      };
      expect(answer.ok, `${deploymentId} ${reportId}`).toBe(false);
      expect(answer.error?.kind).toBe("bad-request");
    }
    expect(world.requests).toEqual([]);
  });

  it("a stored tenant URL that is not HTTPS is refused before anything is sent", () => {
    const world = configured();
    world.properties.user.set(`${SETTINGS}tenantUrl`, JSON.stringify("http://acme.reporting.example"));
    expect(callError(world, "listDeployments")).toMatchObject({
      kind: "insecure-url",
      message: expect.stringMatching(/^The tenant URL must use https:\/\//),
    });
    world.global.disconnectReportHere();
    expect(world.toasts[0]?.message).toMatch(/^The tenant URL must use https:\/\//);
    expect(world.requests).toEqual([]);
  });

  it("a sidebar call before any settings says what to do", () => {
    const world = loadAppsScript({ spreadsheetId: SPREADSHEET_ID, sheets: SHEETS });
    expect(callError(world, "refreshPane")).toMatchObject({
      kind: "bad-request",
      message: expect.stringMatching(/No tenant URL/),
    });
    expect(world.requests).toEqual([]);
  });
});
