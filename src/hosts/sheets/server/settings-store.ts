/// <reference types="google-apps-script" />
/**
 * The user's settings and secrets, in the user's own script properties: per user, never in the
 * document (document properties travel with the file to every editor) nor in script properties
 * (shared by every user of the add-on). One JSON value, read and changed through the core's rules.
 */
import { readStoredSettings, type StoredSettings } from "../../../core/settings.js";

export const SETTINGS_PROPERTY = "reportingPlatform.settings";

export function loadSettings(): StoredSettings {
  return readStoredSettings(PropertiesService.getUserProperties().getProperty(SETTINGS_PROPERTY));
}

export function storeSettings(settings: StoredSettings): void {
  PropertiesService.getUserProperties().setProperty(SETTINGS_PROPERTY, JSON.stringify(settings));
}

/** Every secret stored, for redacting messages. */
export function secretsOf(settings: StoredSettings): string[] {
  return [settings.apiKey, settings.agentApiKey, settings.scimToken].filter((s) => s !== "");
}
