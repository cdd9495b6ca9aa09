/**
 * The chat URL belongs to the tenant only on the tenant's registrable domain (Public Suffix List),
 * or when the user confirms it: the agent key must not go to a look-alike host.
 */
import { describe, expect, it } from "vitest";
import {
  agentChatSettings,
  chatUrlBelongsToTenant,
  EMPTY_SETTINGS,
  mergeSettings,
  registrableDomain,
  toPublicSettings,
} from "../../src/core/index.js";

const path = "/api/v1/public/acme/agents/7/chat/stream-chat-state";

describe("chatUrlBelongsToTenant", () => {
  it.each([
    ["https://acme.co.uk", "https://attacker.co.uk"],
    ["https://acme.github.io", "https://attacker.github.io"],
    ["https://10.0.0.5", "https://1.0.0.5"],
    ["https://10.0.0.5", "https://0.5"],
    ["https://[::1]", "https://[::2]"],
    ["https://acme.platform.example", "https://platform.example.evil.net"],
    ["https://acme.s3.amazonaws.com", "https://evil.s3.amazonaws.com"],
  ])("tenant %s does not own %s", (tenant, chat) => {
    expect(chatUrlBelongsToTenant(tenant, `${chat}${path}`)).toBe(false);
  });

  it.each([
    ["https://acme.co.uk", "https://ai.eu.acme.co.uk"],
    ["https://eu.acme.co.uk", "https://ai.us.acme.co.uk"],
    ["https://acme.platform.example", "https://ai.us-east.platform.example"],
    ["https://acme.github.io", "https://acme.github.io"],
    ["https://10.0.0.5:8443", "https://10.0.0.5"],
    ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
  ])("tenant %s owns %s", (tenant, chat) => {
    expect(chatUrlBelongsToTenant(tenant, `${chat}${path}`)).toBe(true);
  });

  it("reads registrable domains with the private part of the list", () => {
    expect(registrableDomain("ai.eu.acme.co.uk")).toBe("acme.co.uk");
    expect(registrableDomain("acme.github.io")).toBe("acme.github.io");
    expect(registrableDomain("10.0.0.5")).toBeNull();
    expect(registrableDomain("co.uk")).toBeNull();
  });
});

describe("saving a chat URL", () => {
  const chat = `https://attacker.co.uk${path}`;

  it("refuses a look-alike chat URL for the tenant's key", () => {
    const base = mergeSettings(EMPTY_SETTINGS, { tenantUrl: "https://acme.co.uk" }, chatUrlBelongsToTenant);
    expect(() => mergeSettings(base, { chatUrl: chat }, chatUrlBelongsToTenant)).toThrow(
      expect.objectContaining({
        kind: "insecure-url",
        message: expect.stringMatching(/not part of the tenant/),
      }),
    );
  });

  it("with no tenant set, accepts no chat URL without the user's explicit confirmation", () => {
    expect(() => mergeSettings(EMPTY_SETTINGS, { chatUrl: chat }, chatUrlBelongsToTenant)).toThrow(
      expect.objectContaining({
        kind: "insecure-url",
        message: expect.stringMatching(/No tenant URL is set/),
      }),
    );
    const confirmed = mergeSettings(
      EMPTY_SETTINGS,
      { chatUrl: chat, confirmChatUrl: true, agentApiKey: "ak-1" },
      chatUrlBelongsToTenant,
    );
    expect(toPublicSettings(confirmed).chatUrlConfirmed).toBe(true);
    expect(agentChatSettings(confirmed, chatUrlBelongsToTenant)).toEqual({ chatUrl: chat, apiKey: "ak-1" });
  });

  it("a confirmation covers that URL only: another chat URL needs its own", () => {
    const confirmed = mergeSettings(
      EMPTY_SETTINGS,
      { chatUrl: chat, confirmChatUrl: true },
      chatUrlBelongsToTenant,
    );
    expect(() =>
      mergeSettings(confirmed, { chatUrl: `https://other.example.net${path}` }, chatUrlBelongsToTenant),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
  });

  it("a stored chat URL that was never checked is not used", () => {
    const stored = {
      ...EMPTY_SETTINGS,
      tenantUrl: "https://acme.co.uk",
      chatUrl: chat,
      agentApiKey: "ak-1",
      agentApiKeyFor: "https://attacker.co.uk",
    };
    expect(() => agentChatSettings(stored, chatUrlBelongsToTenant)).toThrow(
      expect.objectContaining({ kind: "insecure-url" }),
    );
  });
});
