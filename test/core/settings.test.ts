import { describe, expect, it } from "vitest";
import {
  agentChatSettings,
  chatUrlBelongsToTenant,
  directoryAccess,
  EMPTY_SETTINGS,
  managementAccess,
  mergeSettings,
  pickedDeployment,
  readStoredSettings,
  secretsClearedNotice,
  toPublicSettings,
} from "../../src/core/index.js";

describe("settings", () => {
  it("keeps secrets write-only: the public view only says whether each is set", () => {
    const s = mergeSettings(
      EMPTY_SETTINGS,
      {
        tenantUrl: "https://acme.example.com/",
        apiKey: "sk-secret-1234",
      },
      chatUrlBelongsToTenant,
    );
    const pub = toPublicSettings(s);
    expect(pub.apiKeySet).toBe(true);
    expect(pub.agentApiKeySet).toBe(false);
    expect(JSON.stringify(pub)).not.toContain("sk-secret-1234");
    expect(pub.tenantUrl).toBe("https://acme.example.com");
  });

  it("keeps a secret left out of a patch and clears one given as empty", () => {
    const s = mergeSettings(EMPTY_SETTINGS, { apiKey: "sk-1", scimToken: "scim-1" }, chatUrlBelongsToTenant);
    const kept = mergeSettings(s, { email: "ann@example.com" }, chatUrlBelongsToTenant);
    expect(kept.apiKey).toBe("sk-1");
    expect(mergeSettings(kept, { apiKey: "" }, chatUrlBelongsToTenant).apiKey).toBe("");
  });

  it("refuses an insecure tenant URL and stores nothing", () => {
    expect(() =>
      mergeSettings(EMPTY_SETTINGS, { tenantUrl: "http://acme.example.com" }, chatUrlBelongsToTenant),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    expect(
      mergeSettings(EMPTY_SETTINGS, { tenantUrl: "http://127.0.0.1:4010" }, chatUrlBelongsToTenant).tenantUrl,
    ).toBe("http://127.0.0.1:4010");
  });

  it("takes an agent chat URL only within the tenant and ending in /chat/stream-chat-state", () => {
    const base = mergeSettings(
      EMPTY_SETTINGS,
      { tenantUrl: "https://acme.platform.example" },
      chatUrlBelongsToTenant,
    );
    const ok = "https://ai.us-east.platform.example/api/v1/public/acme/agents/7/chat/stream-chat-state";
    expect(mergeSettings(base, { chatUrl: ok }, chatUrlBelongsToTenant).chatUrl).toBe(ok);
    expect(() =>
      mergeSettings(
        base,
        {
          chatUrl: "https://evil.example.net/api/v1/public/a/agents/7/chat/stream-chat-state",
        },
        chatUrlBelongsToTenant,
      ),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
    expect(() =>
      mergeSettings(base, { chatUrl: "https://ai.platform.example/agents/7" }, chatUrlBelongsToTenant),
    ).toThrow(expect.objectContaining({ kind: "bad-request" }));
    expect(() =>
      mergeSettings(
        base,
        {
          chatUrl: "http://ai.platform.example/api/v1/public/a/agents/7/chat/stream-chat-state",
        },
        chatUrlBelongsToTenant,
      ),
    ).toThrow(expect.objectContaining({ kind: "insecure-url" }));
  });

  it("judges tenant membership by host", () => {
    expect(chatUrlBelongsToTenant("http://127.0.0.1:3", "http://127.0.0.1:3/x")).toBe(true);
    expect(chatUrlBelongsToTenant("https://a.b.example", "https://ai.b.example/x")).toBe(true);
    expect(chatUrlBelongsToTenant("https://a.b.example", "https://b.example.evil.net/x")).toBe(false);
    expect(chatUrlBelongsToTenant("https://b.example", "https://c.example/x")).toBe(false);
  });

  it("lowercases and trims the external id, as the chat API wants", () => {
    expect(
      mergeSettings(EMPTY_SETTINGS, { externalId: "  Ann@Example.com " }, chatUrlBelongsToTenant).externalId,
    ).toBe("ann@example.com");
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
    const s = {
      ...EMPTY_SETTINGS,
      tenantUrl: "https://acme.example.com",
      chatUrl,
      agentApiKey: "ak-1",
      agentApiKeyFor: "https://acme.example.com",
    };
    expect(agentChatSettings(s, chatUrlBelongsToTenant)).toEqual({ chatUrl, apiKey: "ak-1" });
  });

  it("says which one to fill in when one is missing", () => {
    expect(() =>
      agentChatSettings({ ...EMPTY_SETTINGS, agentApiKey: "ak-1" }, chatUrlBelongsToTenant),
    ).toThrow(
      expect.objectContaining({
        kind: "bad-request",
        message: expect.stringMatching(/No agent chat URL is set/),
      }),
    );
    expect(() => agentChatSettings({ ...EMPTY_SETTINGS, chatUrl }, chatUrlBelongsToTenant)).toThrow(
      expect.objectContaining({
        kind: "unauthorized",
        message: expect.stringMatching(/No agent API key is set/),
      }),
    );
  });
});

describe("secrets bound to the origin they were saved for", () => {
  const TENANT = "https://acme.platform.example";
  const CHAT = "https://ai.eu.platform.example/api/v1/public/acme/agents/7/chat/stream-chat-state";
  const saved = () =>
    mergeSettings(
      EMPTY_SETTINGS,
      {
        tenantUrl: TENANT,
        apiKey: "sk-acme-1",
        scimToken: "scim-acme-1",
        chatUrl: CHAT,
        agentApiKey: "ak-acme-1",
      },
      chatUrlBelongsToTenant,
    );

  it("a tenant moved to another origin clears the API key and the SCIM token, and the pane is told to paste new ones", () => {
    const before = saved();
    const after = mergeSettings(
      before,
      { tenantUrl: "https://acme-platform.example.net", chatUrl: "" },
      chatUrlBelongsToTenant,
    );
    expect(after.apiKey).toBe("");
    expect(after.scimToken).toBe("");
    expect(JSON.stringify(after)).not.toMatch(/sk-acme-1|scim-acme-1/);
    const notice = secretsClearedNotice(toPublicSettings(before), toPublicSettings(after));
    expect(notice).toMatch(
      /^The tenant changed: paste the API key and the SCIM token for https:\/\/acme-platform\.example\.net\./,
    );
  });

  it("no call carries a key to a tenant it was not saved for", () => {
    const moved = mergeSettings(
      saved(),
      { tenantUrl: "https://phish.example.org", chatUrl: "" },
      chatUrlBelongsToTenant,
    );
    expect(() => managementAccess(moved)).toThrow(expect.objectContaining({ kind: "unauthorized" }));
    // A store edited by hand (or by an older version) that pairs the key with another tenant.
    const tampered = { ...saved(), tenantUrl: "https://phish.example.org" };
    expect(() => managementAccess(tampered)).toThrow(
      expect.objectContaining({
        kind: "unauthorized",
        message: expect.stringMatching(
          /The tenant changed: paste the API key for https:\/\/phish\.example\.org/,
        ),
      }),
    );
    expect(toPublicSettings(tampered).apiKeySet).toBe(false);
    expect(managementAccess(saved())).toEqual({
      baseUrl: TENANT,
      token: "sk-acme-1",
      scimToken: "scim-acme-1",
    });
  });

  it("a new tenant with a new key in the same save keeps the new key, bound to the new tenant", () => {
    const next = mergeSettings(
      saved(),
      { tenantUrl: "https://other.example.com", apiKey: "sk-other-2", chatUrl: "" },
      chatUrlBelongsToTenant,
    );
    expect(managementAccess(next)).toEqual({ baseUrl: "https://other.example.com", token: "sk-other-2" });
    expect(next.scimToken).toBe("");
  });

  it("the same origin with another path or a trailing slash keeps the keys", () => {
    const next = mergeSettings(saved(), { tenantUrl: `${TENANT}/proxy/` }, chatUrlBelongsToTenant);
    expect(next.apiKey).toBe("sk-acme-1");
    expect(next.scimToken).toBe("sk-acme-1".replace("sk", "scim"));
  });

  it("a chat URL moved to another origin clears the agent key, not the management key", () => {
    const before = saved();
    const after = mergeSettings(
      before,
      { chatUrl: "https://ai.us.platform.example/api/v1/public/acme/agents/7/chat/stream-chat-state" },
      chatUrlBelongsToTenant,
    );
    expect(after.agentApiKey).toBe("");
    expect(after.apiKey).toBe("sk-acme-1");
    expect(secretsClearedNotice(toPublicSettings(before), toPublicSettings(after))).toMatch(
      /The agent chat URL changed: paste the agent API key for https:\/\/ai\.us\.platform\.example\./,
    );
    expect(() => agentChatSettings(after, chatUrlBelongsToTenant)).toThrow(
      expect.objectContaining({ kind: "unauthorized" }),
    );
  });

  it("a key saved before any tenant is bound to the first tenant set", () => {
    const keyFirst = mergeSettings(EMPTY_SETTINGS, { apiKey: "sk-first" }, chatUrlBelongsToTenant);
    const next = mergeSettings(keyFirst, { tenantUrl: TENANT }, chatUrlBelongsToTenant);
    expect(managementAccess(next).token).toBe("sk-first");
  });

  it("settings stored before secrets were bound keep working for the URLs stored with them", () => {
    const legacy = JSON.stringify({
      tenantUrl: TENANT,
      apiKey: "sk-old",
      chatUrl: CHAT,
      agentApiKey: "ak-old",
    });
    const read = readStoredSettings(legacy);
    expect(managementAccess(read).token).toBe("sk-old");
    expect(agentChatSettings(read, chatUrlBelongsToTenant).apiKey).toBe("ak-old");
    expect(
      mergeSettings(read, { tenantUrl: "https://elsewhere.example", chatUrl: "" }, chatUrlBelongsToTenant)
        .apiKey,
    ).toBe("");
  });
});

describe("settings arguments of the wrong type (a sidebar can send anything)", () => {
  it.each([
    [{ tenantUrl: 5 }, /The tenant URL must be text/],
    [{ apiKey: { toString: "x" } }, /The API key must be text/],
    [{ chatUrl: ["https://x"] }, /The agent chat URL must be text/],
    [{ deploymentId: "7" }, /The deployment must be a number or nothing/],
    [{ userAttributes: "region=EU" }, /Each user attribute needs a name and a value/],
    [{ confirmChatUrl: "yes" }, /The chat URL confirmation must be yes or no/],
    [null, /The settings could not be read/],
    [[1, 2], /The settings could not be read/],
  ])("%j is a clear bad-request, not a script error", (patch, message) => {
    const call = () => mergeSettings(EMPTY_SETTINGS, patch as never, chatUrlBelongsToTenant);
    expect(call).toThrow(
      expect.objectContaining({ kind: "bad-request", message: expect.stringMatching(message) }),
    );
    expect(call).not.toThrow(TypeError);
  });

  it("never echoes the value it refused (it may be a secret)", () => {
    try {
      mergeSettings(EMPTY_SETTINGS, { apiKey: ["sk-do-not-echo-123"] } as never, chatUrlBelongsToTenant);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain("sk-do-not-echo-123");
      return;
    }
    throw new Error("expected a refusal");
  });
});

describe("preconditions every host checks the same way", () => {
  const TENANT = "https://acme.example.com";
  const connected = { ...EMPTY_SETTINGS, tenantUrl: TENANT, apiKey: "sk-1", apiKeyFor: TENANT };

  it("the picked deployment, or the error that says to pick one", () => {
    expect(pickedDeployment({ ...connected, deploymentId: 0 })).toBe(0);
    expect(() => pickedDeployment(connected)).toThrow(
      expect.objectContaining({
        kind: "bad-request",
        field: "deploymentId",
        message: "No deployment is picked. Open Settings and choose one.",
      }),
    );
  });

  it("the directory's access needs a SCIM token saved for this tenant", () => {
    expect(directoryAccess({ ...connected, scimToken: "scim-1", scimTokenFor: TENANT })).toEqual({
      baseUrl: TENANT,
      token: "sk-1",
      scimToken: "scim-1",
    });
    for (const settings of [
      connected,
      { ...connected, scimToken: "scim-1", scimTokenFor: "https://other.example" },
    ]) {
      expect(() => directoryAccess(settings)).toThrow(
        expect.objectContaining({
          kind: "unauthorized",
          field: "scimToken",
          message: "No SCIM token is set for this tenant. Open Settings and paste one.",
        }),
      );
    }
    // The management API's own preconditions come first.
    expect(() => directoryAccess(EMPTY_SETTINGS)).toThrow(expect.objectContaining({ field: "tenantUrl" }));
  });
});
