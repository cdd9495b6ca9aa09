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

  it("a key typed in a stale form is refused, not bound to the tenant another pane stored since", async () => {
    // Two panes share one store: pane 2 moves the tenant to B, pane 1 still shows A.
    const store = createMemorySecretStore();
    const { transport, sent } = recording();
    const pane1 = createDirectGateway({ store, transport });
    const pane2 = createDirectGateway({ store, transport });
    await pane1.saveSettings({ tenantUrl: TENANT, apiKey: "sk-acme-1" });
    const other = "https://other.platform.example";
    await pane2.saveSettings({ tenantUrl: other, apiKey: "sk-other-1" });
    // The user pastes A's new key in pane 1, whose form shows A.
    await expect(pane1.saveSettings({ apiKey: "sk-acme-2", seenTenantUrl: TENANT })).rejects.toMatchObject({
      kind: "bad-request",
      field: "tenantUrl",
      message: expect.stringContaining(other),
    });
    // Nothing changed: B keeps its own key, and A's key never goes to B.
    await pane1.listDeployments();
    expect(sent.map((r) => r.headers.Authorization)).toEqual(["Bearer sk-other-1"]);
    // The same for the agent key and the chat URL the form showed.
    await pane1.saveSettings({ chatUrl: CHAT.replace("/agents/7/", "/agents/8/"), agentApiKey: "ak-1" });
    await expect(
      pane2.saveSettings({ agentApiKey: "ak-2", seenChatUrl: CHAT, seenTenantUrl: other }),
    ).rejects.toMatchObject({ kind: "bad-request", field: "chatUrl" });
    // A key that comes without the address it was typed for is refused too.
    await expect(pane1.saveSettings({ apiKey: "sk-acme-3" })).rejects.toMatchObject({ kind: "bad-request" });
    // With the address still stored, it is saved.
    await pane1.saveSettings({ apiKey: "sk-other-2", seenTenantUrl: other });
    expect((await pane2.getSettings()).apiKeySet).toBe(true);
  });
});
