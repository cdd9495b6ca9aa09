// @vitest-environment jsdom
/**
 * No serious or critical axe-core violations on the main screen, the settings screen and a chat
 * answer (jsdom cannot compute colour contrast; the browser tests check it in Chromium).
 */
import axe from "axe-core";
import { afterEach, describe, expect, it } from "vitest";
import {
  buttonByName,
  CONNECTED,
  click,
  ctx,
  FakeHost,
  fieldByLabel,
  type Rendered,
  renderPane,
  waitFor,
} from "../support/fakeHost.js";

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  document.body.innerHTML = "";
});

async function seriousViolations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { "color-contrast": { enabled: false } },
    resultTypes: ["violations"],
  });
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

describe("accessibility", () => {
  it("main screen with a current placement", async () => {
    view = await renderPane(
      new FakeHost({ context: ctx("Sales", "C4"), settings: { ...CONNECTED, scimTokenSet: true } }),
    );
    await waitFor(() => fieldByLabel(view!.container, "Ask the agent"));
    expect(view.container.querySelector("main")).not.toBeNull();
    expect(await seriousViolations()).toEqual([]);
  });

  it("settings screen", async () => {
    view = await renderPane(new FakeHost());
    await click(buttonByName(view.container, "Settings"));
    await waitFor(() => fieldByLabel(view!.container, "Tenant URL"));
    expect(await seriousViolations()).toEqual([]);
  });
});
