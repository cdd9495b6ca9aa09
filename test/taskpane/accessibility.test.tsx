// @vitest-environment jsdom
/**
 * No axe-core violations, at any impact level, in each of the pane's states: loading, first-run
 * Settings, the list, a list error, the Ask view, Settings opened from the list (jsdom cannot compute
 * colour contrast; the browser tests check it in Chromium). One main landmark, one h1.
 */
import axe from "axe-core";
import { afterEach, describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import {
  buttonByName,
  CONNECTED,
  click,
  ctx,
  deferred,
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

/** Every violation axe finds, whatever its impact. */
async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    rules: { "color-contrast": { enabled: false } },
    resultTypes: ["violations"],
  });
  return result.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

function expectOneMainAndH1(root: HTMLElement) {
  expect(root.querySelectorAll('main, [role="main"]')).toHaveLength(1);
  expect(root.querySelectorAll('h1, [role="heading"][aria-level="1"]')).toHaveLength(1);
}

const NOTHING_SET = { ...CONNECTED, tenantUrl: "", deploymentId: null, apiKeySet: false };

describe("accessibility (axe, every impact level)", () => {
  it("loading", async () => {
    const host = new FakeHost();
    const gate = deferred<void>();
    const load = host.loadWorkbook.bind(host);
    host.loadWorkbook = async () => {
      await gate.promise;
      return load();
    };
    view = await renderPane(host);
    expect(view.container.textContent).toContain("Loading the workbook");
    expectOneMainAndH1(view.container);
    expect(await violations()).toEqual([]);
    gate.resolve();
  });

  it("first-run settings", async () => {
    view = await renderPane(new FakeHost({ settings: NOTHING_SET }));
    await waitFor(() => fieldByLabel(view!.container, "Tenant URL"));
    expectOneMainAndH1(view.container);
    expect(await violations()).toEqual([]);
  });

  it("the list with a current placement", async () => {
    view = await renderPane(
      new FakeHost({ context: ctx("Sales", "C4"), settings: { ...CONNECTED, scimTokenSet: true } }),
    );
    await waitFor(() => fieldByLabel(view!.container, "Ask the agent"));
    expectOneMainAndH1(view.container);
    expect(await violations()).toEqual([]);
  });

  it("a list error with Open settings, and an outcome message", async () => {
    const host = new FakeHost({
      loadError: new PlatformError("unauthorized", "The API key was refused (401)."),
    });
    view = await renderPane(host);
    await waitFor(() => buttonByName(view!.container, "Open settings"));
    await waitFor(() => fieldByLabel(view!.container, "Ask the agent"));
    // An outcome: "Disconnect report here" from the cell's menu while nothing is listed.
    await host.command(ctx("Sales", "C4"));
    await waitFor(() => expect(view!.container.querySelector('[role="status"]')?.textContent).not.toBe(""));
    expectOneMainAndH1(view.container);
    expect(await violations()).toEqual([]);
  });

  it("the Ask view", async () => {
    view = await renderPane(new FakeHost());
    await click(buttonByName(view.container, "Ask"));
    await waitFor(() => fieldByLabel(view!.container, "Ask the agent"));
    expectOneMainAndH1(view.container);
    expect(await violations()).toEqual([]);
  });

  it("settings opened from the list", async () => {
    view = await renderPane(new FakeHost());
    await click(buttonByName(view.container, "Settings"));
    await waitFor(() => fieldByLabel(view!.container, "Tenant URL"));
    expectOneMainAndH1(view.container);
    expect(await violations()).toEqual([]);
  });

  it("a placement's menu, open inside the main landmark", async () => {
    view = await renderPane(new FakeHost());
    const trigger = view.container.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]');
    expect(trigger).not.toBeNull();
    await click(trigger!);
    await waitFor(() => expect(document.querySelector('[role="menu"]')).not.toBeNull());
    expect(document.querySelector('[role="menu"]')?.closest("main")).not.toBeNull();
    expect(await violations()).toEqual([]);
  });
});
