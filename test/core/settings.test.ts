import { describe, expect, it } from "vitest";
import {
  agentChatSettings,
  chatUrlBelongsToTenant,
  EMPTY_SETTINGS,
  mergeSettings,
  readStoredSettings,
  toPublicSettings,
} from "../../src/core/index.js";

describe("settings", () => {
  it("keeps secrets write-only: the public view only says whether each is set", () => {
    const s = mergeSettings(EMPTY_SETTINGS, {
      tenantUrl: "https://acme.example.com/",
      apiKey: "sk-secret-1234",
    });
    const pub = toPublicSettings(s);
    expect(pub.apiKeySet).toBe(true);
    expect(pub.agentApiKeySet).toBe(false);
    expect(JSON.stringify(pub)).not.toContain("sk-secret-1234");
    expect(pub.tenantUrl).toBe("https://acme.example.com");
  });

  it("keeps a secret left out of a patch and clears one given as empty", () => {
    const s = mergeSettings(EMPTY_SETTINGS, { apiKey: "sk-1", scimToken: "scim-1" });
    const kept = mergeSettings(s, { email: "ann@example.com" });
    expect(kept.apiKey).toBe("sk-1");
    expect(mergeSettings(kept, { apiKey: "" }).apiKey).toBe("");
  });

  it("refuses an insecure tenant URL and stores nothing", () => {
    expect(() => mergeSettings(EMPTY_SETTINGS, { tenantUrl: "http://acme.example.com" })).toThrow(
      expect.objectContaining({ kind: "insecure-url" }),
    );
    expect(mergeSettings(EMPTY_SETTINGS, { tenantUrl: "http://127.0.0.1:4010" }).tenantUrl).toBe(
      "http://127.0.0.1:4010",
    );
  });

  it("takes an agent chat URL only within the tenant and ending in /chat/stream-chat-state", () => {
    const base = mergeSettings(EMPTY_SETTINGS, { tenantUrl: "https://acme.platform.example" });
    const ok = "https://ai.us-east.platform.example/api/v1/public/acme/agents/7/chat/stream-chat-state";
    expect(mergeSettings(base, { chatUrl: ok }).chatUrl).toBe(ok);
    expect(() =>
      mergeSettings(base, {
        chatUrl: "https://evil.example.net/api/v1/public/a/agents/7/chat/stream-chat-state",
      }),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    expect(() => mergeSettings(base, { chatUrl: "https://ai.platform.example/agents/7" })).toThrow(
      expect.objectContaining({ kind: "bad-request" }),
    );
    expect(() =>
      mergeSettings(base, {
        chatUrl: "http://ai.platform.example/api/v1/public/a/agents/7/chat/stream-chat-state",
      }),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
  });

  it("judges tenant membership by host", () => {
    expect(chatUrlBelongsToTenant("http://127.0.0.1:3", "http://127.0.0.1:3/x")).toBe(true);
    expect(chatUrlBelongsToTenant("https://a.b.example", "https://ai.b.example/x")).toBe(true);
    expect(chatUrlBelongsToTenant("https://a.b.example", "https://b.example.evil.net/x")).toBe(false);
    expect(chatUrlBelongsToTenant("https://b.example", "https://c.example/x")).toBe(false);
  });

  it("lowercases and trims the external id, as the chat API wants", () => {
    expect(mergeSettings(EMPTY_SETTINGS, { externalId: "  Ann@Example.com " }).externalId).toBe(
      "ann@example.com",
    );
  });

  it("reads a damaged store as empty rather than failing", () => {
    expect(readStoredSettings("{oops")).toEqual(EMPTY_SETTINGS);
    expect(readStoredSettings(JSON.stringify({ tenantUrl: 5 }))).toEqual(EMPTY_SETTINGS);
    expect(readStoredSettings(null)).toEqual(EMPTY_SETTINGS);
  });
});

describe("the agent chat's settings", () => {
  const chatUrl = "https://acme.example.com/api/v1/public/acme/agents/42/chat/stream-chat-state";

  it("gives the chat URL and the agent key when both are set", () => {
    const s = { ...EMPTY_SETTINGS, chatUrl, agentApiKey: "ak-1" };
    expect(agentChatSettings(s)).toEqual({ chatUrl, apiKey: "ak-1" });
  });

  it("says which one to fill in when one is missing", () => {
    expect(() => agentChatSettings({ ...EMPTY_SETTINGS, agentApiKey: "ak-1" })).toThrow(
      expect.objectContaining({
        kind: "bad-request",
        message: expect.stringMatching(/No agent chat URL is set/),
      }),
    );
    expect(() => agentChatSettings({ ...EMPTY_SETTINGS, chatUrl })).toThrow(
      expect.objectContaining({
        kind: "unauthorized",
        message: expect.stringMatching(/No agent API key is set/),
      }),
    );
  });
});
