/**
 * The PlatformGateway for hosts whose pane calls the service itself (Excel and the preview): the
 * core client and agent chat over `fetch`, with settings kept in a per-user SecretStore.
 */
import type { RandomBytes } from "../core/chat-request.js";
import { createPlatformClient, type PlatformClient } from "../core/client.js";
import { toDirectoryUserPage } from "../core/directory.js";
import type { Report } from "../core/schema.js";
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
import { fetchTransport, type Transport } from "../core/transport.js";
import type { PlatformGateway, ScimUserPage, SecretStore } from "./host.js";

/** The one key under which settings are stored, as JSON. */
export const SETTINGS_KEY = "settings";

export interface DirectGateway extends PlatformGateway {
  /** The reports placed in `workbookId`, across every page; unreadable ones reported in `problems`. */
  listWorkbookReports(workbookId: string): Promise<{ reports: Report[]; problems: string[] }>;
}

export interface DirectGatewayOptions {
  store: SecretStore;
  transport?: Transport;
  /** Settings used until the user saves their own (the preview fills in the sandbox). */
  defaults?: SettingsPatch;
  /** A cryptographic random source for message ids; the Web Crypto API's by default. */
  randomBytes?: RandomBytes;
}

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

export function createDirectGateway(options: DirectGatewayOptions): DirectGateway {
  const { store } = options;
  // The host owns the I/O: without a transport given, the page's own fetch (looked up per call).
  const transport = options.transport ?? fetchTransport((input, init) => fetch(input, init));

  async function load(): Promise<StoredSettings> {
    const text = await store.get(SETTINGS_KEY);
    if (text == null && options.defaults) {
      return mergeSettings(readStoredSettings(null), options.defaults, await loadChatUrlCheck());
    }
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

/** A store in `localStorage` under a prefix (the preview; Excel's fallback with its partition key). */
export function createLocalStorageSecretStore(
  prefix: string,
  storage: Storage = globalThis.localStorage,
): SecretStore {
  return {
    async get(key) {
      return storage.getItem(prefix + key);
    },
    async set(key, value) {
      storage.setItem(prefix + key, value);
    },
    async remove(key) {
      storage.removeItem(prefix + key);
    },
  };
}

/** A store in memory: nothing survives a reload (tests). */
export function createMemorySecretStore(initial: Record<string, string> = {}): SecretStore & {
  readonly data: Map<string, string>;
} {
  const data = new Map(Object.entries(initial));
  return {
    data,
    async get(key) {
      return data.get(key) ?? null;
    },
    async set(key, value) {
      data.set(key, value);
    },
    async remove(key) {
      data.delete(key);
    },
  };
}
