/**
 * The direct gateway's implementation (see direct-gateway.ts): the core client (and with it zod's
 * schemas) and the settings rules. A chunk of its own, loaded when the gateway is created, so the
 * pane's first script does without it.
 */
import type { RandomBytes } from "../core/chat-request.js";
import { createPlatformClient, type PlatformClient } from "../core/client.js";
import { toDirectoryUserPage } from "../core/directory.js";
import {
  agentChatSettings,
  type ChatUrlCheck,
  directoryAccess,
  managementAccess,
  mergeSettings,
  pickedDeployment,
  readStoredSettings,
  type SettingsPatch,
  type StoredSettings,
  toPublicSettings,
} from "../core/settings.js";
import { fetchTransport } from "../core/transport.js";
import { type DirectGateway, type DirectGatewayOptions, SETTINGS_KEY } from "./direct-gateway.js";
import type { ScimUserPage } from "./host.js";

/**
 * The chat URL check, with the Public Suffix List it needs: loaded when a chat URL is first checked,
 * so the pane's first screen does without it (about 48 KB gzipped).
 */
let chatUrlCheck: Promise<ChatUrlCheck> | null = null;
function loadChatUrlCheck(): Promise<ChatUrlCheck> {
  chatUrlCheck ??= import("../core/domains.js").then((m) => m.chatUrlBelongsToTenant);
  return chatUrlCheck;
}

const webCryptoRandomBytes: RandomBytes = (length) =>
  globalThis.crypto.getRandomValues(new Uint8Array(length));

export function createDirectGatewayNow(options: DirectGatewayOptions): DirectGateway {
  const { store } = options;
  // The host owns the I/O: without a transport given, the page's own fetch (looked up per call).
  const transport = options.transport ?? fetchTransport((input, init) => fetch(input, init));

  // The defaults (the preview's sandbox) are merged once; their chat URL check starts loading at
  // once, beside the first settings read, rather than after it.
  const { defaults } = options;
  let fromDefaults: Promise<StoredSettings> | null = null;
  const defaultSettings = (patch: SettingsPatch): Promise<StoredSettings> => {
    fromDefaults ??= loadChatUrlCheck().then((check) =>
      mergeSettings(readStoredSettings(null), patch, check),
    );
    fromDefaults.catch(() => {
      fromDefaults = null;
    });
    return fromDefaults;
  };
  if (defaults) void defaultSettings(defaults).catch(() => undefined);

  async function load(): Promise<StoredSettings> {
    const text = await store.get(SETTINGS_KEY);
    if (text == null && defaults) return { ...(await defaultSettings(defaults)) };
    return readStoredSettings(text);
  }

  async function client(): Promise<{ client: PlatformClient; settings: StoredSettings }> {
    const settings = await load();
    return {
      settings,
      // Each key only for the tenant it was saved for (managementAccess).
      client: createPlatformClient({ ...managementAccess(settings), transport }),
    };
  }

  async function agent() {
    const settings = await load();
    // The chat client (NDJSON, answers, limits) loads with the first question, like the chat's UI.
    const { createAgentChat } = await import("../core/chat-client.js");
    return createAgentChat({
      ...agentChatSettings(settings, await loadChatUrlCheck()),
      randomBytes: options.randomBytes ?? webCryptoRandomBytes,
      transport,
    });
  }

  return {
    async getSettings() {
      return toPublicSettings(await load());
    },
    async saveSettings(patch) {
      const next = mergeSettings(await load(), patch, await loadChatUrlCheck());
      await store.set(SETTINGS_KEY, JSON.stringify(next));
      return toPublicSettings(next);
    },
    async listDeployments() {
      return (await client()).client.listDeployments();
    },
    async listWorkbookReports(workbookId) {
      const { client: c, settings } = await client();
      const problems: string[] = [];
      const reports = await c.listReports(pickedDeployment(settings), {
        externalWorkbookId: workbookId,
        onProblem: (p) => problems.push(p),
      });
      return { reports, problems };
    },
    async disconnect(deploymentId, reportId, input) {
      return (await client()).client.disconnectReportFromWorkbook(deploymentId, reportId, input);
    },
    async listScimUsers({ count, startIndex }): Promise<ScimUserPage> {
      const { client: c, settings } = await client();
      directoryAccess(settings);
      const page = await c.listScimUsers({ count, startIndex });
      return toDirectoryUserPage(page, startIndex);
    },
    async ask(request, opts = {}) {
      const chat = await agent();
      return chat.ask(
        { input: request.input, chatId: request.chatId, sessionSettings: request.sessionSettings },
        { signal: opts.signal, onMessage: opts.onMessage },
      );
    },
    async abortChat(chatId) {
      const settings = await load();
      const chat = await agent();
      await chat.abort(chatId, { externalId: settings.externalId || undefined });
    },
  };
}
