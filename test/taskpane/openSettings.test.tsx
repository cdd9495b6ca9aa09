// @vitest-environment jsdom
/**
 * "Open settings" opens Settings at the field a failure is about: the pane passes that field to
 * Settings (which puts focus there). Settings and the chat are stand-ins here, recording what the
 * pane gives them.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { buttonByName, click, FakeHost, type Rendered, renderPane, waitFor } from "./fakeHost.js";

const opened = vi.hoisted(() => ({ fields: [] as (string | undefined)[] }));

vi.mock("../../taskpane/SettingsPanel.js", () => ({
  default: ({ focusField, onClose }: { focusField?: string; onClose(): void }) => {
    opened.fields.push(focusField);
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
  default: ({ onOpenSettings }: { onOpenSettings(field?: string): void }) => (
    <button type="button" onClick={() => onOpenSettings("agentApiKey")}>
      Fix the agent key
    </button>
  ),
}));

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  document.body.innerHTML = "";
  opened.fields.length = 0;
});

describe("Open settings", () => {
  it("opens Settings at the API key from a list refused with 401", async () => {
    view = await renderPane(
      new FakeHost({ loadError: new PlatformError("unauthorized", "The API key was refused (401).") }),
    );
    await click(buttonByName(view.container, "Open settings"));
    await waitFor(() => expect(view!.container.textContent).toContain("Settings at apiKey"));
    expect(opened.fields.at(-1)).toBe("apiKey");
  });

  it("opens Settings at the field the chat names, and plainly from the Settings button", async () => {
    view = await renderPane(new FakeHost());
    await waitFor(() => buttonByName(view!.container, "Fix the agent key"));
    await click(buttonByName(view.container, "Fix the agent key"));
    await waitFor(() => expect(view!.container.textContent).toContain("Settings at agentApiKey"));

    await click(buttonByName(view.container, "Back"));
    await click(buttonByName(view.container, "Settings"));
    await waitFor(() => expect(view!.container.textContent).toContain("Settings at the top"));
  });
});
