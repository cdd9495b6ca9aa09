// @vitest-environment jsdom
/**
 * No axe-core violations, at any impact level, in each of the pane's states: loading, first-run
 * Settings, the list, a list error, the Ask view, Settings opened from the list (jsdom cannot compute
 * colour contrast; the browser tests check it in Chromium). One main landmark, one h1.
 */
import axe from "axe-core";
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import {
  buttonByName,
  CONNECTED,
  click,
  ctx,
  deferred,
  FakeHost,
  fieldByLabel,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

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
    // Drawn once the load has taken longer than a moment (mount.tsx).
    const root = await renderPane(host, {
      until: (root) => expect(root.textContent).toContain("Loading the workbook"),
    });
    expectOneMainAndH1(root);
    expect(await violations()).toEqual([]);
    gate.resolve();
  });

  it("first-run settings", async () => {
    const root = await renderPane(new FakeHost({ settings: NOTHING_SET }));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    expectOneMainAndH1(root);
    expect(await violations()).toEqual([]);
  });

  it("the list with a current placement", async () => {
    const root = await renderPane(
      new FakeHost({ context: ctx("Sales", "C4"), settings: { ...CONNECTED, scimTokenSet: true } }),
    );
    await waitFor(() => expect(root.querySelector('[aria-current="true"]')).not.toBeNull());
    expectOneMainAndH1(root);
    expect(await violations()).toEqual([]);
  });

  it("a list error with Open settings, and an outcome message", async () => {
    const host = new FakeHost({
      loadError: new PlatformError("unauthorized", "The API key was refused (401)."),
    });
    const root = await renderPane(host);
    await waitFor(() => buttonByName(root, "Open settings"));
    // An outcome: "Disconnect report here" from the cell's menu while nothing is listed.
    await host.command(ctx("Sales", "C4"));
    await waitFor(() =>
      expect(root.querySelector('[role="status"][aria-label="Messages"]')?.textContent).not.toBe(""),
    );
    expectOneMainAndH1(root);
    expect(await violations()).toEqual([]);
  });

  it("the Ask view", async () => {
    const root = await renderPane(new FakeHost());
    await click(buttonByName(root, "Ask"));
    await waitFor(() => fieldByLabel(root, "Ask the agent"));
    expectOneMainAndH1(root);
    expect(await violations()).toEqual([]);
  });

  it("settings opened from the list", async () => {
    const root = await renderPane(new FakeHost());
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    expectOneMainAndH1(root);
    expect(await violations()).toEqual([]);
  });

  it("a placement's menu, open inside the main landmark", async () => {
    const root = await renderPane(new FakeHost());
    const trigger = root.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]');
    expect(trigger).not.toBeNull();
    await click(trigger!);
    await waitFor(() => expect(document.querySelector('[role="menu"]')).not.toBeNull());
    expect(document.querySelector('[role="menu"]')?.closest("main")).not.toBeNull();
    expect(await violations()).toEqual([]);
  });
});
