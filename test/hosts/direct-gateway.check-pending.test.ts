/**
 * The gateway with defaults (the preview's sandbox) while the chat URL check (the Public Suffix
 * List, a chunk of its own) has not loaded: listing reports, the pane's first request, goes out at
 * once; the chat and saving Settings wait for the check, and a chat URL it refuses gets no key.
 */
import { describe, expect, it, vi } from "vitest";
import type { HttpRequest, Transport } from "../../src/core/transport.js";
import { createDirectGateway, createMemorySecretStore } from "../../src/hosts/direct-gateway.js";

// The check's module is held until the test lets it load, and then refuses every chat URL.
const check = vi.hoisted(() => {
  let release!: () => void;
  const loaded = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { loaded, release };
});
vi.mock("../../src/core/domains.js", async () => {
  await check.loaded;
  return { chatUrlBelongsToTenant: () => false };
});

const TENANT = "https://acme.platform.example";
const CHAT = "https://ai.eu.platform.example/api/v1/public/acme/agents/7/chat/stream-chat-state";

function recording(): { transport: Transport; sent: HttpRequest[] } {
  const sent: HttpRequest[] = [];
  const transport: Transport = async (request) => {
    sent.push(request);
    return {
      status: 200,
      headers: {},
      body: JSON.stringify({ items: [], pageInfo: { hasNextPage: false } }),
    };
  };
  return { transport, sent };
}

describe("the direct gateway's defaults while the chat URL check is loading", () => {
  it("lists reports and shows settings without waiting for the check; the chat and Settings wait for it and its refusal", async () => {
    const { transport, sent } = recording();
    const gateway = createDirectGateway({
      store: createMemorySecretStore(),
      transport,
      defaults: {
        tenantUrl: TENANT,
        apiKey: "sk-acme-1",
        deploymentId: 3,
        chatUrl: CHAT,
        agentApiKey: "ak-acme-1",
        externalId: "Ann@Example.com",
      },
    });
    const asked = gateway.ask({ input: "q", sessionSettings: { externalId: "ann@example.com" } });
    const saved = gateway.saveSettings({ email: "ann@example.com" });
    let askSettled = false;
    let saveSettled = false;
    asked.then(
      () => (askSettled = true),
      () => (askSettled = true),
    );
    saved.then(
      () => (saveSettled = true),
      () => (saveSettled = true),
    );

    // The check never loads while these run: they must not wait for it.
    const { reports } = await gateway.listWorkbookReports("wb-1");
    expect(reports).toEqual([]);
    expect(sent.map((r) => [r.method, new URL(r.url).origin + new URL(r.url).pathname])).toEqual([
      ["GET", `${TENANT}/api/v1/deployments/3/reports`],
    ]);
    expect(new URL(sent[0]!.url).searchParams.get("externalWorkbookId")).toBe("wb-1");
    expect(sent[0]!.headers.Authorization).toBe("Bearer sk-acme-1");
    expect(await gateway.getSettings()).toMatchObject({
      tenantUrl: TENANT,
      deploymentId: 3,
      chatUrl: CHAT,
      externalId: "ann@example.com",
      apiKeySet: true,
      agentApiKeySet: true,
    });
    expect([askSettled, saveSettled]).toEqual([false, false]);

    // The check loads and refuses the chat URL: no question is sent, nothing is saved.
    check.release();
    await expect(asked).rejects.toMatchObject({ kind: "insecure-url" });
    await expect(saved).rejects.toMatchObject({ kind: "insecure-url" });
    expect(sent.filter((r) => r.url.startsWith(CHAT.slice(0, 30)))).toEqual([]);
    expect(sent).toHaveLength(1);
  });
});
