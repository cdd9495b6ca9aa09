/**
 * Settings in PropertiesService, held to Apps Script's limits (9 KB per value, 500 KB per store;
 * the fake throws "Argument too large" as Apps Script does): a property per field, the attribute
 * list split across values and capped, sizes checked before anything is written, a refusal that
 * names the field and the limit, nothing saved before lost, and the old one-value format moved once.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  callError,
  callOk,
  DIST,
  type FetchedRequest,
  loadAppsScript,
  type World,
} from "../../../support/apps-script.js";
import { PROPERTY_VALUE_LIMIT_BYTES, utf8Bytes } from "../../../support/apps-script-limits.js";

const TENANT = "https://acme.reporting.example";
const CHAT_URL = "https://ai.reporting.example/api/v1/public/acme/agents/sales/chat/stream-chat-state";
const API_KEY = "sk-live-storage-4f9a1c";
const AGENT_KEY = "ak-live-storage-88d1e0";
const SCIM_TOKEN = "scim-live-storage-01b2";
/** Where the versions before this one kept everything, as one JSON value. */
const OLD_KEY = "reportingPlatform.settings";

function json(body: unknown) {
  return { status: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
}

function world(): World {
  return loadAppsScript({
    fetch: (request: FetchedRequest) =>
      request.url.endsWith("/api/v1/deployments") ? json([{ id: 7, name: "Production" }]) : json({}),
  });
}

function configured(): World {
  const w = world();
  callOk(w, "saveSettings", {
    tenantUrl: TENANT,
    deploymentId: 7,
    apiKey: API_KEY,
    chatUrl: CHAT_URL,
    agentApiKey: AGENT_KEY,
    scimToken: SCIM_TOKEN,
    externalId: "ann.lee",
    email: "ann.lee@example.com",
  });
  w.propertyAccess.length = 0;
  return w;
}

/** `count` attributes whose values are `size` characters long. */
function attributes(count: number, size: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: `attribute_${i}`,
    value: `${i}-${"x".repeat(size)}`,
  }));
}

function expectEveryValueWithinLimit(w: World): void {
  for (const [key, value] of w.properties.user) {
    expect(utf8Bytes(value), key).toBeLessThanOrEqual(PROPERTY_VALUE_LIMIT_BYTES);
  }
}

beforeAll(() => {
  expect(DIST).toBeTruthy();
});

