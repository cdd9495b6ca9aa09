/**
 * What the preview page learns from the server that serves it (`/preview-config.json`): where the
 * local Reporting Platform runs and the settings the pane starts with. Served by the page's own
 * origin, never carried in the page's URL.
 */
import { CHAT_PATH } from "../../core/chat-request.js";
import type { SettingsPatch } from "../../core/settings.js";
import {
  DEMO_AGENT_KEY,
  DEMO_AGENTS,
  DEMO_API_KEY,
  DEMO_DEPLOYMENTS,
  DEMO_SCIM_TOKEN,
} from "../../sandbox/demo.js";

export const PREVIEW_CONFIG_PATH = "/preview-config.json";

export interface PreviewConfig {
  /** The sandbox's base URL, `http://127.0.0.1:PORT`. */
  sandboxUrl: string;
  /** The settings the pane uses until the user saves their own. */
  defaults: SettingsPatch;
}

/** The chat URL of a sandbox agent (the account segment is always "sandbox"). */
export function sandboxChatUrl(sandboxUrl: string, agentId: string): string {
  return `${sandboxUrl}/api/v1/public/sandbox/agents/${encodeURIComponent(agentId)}${CHAT_PATH}`;
}

/** The demo settings for a sandbox serving the demo seed: connected at once, nothing to type. */
export function demoPreviewConfig(sandboxUrl: string): PreviewConfig {
  const deployment = DEMO_DEPLOYMENTS[0];
  const agent = DEMO_AGENTS.find((a) => a.deploymentId === deployment.id)!;
  return {
    sandboxUrl,
    defaults: {
      tenantUrl: sandboxUrl,
      apiKey: DEMO_API_KEY,
      deploymentId: deployment.id,
      chatUrl: sandboxChatUrl(sandboxUrl, agent.id),
      agentApiKey: DEMO_AGENT_KEY,
      externalId: "ann.lee@example.com",
      email: "ann.lee@example.com",
      scimToken: DEMO_SCIM_TOKEN,
    },
  };
}
