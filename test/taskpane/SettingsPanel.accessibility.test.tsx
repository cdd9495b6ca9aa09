// @vitest-environment jsdom
/**
 * Settings passes axe at every impact level: on first run (nothing to go back to) and with a
 * refused save shown at its field. jsdom computes no colours, so colour contrast is left to the
 * browser tests (Chromium).
 */
import axe from "axe-core";
import { afterEach, describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import { buttonByName, click, FakeHost, fieldByLabel, settle, typeInto } from "../support/fakeHost.js";
import { fieldError, renderSettings, type SettingsView } from "./settingsHarness.js";

let view: SettingsView | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  document.body.innerHTML = "";
});

async function axeViolations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { "color-contrast": { enabled: false } },
    resultTypes: ["violations"],
  });
  return result.violations.map(
    (v) => `${v.impact}: ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

describe("Settings passes axe", () => {
  it("on first run", async () => {
    view = await renderSettings(new FakeHost(), { firstRun: true, settings: null });
    expect(view.container.textContent).toContain("Connect to your tenant");
    expect(await axeViolations()).toEqual([]);
  });

  it("with a refused save shown at its field", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw new PlatformError("bad-request", "The agent chat URL must end in /chat/stream-chat-state.", {
        field: "chatUrl",
      });
    };
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "Agent chat URL"), "https://ai.acme.example.com/agents/a1");
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Agent chat URL")).toContain("must end in");
    expect(await axeViolations()).toEqual([]);
  });
});
