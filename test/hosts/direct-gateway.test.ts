/**
 * The gateway Excel and the preview use: a saved key goes only to the origin it was saved for,
 * a chat URL off the tenant's domain needs the user's confirmation, and the message id is random.
 */
import { describe, expect, it } from "vitest";
import type { HttpRequest, Transport } from "../../src/core/transport.js";
import { createDirectGateway, createMemorySecretStore } from "../../src/hosts/direct-gateway.js";

const TENANT = "https://acme.platform.example";
const CHAT = "https://ai.eu.platform.example/api/v1/public/acme/agents/7/chat/stream-chat-state";

function recording(): { transport: Transport; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const transport: Transport = async (request) => {
    sent.push(request);
    if (request.url.endsWith("/chat/stream-chat-state")) {
      return {
        status: 200,
        headers: {},
        body: `${JSON.stringify({ id: "m", role: "assistant", content: "ok", graphPath: ["final"] })}\n${JSON.stringify({ id: "__usage__" })}\n`,
      };
    }
    return { status: 200, headers: {}, body: "[]" };
  };
  return { transport, sent };
}

async function saved() {
  const { transport, sent } = recording();
  const gateway = createDirectGateway({ store: createMemorySecretStore(), transport });
  await gateway.saveSettings({
    tenantUrl: TENANT,
    apiKey: "sk-acme-1",
    scimToken: "scim-acme-1",
    chatUrl: CHAT,
    agentApiKey: "ak-acme-1",
  });
  return { gateway, sent };
}

describe("the direct gateway (Excel, preview)", () => {
  it("after the tenant moves to another origin, no request carries the old key there", async () => {
    const { gateway, sent } = await saved();
    const after = await gateway.saveSettings({ tenantUrl: "https://acme-platform.example.net", chatUrl: "" });
    expect(after).toMatchObject({ apiKeySet: false, scimTokenSet: false });
    await expect(gateway.listDeployments()).rejects.toMatchObject({ kind: "unauthorized" });
    expect(sent).toEqual([]);
  });

  it("a look-alike chat URL is refused unless confirmed; once confirmed with its own key, the key goes there", async () => {
    const { gateway, sent } = await saved();
    const lookAlike = "https://platform-example.co/api/v1/public/acme/agents/7/chat/stream-chat-state";
    await expect(gateway.saveSettings({ chatUrl: lookAlike })).rejects.toMatchObject({
      kind: "insecure-url",
    });
    await gateway.saveSettings({ chatUrl: lookAlike, confirmChatUrl: true, agentApiKey: "ak-other-2" });
    await gateway.ask({ input: "q", sessionSettings: { externalId: "ann" } });
    expect(sent.map((r) => [r.url, r.headers.Authorization])).toEqual([[lookAlike, "Api-Key ak-other-2"]]);
  });

  it("sends a random message id within the documented pattern", async () => {
    const { gateway, sent } = await saved();
    await gateway.ask({ input: "q1", sessionSettings: { externalId: "ann" } });
    await gateway.ask({ input: "q2", sessionSettings: { externalId: "ann" } });
    const ids = sent.map((r) => JSON.parse(r.body ?? "{}").messageId as string);
    for (const id of ids) expect(id).toMatch(/^\d{25}-message$/);
    expect(new Set(ids).size).toBe(2);
  });
});