describe("settings in the user's properties, within Apps Script's limits", () => {
  it("a long attribute list (about 30 KB) is saved and read back, split so that no value passes 9 KB", () => {
    const w = configured();
    const long = attributes(40, 700);
    const saved = callOk<{ userAttributes: unknown[] }>(w, "saveSettings", { userAttributes: long });
    expect(saved.userAttributes).toEqual(long);
    expect(callOk(w, "getSettings")).toMatchObject({ userAttributes: long, apiKeySet: true });
    expectEveryValueWithinLimit(w);
    // The agent is asked with them.
    w.fetch = (request) => {
      const body = JSON.parse(request.payload ?? "{}");
      expect(body.sessionSettings.userAttributes).toEqual(long);
      return { status: 200, body: `${JSON.stringify({ id: "__cutoff__", state: { chatId: "c-1" } })}\n` };
    };
    callOk(w, "askAgent", { input: "Q?" });
  });

  it("each field has a property of its own, and each secret is only in its own", () => {
    const w = configured();
    const keys = [...w.properties.user.keys()];
    for (const secret of [API_KEY, AGENT_KEY, SCIM_TOKEN]) {
      const holding = keys.filter((k) => w.properties.user.get(k)!.includes(secret));
      expect(holding, secret).toHaveLength(1);
    }
    expect(keys.length).toBeGreaterThanOrEqual(9);
    expect(w.properties.document.size + w.properties.script.size).toBe(0);
  });

  it("a key too long for a property is refused, naming the field and the limit; the saved key stays", () => {
    const w = configured();
    const pasted = `sk-${"A".repeat(12_000)}`;
    const error = callError(w, "saveSettings", {
      apiKey: pasted,
      seenTenantUrl: TENANT,
      email: "new@example.com",
    });
    expect(error.kind).toBe("bad-request");
    expect(error.message).toMatch(/API key/);
    expect(error.message).toMatch(/8,000 bytes/);
    expect(error.message).toMatch(/9 KB/);
    expect(error.message).not.toContain("AAAAAAAAAA");
    expect(error.message).not.toMatch(/script failed|Argument too large/);
    // Nothing was written: not the key, not the e-mail that came with it.
    expect(w.propertyAccess.filter((a) => a.op === "set")).toEqual([]);
    expect(callOk(w, "getSettings")).toMatchObject({ email: "ann.lee@example.com", apiKeySet: true });
    callOk(w, "listDeployments");
    expect(w.requests.at(-1)?.headers.Authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("an attribute list past its cap is refused, naming the attributes and the limit; nothing is written", () => {
    const w = configured();
    callOk(w, "saveSettings", { userAttributes: attributes(2, 10) });
    w.propertyAccess.length = 0;
    const error = callError(w, "saveSettings", { userAttributes: attributes(100, 1000) });
    expect(error.kind).toBe("bad-request");
    expect(error.message).toMatch(/user attributes/i);
    expect(error.message).toMatch(/60 KB/);
    expect(w.propertyAccess.filter((a) => a.op === "set")).toEqual([]);
    expect(callOk(w, "getSettings")).toMatchObject({ userAttributes: attributes(2, 10) });
  });

  it("a save that would fill the user's store past 500 KB is refused, naming the limit; the saved settings stay", () => {
    const w = configured();
    // Other data of this user in the store (470 KB), as many spreadsheets' counters would be.
    for (let i = 0; i < 59; i++) w.properties.user.set(`other.${i}`, "o".repeat(8000));
    const error = callError(w, "saveSettings", { userAttributes: attributes(30, 900) });
    expect(error.kind).toBe("bad-request");
    expect(error.message).toMatch(/500 KB/);
    expect(callOk(w, "getSettings")).toMatchObject({ userAttributes: [], apiKeySet: true });
  });

  it("a shorter list after a longer one leaves no stale part behind", () => {
    const w = configured();
    callOk(w, "saveSettings", { userAttributes: attributes(40, 700) });
    const partsBefore = [...w.properties.user.keys()].length;
    callOk(w, "saveSettings", { userAttributes: attributes(1, 5) });
    expect([...w.properties.user.keys()].length).toBeLessThan(partsBefore);
    expect(callOk(w, "getSettings")).toMatchObject({ userAttributes: attributes(1, 5) });
  });
});

describe("the one-value format of earlier versions", () => {
  const old = {
    tenantUrl: TENANT,
    deploymentId: 7,
    chatUrl: CHAT_URL,
    externalId: "ann.lee",
    email: "ann.lee@example.com",
    userAttributes: [{ name: "region", value: "EU" }],
    apiKey: API_KEY,
    agentApiKey: AGENT_KEY,
    scimToken: SCIM_TOKEN,
  };

  it("is read once and moved to a property per field; the old value is removed", () => {
    const w = world();
    w.properties.user.set(OLD_KEY, JSON.stringify(old));
    expect(callOk(w, "getSettings")).toMatchObject({
      tenantUrl: TENANT,
      deploymentId: 7,
      chatUrl: CHAT_URL,
      externalId: "ann.lee",
      email: "ann.lee@example.com",
      userAttributes: [{ name: "region", value: "EU" }],
      apiKeySet: true,
      agentApiKeySet: true,
      scimTokenSet: true,
    });
    expect(w.properties.user.has(OLD_KEY)).toBe(false);
    expect(w.properties.user.size).toBeGreaterThanOrEqual(9);
    // Moved once: reading again writes nothing, and the keys still work.
    w.propertyAccess.length = 0;
    callOk(w, "getSettings");
    expect(w.propertyAccess.filter((a) => a.op === "set" || a.op === "delete")).toEqual([]);
    callOk(w, "listDeployments");
    expect(w.requests.at(-1)?.headers.Authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("a save right after the move keeps every other field", () => {
    const w = world();
    w.properties.user.set(OLD_KEY, JSON.stringify(old));
    expect(callOk(w, "saveSettings", { email: "new@example.com" })).toMatchObject({
      email: "new@example.com",
      tenantUrl: TENANT,
      userAttributes: [{ name: "region", value: "EU" }],
      apiKeySet: true,
      agentApiKeySet: true,
    });
    expect(w.properties.user.has(OLD_KEY)).toBe(false);
  });
});
