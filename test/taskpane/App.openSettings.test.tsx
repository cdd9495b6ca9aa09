// @vitest-environment jsdom
/**
 * "Open settings" opens Settings at the field a failure is about: the pane passes that field to
 * Settings (which puts focus there). Settings and the chat are stand-ins here, recording what the
 * pane gives them.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { buttonByName, click, FakeHost, waitFor } from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

const opened = vi.hoisted(() => ({
  fields: [] as (string | undefined)[],
  messages: [] as (string | undefined)[],
}));

vi.mock("../../taskpane/SettingsPanel.js", () => ({
  default: ({
    focusField,
    focusMessage,
    onClose,
  }: {
    focusField?: string;
    focusMessage?: string;
    onClose(): void;
  }) => {
    opened.fields.push(focusField);
    opened.messages.push(focusMessage);
    return (
      <form aria-label="Settings stand-in">
        <p>Settings at {focusField ?? "the top"}</p>
        <button type="button" onClick={onClose}>
          Back
        </button>
      </form>
    );
  },
}));

vi.mock("../../taskpane/AgentChat.js", () => ({
  default: ({ onOpenSettings }: { onOpenSettings(field?: string, message?: string): void }) => (
    <button
      type="button"
      onClick={() => onOpenSettings("agentApiKey", "The agent API key was refused (401).")}
    >
      Fix the agent key
    </button>
  ),
}));

afterEach(() => {
  opened.fields.length = 0;
  opened.messages.length = 0;
});

describe("Open settings", () => {
  it("opens Settings at the API key from a list refused with 401", async () => {
    const root = await renderPane(
      new FakeHost({ loadError: new PlatformError("unauthorized", "The API key was refused (401).") }),
    );
    await click(buttonByName(root, "Open settings"));
    await waitFor(() => expect(root.textContent).toContain("Settings at apiKey"));
    expect(opened.fields.at(-1)).toBe("apiKey");
    // The failure goes with it, so Settings marks the field, not only focuses it.
    expect(opened.messages.at(-1)).toContain("The API key was refused (401).");
  });

  it("offers Open settings at the tenant URL when the tenant could not be reached", async () => {
    const root = await renderPane(
      new FakeHost({
        loadError: new PlatformError(
          "network",
          "Could not reach acme.example.com. Check the tenant URL in Settings and your connection, then try again.",
        ),
      }),
    );
    await click(buttonByName(root, "Open settings"));
    await waitFor(() => expect(root.textContent).toContain("Settings at tenantUrl"));
    expect(opened.messages.at(-1)).toContain("Could not reach acme.example.com");
  });

  it("opens Settings at the field the chat names, and plainly from the Settings button", async () => {
    const root = await renderPane(new FakeHost());
    // The chat mounts when its view first opens.
    await click(buttonByName(root, "Ask"));
    await waitFor(() => buttonByName(root, "Fix the agent key"));
    await click(buttonByName(root, "Fix the agent key"));
    await waitFor(() => expect(root.textContent).toContain("Settings at agentApiKey"));
    expect(opened.messages.at(-1)).toBe("The agent API key was refused (401).");

    await click(buttonByName(root, "Back"));
    await click(buttonByName(root, "Settings"));
    await waitFor(() => expect(root.textContent).toContain("Settings at the top"));
    expect(opened.messages.at(-1)).toBeUndefined();
  });
});
