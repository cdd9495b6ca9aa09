// @vitest-environment jsdom
/**
 * The pane's states and Settings: loading errors with Retry, Settings first when nothing is set,
 * secrets write-only, insecure URLs refused next to the field, and never a blank screen.
 */
import { act } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import {
  buttonByName,
  CONNECTED,
  click,
  ctx,
  FakeHost,
  fieldByLabel,
  queryButton,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";

afterEach(() => {
  vi.restoreAllMocks();
});

const NOTHING_SET = {
  ...CONNECTED,
  tenantUrl: "",
  deploymentId: null,
  chatUrl: "",
  apiKeySet: false,
  agentApiKeySet: false,
};

describe("loading", () => {
  it("shows a failing load as an error message bar with Retry, and Retry loads again", async () => {
    const host = new FakeHost({
      loadError: new PlatformError(
        "unauthorized",
        "The API key was refused (401): it is missing, malformed or expired. Paste a new one in Settings.",
      ),
    });
    const root = await renderPane(host);
    expect(root.textContent).toContain("The reports could not be loaded.");
    expect(root.textContent).toContain("Paste a new one in Settings.");
    expect(root.querySelectorAll("li[data-placement-key]")).toHaveLength(0);

    host.loadError = undefined;
    await click(buttonByName(root, "Retry"));
    await settle();
    expect(host.calls.loadWorkbook).toBeGreaterThanOrEqual(2);
    expect(root.textContent).not.toContain("The reports could not be loaded.");
    expect(root.querySelectorAll("li[data-placement-key]")).toHaveLength(4);
  });

  it("shows an error given as a plain object by its message, never anything else", async () => {
    const root = await renderPane(
      new FakeHost({
        loadError: { kind: "network", message: "Could not reach acme.example.com.", stack: "at x" },
      }),
    );
    expect(root.textContent).toContain("Could not reach acme.example.com.");
    expect(root.textContent).not.toContain("at x");
  });

  it("keeps the list when a refresh fails", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    host.loadError = new PlatformError(
      "server",
      "The Reporting Platform had a problem (503). Try again in a moment.",
    );
    await click(buttonByName(root, "Reload list"));
    await settle();
    expect(root.textContent).toContain("The refresh failed.");
    expect(root.querySelectorAll("li[data-placement-key]")).toHaveLength(4);
    expect(queryButton(root, "Retry")).toBeDefined();
  });

  it("shows a message and Reload instead of a blank pane when rendering fails", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const host = new FakeHost();
    host.reports = null as never;
    const root = await renderPane(host);
    expect(root.textContent).toContain("The add-in stopped on an unexpected problem.");
    expect(buttonByName(root, "Reload")).toBeDefined();
    expect(root.querySelector("main")).not.toBeNull();
  });
});

describe("Disconnect report here before the add-in is connected", () => {
  it("says to open Settings instead of claiming no report is placed there", async () => {
    const host = new FakeHost({ settings: NOTHING_SET });
    const root = await renderPane(host);
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    const outcome = await act(() => host.command(ctx("Sales", "B2")));
    expect(outcome.ok).toBe(false);
    expect(outcome.message).toContain("open Settings");
    expect(host.calls.disconnect).toHaveLength(0);
  });
});

describe("Settings", () => {
  it("comes first, saying what to do, when no tenant URL or API key is set", async () => {
    const host = new FakeHost({ settings: NOTHING_SET });
    const root = await renderPane(host);
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    expect(host.calls.loadWorkbook).toBe(0);
    expect(root.textContent).toContain("enter the tenant URL and an API key");
    for (const label of [
      "Tenant URL",
      "API key",
      "Deployment",
      "Agent chat URL",
      "Agent API key",
      "External ID",
      "E-mail",
      "SCIM token",
    ]) {
      expect(root.textContent).toContain(label);
    }
    expect(fieldByLabel(root, "API key").getAttribute("type")).toBe("password");
    expect(fieldByLabel(root, "Agent API key").getAttribute("type")).toBe("password");
    expect(fieldByLabel(root, "SCIM token").getAttribute("type")).toBe("password");

    await typeInto(fieldByLabel(root, "Tenant URL"), "https://acme.example.com");
    await typeInto(fieldByLabel(root, "API key"), "sk-new-key");
    await click(buttonByName(root, "Save"));
    await settle();
    expect(host.calls.saveSettings).toHaveLength(1);
    expect(host.calls.saveSettings[0]).toMatchObject({
      tenantUrl: "https://acme.example.com",
      apiKey: "sk-new-key",
    });
    // The key is never shown back: the field is empty again and says a key is set.
    await waitFor(() => expect((fieldByLabel(root, "API key") as HTMLInputElement).value).toBe(""));
    expect(fieldByLabel(root, "API key").getAttribute("placeholder")).toContain("A key is set");
  });

  it("keeps the stored key when the API key field is left empty", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    const key = fieldByLabel(root, "API key") as HTMLInputElement;
    expect(key.value).toBe("");
    expect(key.getAttribute("placeholder")).toContain("A key is set");
    await typeInto(fieldByLabel(root, "E-mail"), "bo@example.com");
    await click(buttonByName(root, "Save"));
    await settle();
    expect(host.calls.saveSettings[0]).not.toHaveProperty("apiKey");
    expect(host.calls.saveSettings[0]).toEqual({ email: "bo@example.com" });
  });

  it("refuses an insecure tenant URL next to the field, before anything is saved", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    await typeInto(fieldByLabel(root, "Tenant URL"), "http://acme.example.com");
    await click(buttonByName(root, "Save"));
    await settle();
    expect(host.calls.saveSettings).toHaveLength(0);
    expect(root.textContent).toContain("The tenant URL must use https://");
  });

  it("shows the service's refusal of a setting as an error message bar", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw new PlatformError(
        "insecure-url",
        "The agent chat URL (evil.example.net) is not part of the tenant acme.example.com.",
      );
    };
    const root = await renderPane(host);
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    await click(buttonByName(root, "Save"));
    await settle();
    expect(root.textContent).toContain("is not part of the tenant acme.example.com");
  });

  it("lists deployments to pick from", async () => {
    const host = new FakeHost();
    const root = await renderPane(host);
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    const dropdown = root.querySelector<HTMLButtonElement>('button[role="combobox"]');
    expect(dropdown?.textContent).toContain("Production");
    await act(async () => dropdown?.click());
    await settle();
    const options = [...document.querySelectorAll('[role="option"]')].map((o) => o.textContent);
    expect(options).toEqual(["Production", "Staging"]);
  });
});
