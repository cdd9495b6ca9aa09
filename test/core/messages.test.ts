import { describe, expect, it } from "vitest";
import {
  agentChatSettings,
  chatUrlBelongsToTenant,
  createSyncAgentChat,
  EMPTY_SETTINGS,
  managementAccess,
  mergeSettings,
  PlatformError,
} from "../../src/core/index.js";

const CHAT = "https://ai.acme.example/api/v1/public/acme/agents/7/chat/stream-chat-state";

function thrown(work: () => unknown): PlatformError {
  try {
    work();
  } catch (error) {
    if (error instanceof PlatformError) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe("a missing setting: one text, and the field it is about", () => {
  it("names the tenant URL and the API key when either is missing", () => {
    const noTenant = thrown(() => managementAccess({ ...EMPTY_SETTINGS, apiKey: "sk-1" }));
    expect(noTenant.message).toBe("No tenant URL is set. Open Settings and enter it.");
    expect(noTenant.field).toBe("tenantUrl");
    const noKey = thrown(() => managementAccess({ ...EMPTY_SETTINGS, tenantUrl: "https://acme.example" }));
    expect(noKey.message).toBe("No API key is set. Open Settings and paste one.");
    expect(noKey.field).toBe("apiKey");
  });

  it("names the chat URL and the agent key when either is missing", () => {
    const noUrl = thrown(() =>
      agentChatSettings({ ...EMPTY_SETTINGS, agentApiKey: "ak-1" }, chatUrlBelongsToTenant),
    );
    expect(noUrl.message).toBe("No agent chat URL is set. Open Settings and paste it.");
    expect(noUrl.field).toBe("chatUrl");
    const noKey = thrown(() =>
      agentChatSettings({ ...EMPTY_SETTINGS, chatUrl: CHAT }, chatUrlBelongsToTenant),
    );
    expect(noKey.message).toBe("No agent API key is set. Open Settings and paste one.");
    expect(noKey.field).toBe("agentApiKey");
  });

  it("says the same about a missing agent key whether the settings or the chat client finds it", () => {
    const chat = createSyncAgentChat({
      chatUrl: CHAT,
      apiKey: " ",
      transport: () => ({ status: 500, headers: {}, body: "" }),
      sleep: () => {},
      randomBytes: (n) => new Uint8Array(n),
    });
    const error = thrown(() => chat.ask({ input: "hi" }));
    expect(error.message).toBe("No agent API key is set. Open Settings and paste one.");
    expect(error.field).toBe("agentApiKey");
  });

  it("names the field a refused setting is about", () => {
    const insecure = thrown(() =>
      mergeSettings(EMPTY_SETTINGS, { tenantUrl: "http://acme.example" }, chatUrlBelongsToTenant),
    );
    expect(insecure.field).toBe("tenantUrl");
    const wrongPath = thrown(() =>
      mergeSettings(EMPTY_SETTINGS, { chatUrl: "https://ai.acme.example/chat" }, chatUrlBelongsToTenant),
    );
    expect(wrongPath.field).toBe("chatUrl");
    const outside = thrown(() =>
      mergeSettings(
        EMPTY_SETTINGS,
        { tenantUrl: "https://acme.example", chatUrl: "https://evil.example.net/a/chat/stream-chat-state" },
        chatUrlBelongsToTenant,
      ),
    );
    expect(outside.field).toBe("chatUrl");
  });

  it("keeps the field across the JSON form (the Sheets sidebar's boundary)", () => {
    const error = thrown(() => managementAccess(EMPTY_SETTINGS));
    const revived = PlatformError.fromJSON(JSON.parse(JSON.stringify(error.toJSON())));
    expect(revived.field).toBe("tenantUrl");
    expect(revived.message).toBe(error.message);
    expect(new PlatformError("server", "x").toJSON().field).toBeNull();
  });
});

describe("a refused key names its field", () => {
  it("a 401 points at the key that was refused", async () => {
    const { errorFromStatus } = await import("../../src/core/index.js");
    expect(errorFromStatus(401, null, {}, { credential: "api-key" }).field).toBe("apiKey");
    expect(errorFromStatus(401, null, {}, { credential: "scim-token" }).field).toBe("scimToken");
    expect(errorFromStatus(401, null, {}, { credential: "agent-key" }).field).toBe("agentApiKey");
    expect(errorFromStatus(500, null, {}, { credential: "api-key" }).field).toBeNull();
  });
});

describe("each thing said once, in the user's words", () => {
  it("a 401 with the service's reason gives that reason instead of the usual causes", async () => {
    const { errorFromStatus } = await import("../../src/core/index.js");
    const withReason = errorFromStatus(401, "Unknown or expired API key.", {}, { credential: "api-key" });
    expect(withReason.message).toBe(
      'The API key was refused (401). The service said: "Unknown or expired API key.". Paste a new one in Settings.',
    );
    expect(withReason.message.match(/expired/g)).toHaveLength(1);
    const bare = errorFromStatus(401, null, {}, { credential: "api-key" });
    expect(bare.message).toBe(
      "The API key was refused (401): it is missing, malformed or expired. Paste a new one in Settings.",
    );
  });

  it("a user attribute without a name is named by its number, not by the request's internal path", () => {
    const chat = createSyncAgentChat({
      chatUrl: CHAT,
      apiKey: "ak-1",
      transport: () => {
        throw new Error("nothing may be sent");
      },
      sleep: () => {},
      randomBytes: (n) => new Uint8Array(n),
    });
    const error = thrown(() =>
      chat.ask({
        input: "Revenue?",
        sessionSettings: {
          externalId: "ann",
          userAttributes: [
            { name: "region", value: "EU" },
            { name: "", value: 1 },
          ],
        },
      }),
    );
    expect(error.message).toBe(
      "The question could not be sent: user attribute 2 has no name. Give it one in the agent settings, or remove it.",
    );
    expect(error.message).not.toMatch(/sessionSettings|userAttributes|\.1\./);
  });
});
