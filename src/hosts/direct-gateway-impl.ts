/**
 * The direct gateway's implementation (see direct-gateway.ts): the core client (and with it zod's
 * schemas) and the settings rules. A chunk of its own, loaded when the gateway is created, so the
 * pane's first script does without it.
 */
import type { RandomBytes } from "../core/chat-request.js";
import { createPlatformClient, type PlatformClient } from "../core/client.js";
import type { DataClient } from "../core/data-client.js";
import { toDirectoryUserPage } from "../core/directory.js";
import { once } from "../core/once.js";
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
 * so the pane's first screen does without it (about 48 KB gzipped). `chatUrlCheckNow` is the check
 * once it has loaded.
 */
let chatUrlCheckNow: ChatUrlCheck | null = null;
// A chunk that failed to load is asked for again by the next check.
const loadChatUrlCheck = once(() =>
  import("../core/domains.js").then((m) => {
    chatUrlCheckNow = m.chatUrlBelongsToTenant;
    return m.chatUrlBelongsToTenant;
  }),
);

/** The fields of a settings patch that concern the agent chat: merged with the chat URL check. */
const CHAT_FIELDS = ["chatUrl", "agentApiKey", "confirmChatUrl"] as const;

/** A patch split into what the management API needs and what only the agent chat needs. */
function splitPatch(patch: SettingsPatch): { management: SettingsPatch; chat: SettingsPatch } {
  const management: SettingsPatch = { ...patch };
  const chat: SettingsPatch = {};
  for (const field of CHAT_FIELDS) {
    if (!(field in patch)) continue;
    (chat as Record<string, unknown>)[field] = patch[field];
    delete management[field];
  }
  return { management, chat };
}

/** A patch without a chat URL never asks the check: this one says so if it ever is asked. */
const noChatUrlHere: ChatUrlCheck = () => {
  throw new Error("A settings patch without a chat URL asked for the chat URL check.");
};

const webCryptoRandomBytes: RandomBytes = (length) =>
  globalThis.crypto.getRandomValues(new Uint8Array(length));

export function createDirectGatewayNow(options: DirectGatewayOptions): DirectGateway {
  const { store } = options;
  // The host owns the I/O: without a transport given, the page's own fetch (looked up per call).
  const transport = options.transport ?? fetchTransport((input, init) => fetch(input, init));

  // The defaults (the preview's sandbox), used while nothing is stored, in two parts: the
  // management part (tenant, key, deployment, identity) is merged at once, so that listing reports
  // never waits for the chat URL check; the chat part (chat URL, agent key) is merged over it with
  // the check, loaded when first needed: by the chat and by saving Settings, not by the first list.
  const { defaults } = options;
  const parts = defaults ? splitPatch(defaults) : null;
  let managementDefaults: StoredSettings | null = null;
  const managementPart = (): StoredSettings => {
    managementDefaults ??= mergeSettings(readStoredSettings(null), parts!.management, noChatUrlHere);
    return managementDefaults;
  };
  const defaultSettings = once(() =>
    loadChatUrlCheck().then((check) => mergeSettings(managementPart(), parts!.chat, check)),
  );

  /** Everything stored (or the defaults, chat part checked): for the chat and for saving. */
  async function load(): Promise<StoredSettings> {
    const text = await store.get(SETTINGS_KEY);
    if (text == null && parts) return { ...(await defaultSettings()) };
    return readStoredSettings(text);
  }

  /** As `load`, for calls to the management API: the defaults' management part, unchecked chat part left out. */
  async function loadForManagement(): Promise<StoredSettings> {
    const text = await store.get(SETTINGS_KEY);
    if (text == null && parts) return { ...managementPart() };
    return readStoredSettings(text);
  }

  /**
   * What the pane is shown of the defaults. Before the check has loaded, the chat part is merged
   * with every rule but the tenant's-domain one (HTTPS, the chat path, the agent key bound to the
   * chat URL's origin); that rule is applied when the chat part is used (the chat, saving), and no
   * agent key is sent before it (agentChatSettings checks again at use). Once loaded, every rule.
   */
  function shownDefaults(): Promise<StoredSettings> | StoredSettings {
    if (chatUrlCheckNow) return defaultSettings();
    return mergeSettings(managementPart(), parts!.chat, () => true);
  }

  async function client(): Promise<{ client: PlatformClient; settings: StoredSettings }> {
    const settings = await loadForManagement();
    return {
      settings,
      // Each key only for the tenant it was saved for (managementAccess).
      client: createPlatformClient({ ...managementAccess(settings), transport }),
    };
  }

  /**
   * The data client of the settings in force: one per tenant and key, so its tokens (one per
   * deployment, in memory only) serve every refresh until the settings change.
   */
  let data: { identity: string; client: () => Promise<DataClient> } | null = null;
  async function dataClient(): Promise<DataClient> {
    const { client: platform, settings } = await client();
    const access = managementAccess(settings);
    const identity = JSON.stringify([access.baseUrl, access.token]);
    if (data?.identity !== identity) {
      // The data client's code loads with the first refresh, like the chat's.
      data = {
        identity,
        client: once(() =>
          import("../core/data-client.js").then((m) =>
            m.createDataClient({ platform, transport, secrets: [access.token] }),
          ),
        ),
      };
    }
    return data.client();
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
      const text = await store.get(SETTINGS_KEY);
      if (text == null && parts) return toPublicSettings({ ...(await shownDefaults()) });
      return toPublicSettings(readStoredSettings(text));
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
    async loadReportData(report, opts = {}) {
      return (await dataClient()).loadReport(report, opts);
    },
    async runDataEffect(effect, opts = {}) {
      return (await dataClient()).runEffect(effect, opts);
    },
    async recordRefresh(deploymentId, reportId, input) {
      return (await client()).client.recordRefresh(deploymentId, reportId, input);
    },
    async listDeploymentReports() {
      const { client: c, settings } = await client();
      return c.listReports(pickedDeployment(settings));
    },
    async getReport(deploymentId, reportId) {
      return (await client()).client.getReport(deploymentId, reportId);
    },
    async connectReportToWorkbook(deploymentId, reportId, input) {
      return (await client()).client.connectReportToWorkbook(deploymentId, reportId, input);
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
