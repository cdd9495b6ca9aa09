// @vitest-environment jsdom
/**
 * Settings as a first-party Fluent add-in's: opened at the field an "Open settings" action names,
 * a failure shown at the field it is about (by the error's kind or field, not by its wording).
 */
import { act } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { PlatformError } from "../../src/core/errors.js";
import type { SettingsField } from "../../taskpane/errorMessage.js";
import {
  buttonByName,
  CONNECTED,
  click,
  FakeHost,
  fieldByLabel,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { fieldError, renderSettings, type SettingsView } from "./settingsHarness.js";

let view: SettingsView | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  document.body.innerHTML = "";
});

const LABELS: Record<SettingsField, string> = {
  tenantUrl: "Tenant URL",
  apiKey: "API key",
  chatUrl: "Agent chat URL",
  agentApiKey: "Agent API key",
  scimToken: "SCIM token",
  deploymentId: "Deployment",
};

describe("Settings opened at a field", () => {
  for (const [field, label] of Object.entries(LABELS) as [SettingsField, string][]) {
    it(`puts focus in ${label} and scrolls it into view`, async () => {
      view = await renderSettings(new FakeHost(), { focusField: field });
      const input = fieldByLabel(view.container, label);
      expect(document.activeElement).toBe(input);
      expect(view.scrolled).toContain(input);
    });
  }
});

describe("Settings opened to fix a failure", () => {
  it("marks the field with the failure, not only focuses it", async () => {
    const refused = "The agent API key was refused (401). Paste a new one in Settings.";
    view = await renderSettings(new FakeHost(), { focusField: "agentApiKey", focusMessage: refused });
    expect(document.activeElement).toBe(fieldByLabel(view.container, "Agent API key"));
    expect(fieldError(view.container, "Agent API key")).toBe(refused);
    expect(fieldByLabel(view.container, "Agent API key").getAttribute("aria-invalid")).toBe("true");
    expect(view.container.querySelectorAll('[aria-invalid="true"]')).toHaveLength(1);
  });
});

describe("a failed save, shown at its field", () => {
  it("an error that names its field is shown there, and focus goes to it", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw Object.assign(new PlatformError("bad-request", "This key is not an agent key."), {
        field: "agentApiKey",
      });
    };
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "Agent API key"), "not-a-key");
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Agent API key")).toBe("This key is not an agent key.");
    expect(document.activeElement).toBe(fieldByLabel(view.container, "Agent API key"));
  });

  it("a chat URL off the tenant's domain is shown at the chat URL, with the choice to trust it", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw new PlatformError(
        "insecure-url",
        "The agent chat URL (ai.other.net) is not part of the tenant acme.example.com. Use the chat URL of an agent of this tenant, or confirm that you trust ai.other.net.",
        { field: "chatUrl" },
      );
    };
    view = await renderSettings(host, { settings: { ...CONNECTED } });
    await typeInto(
      fieldByLabel(view.container, "Agent chat URL"),
      "https://ai.other.net/agents/a1/chat/stream-chat-state",
    );
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => expect(fieldError(view!.container, "Agent chat URL")).toContain("ai.other.net"));
    expect(fieldError(view.container, "Tenant URL")).toBeNull();
    expect(view.container.textContent).toContain("I trust it");
  });
});

describe("a failed save, found by the error's field, not its wording", () => {
  it("a refused deployment is shown at Deployment, and focus goes there", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw new PlatformError("bad-request", "The deployment must be picked from the list.", {
        field: "deploymentId",
      });
    };
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "E-mail"), "bo@example.com");
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Deployment")).toBe("The deployment must be picked from the list.");
    expect(document.activeElement).toBe(fieldByLabel(view.container, "Deployment"));
  });

  it("a chat URL the host will not trust offers the choice, however the refusal is worded", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw new PlatformError("insecure-url", "ai.other.net is outside acme.example.com.", {
        field: "chatUrl",
      });
    };
    view = await renderSettings(host, { settings: { ...CONNECTED } });
    await typeInto(
      fieldByLabel(view.container, "Agent chat URL"),
      "https://ai.other.net/agents/a1/chat/stream-chat-state",
    );
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => expect(fieldError(view!.container, "Agent chat URL")).toContain("ai.other.net"));
    expect(view.container.textContent).toContain("I trust it");
  });

  it("an error that names no field stays above the buttons, at no field, whatever it says", async () => {
    const host = new FakeHost();
    host.platform.saveSettings = async () => {
      throw new PlatformError("bad-request", "The tenant URL could not be saved right now.");
    };
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "Tenant URL"), "https://emea.acme.example.com");
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Tenant URL")).toBeNull();
    expect(view.container.textContent).toContain("The tenant URL could not be saved right now.");
  });
});

async function press(el: Element, key: string): Promise<void> {
  await act(async () => {
    el.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

describe("the Settings form", () => {
  it("Escape goes back", async () => {
    view = await renderSettings(new FakeHost());
    await press(fieldByLabel(view.container, "E-mail"), "Escape");
    expect(view.closed).toBe(1);
  });

  it("Escape on first run does nothing: there is nothing to go back to", async () => {
    view = await renderSettings(new FakeHost(), { firstRun: true });
    await press(fieldByLabel(view.container, "Tenant URL"), "Escape");
    expect(view.closed).toBe(0);
  });

  it("is one form, its Save and Back in a footer that stays at the bottom of the pane", async () => {
    view = await renderSettings(new FakeHost());
    expect(view.container.querySelectorAll("form")).toHaveLength(1);
    const footer = buttonByName(view.container, "Save").parentElement as HTMLElement;
    expect(footer).toBe(buttonByName(view.container, "Back").parentElement);
    expect(getComputedStyle(footer).position).toBe("sticky");
    expect(getComputedStyle(footer).bottom).toBe("0px");
  });

  it("changing only the tenant URL saves it, whatever an untouched field further down holds", async () => {
    // A chat URL stored before the add-in checked it: the pane's check would refuse it today.
    const stale = { ...CONNECTED, chatUrl: "http://ai.example.com/agents/a1/chat/stream-chat-state" };
    const host = new FakeHost({ settings: stale });
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "Tenant URL"), "https://emea.acme.example.com");
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Agent chat URL")).toBeNull();
    expect(host.calls.saveSettings).toEqual([{ tenantUrl: "https://emea.acme.example.com" }]);
    expect(view.container.textContent).toContain("Settings saved.");
  });

  it("the tenant URL is required", async () => {
    const host = new FakeHost();
    view = await renderSettings(host, { firstRun: true, settings: null });
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Tenant URL")).toContain("Enter the tenant URL");
    expect(document.activeElement).toBe(fieldByLabel(view.container, "Tenant URL"));
    expect(host.calls.saveSettings).toEqual([]);
  });

  it("a changed field is still checked", async () => {
    const host = new FakeHost();
    view = await renderSettings(host);
    await typeInto(
      fieldByLabel(view.container, "Agent chat URL"),
      "http://ai.other.net/chat/stream-chat-state",
    );
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(fieldError(view.container, "Agent chat URL")).toContain("https://");
    expect(host.calls.saveSettings).toEqual([]);
  });
});

describe("trusting a chat URL off the tenant's domain", () => {
  const FIRST = "https://ai.first.net/agents/a1/chat/stream-chat-state";
  const SECOND = "https://ai.second.net/agents/a1/chat/stream-chat-state";
  const ON_DOMAIN = "https://ai.acme.example.com/agents/a1/chat/stream-chat-state";

  /** A host that trusts an off-domain chat URL only when the patch confirms it (as mergeSettings does). */
  function trustingHost(): FakeHost {
    const host = new FakeHost();
    host.settings = { ...CONNECTED, chatUrl: FIRST, chatUrlConfirmed: true };
    const save = host.platform.saveSettings;
    host.platform.saveSettings = async (patch) => {
      const url = patch.chatUrl ?? host.settings.chatUrl;
      const confirmed =
        patch.confirmChatUrl ?? (url === host.settings.chatUrl && host.settings.chatUrlConfirmed);
      if (!url.includes("acme.example.com") && !confirmed) {
        host.calls.saveSettings.push(patch);
        const chatHost = new URL(url).host;
        throw new PlatformError(
          "insecure-url",
          `The agent chat URL (${chatHost}) is not part of the tenant acme.example.com. Use the chat URL of an agent of this tenant, or confirm that you trust ${chatHost}.`,
          { field: "chatUrl" },
        );
      }
      const saved = await save({ ...patch });
      host.settings = { ...saved, chatUrlConfirmed: !url.includes("acme.example.com") && confirmed };
      return host.settings;
    };
    return host;
  }

  function trustBox(root: HTMLElement): HTMLInputElement | null {
    return root.querySelector<HTMLInputElement>('input[type="checkbox"]');
  }

  it("a new URL starts unticked: a second Save sends nothing there until the user ticks it", async () => {
    const host = trustingHost();
    view = await renderSettings(host);
    // The stored URL was confirmed: its box shows, ticked.
    expect(trustBox(view.container)?.checked).toBe(true);
    await typeInto(fieldByLabel(view.container, "Agent chat URL"), SECOND);
    await typeInto(fieldByLabel(view.container, "Agent API key"), "ak-for-second");
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => expect(fieldError(view!.container, "Agent chat URL")).toContain("ai.second.net"));
    const box = trustBox(view.container);
    expect(box).not.toBeNull();
    expect(box?.checked).toBe(false);
    expect(view.container.textContent).toContain("ai.second.net is not on the tenant's domain. I trust it");
    // Save again without ticking: still refused, the key stays here.
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(host.calls.saveSettings.every((p) => p.confirmChatUrl !== true)).toBe(true);
    expect(host.settings.chatUrl).toBe(FIRST);
    expect(view.saved).toEqual([]);
    // Ticked by the user, it is confirmed for that URL.
    await click(trustBox(view.container)!);
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => expect(host.settings.chatUrl).toBe(SECOND));
    expect(host.calls.saveSettings.at(-1)).toMatchObject({ chatUrl: SECOND, confirmChatUrl: true });
  });

  it("a refusal covers the URL refused: another URL shows no box until the host refuses it too", async () => {
    const host = trustingHost();
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "Agent chat URL"), SECOND);
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => expect(fieldError(view!.container, "Agent chat URL")).toContain("ai.second.net"));
    await typeInto(fieldByLabel(view.container, "Agent chat URL"), ON_DOMAIN);
    // The tenant's own agent needs no trust: no box claims it is off the tenant's domain, and the
    // refusal of the other URL no longer stands at the field as if it were this one's.
    expect(view.container.textContent).not.toContain("not on the tenant's domain");
    expect(trustBox(view.container)).toBeNull();
    expect(fieldError(view.container, "Agent chat URL")).toBeNull();
    expect(view.container.textContent).not.toContain("ai.second.net");
  });
});

describe("a key typed in Settings", () => {
  it("carries the URL the form showed, so a store changed meanwhile can refuse it", async () => {
    const host = new FakeHost();
    view = await renderSettings(host, { settings: { ...CONNECTED } });
    // Another pane moves the tenant and the chat URL; this form still shows the old ones.
    host.settings = { ...CONNECTED, tenantUrl: "https://other.example.com", chatUrl: "" };
    await typeInto(fieldByLabel(view.container, "API key"), "sk-typed");
    await typeInto(fieldByLabel(view.container, "Agent API key"), "ak-typed");
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(host.calls.saveSettings).toEqual([
      {
        apiKey: "sk-typed",
        agentApiKey: "ak-typed",
        seenTenantUrl: CONNECTED.tenantUrl,
        seenChatUrl: CONNECTED.chatUrl,
      },
    ]);
  });
});

describe("Settings keep what the user chose", () => {
  it("Done after picking a deployment saves it, instead of going back without it", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, deploymentId: null } });
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "E-mail"), "ann@example.com");
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => expect(view?.container.textContent).toContain("Settings saved."));
    expect(view.scrolled.some((el) => el.textContent?.includes("Settings saved."))).toBe(true);

    await click(fieldByLabel(view.container, "Deployment"));
    await settle();
    const option = [...document.querySelectorAll('[role="option"]')].find((o) => o.textContent === "Staging");
    await click(option as Element);
    await click(buttonByName(view.container, "Done"));
    await settle();
    expect(host.calls.saveSettings.at(-1)).toEqual({ deploymentId: 2 });
    expect(host.settings.deploymentId).toBe(2);
    expect(view.closed).toBe(1);
  });

  it("Done with nothing changed since the Save just goes back", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, deploymentId: null } });
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "E-mail"), "ann@example.com");
    await click(buttonByName(view.container, "Save"));
    await waitFor(() => buttonByName(view!.container, "Done"));
    await click(buttonByName(view.container, "Done"));
    expect(host.calls.saveSettings).toHaveLength(1);
    expect(view.closed).toBe(1);
  });

  it("Back with a change not saved asks first, and Escape there keeps editing", async () => {
    const host = new FakeHost();
    view = await renderSettings(host);
    await typeInto(fieldByLabel(view.container, "External ID"), "someone-else");
    await click(buttonByName(view.container, "Back"));
    expect(view.closed).toBe(0);
    expect(view.container.textContent).toContain("Your changes are not saved.");
    expect(document.activeElement).toBe(buttonByName(view.container, "Discard changes"));
    await press(buttonByName(view.container, "Discard changes"), "Escape");
    expect(view.closed).toBe(0);
    expect(document.activeElement).toBe(buttonByName(view.container, "Back"));
    await press(fieldByLabel(view.container, "E-mail"), "Escape");
    await click(buttonByName(view.container, "Discard changes"));
    expect(view.closed).toBe(1);
    expect(host.calls.saveSettings).toEqual([]);
  });

  it("a key typed and not saved counts as a change; nothing typed goes straight back", async () => {
    view = await renderSettings(new FakeHost());
    await click(buttonByName(view.container, "Back"));
    expect(view.closed).toBe(1);
    const input = fieldByLabel(view.container, "API key") as HTMLInputElement;
    input.value = "sk-typed";
    await click(buttonByName(view.container, "Back"));
    expect(view.closed).toBe(1);
    expect(view.container.textContent).toContain("Your changes are not saved.");
  });

  it("a stored key can be removed: Remove, then Save sends it empty; Keep undoes the choice", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, scimTokenSet: true } });
    view = await renderSettings(host);
    await click(buttonByName(view.container, "Remove the SCIM token"));
    expect(view.container.textContent).toContain("The SCIM token will be removed when you save.");
    await click(buttonByName(view.container, "Keep the SCIM token"));
    await click(buttonByName(view.container, "Remove the agent API key"));
    await click(buttonByName(view.container, "Save"));
    await settle();
    expect(host.calls.saveSettings).toEqual([{ agentApiKey: "" }]);
    expect(host.settings.agentApiKeySet).toBe(false);
    expect(host.settings.scimTokenSet).toBe(true);
    expect(() => buttonByName(view!.container, "Remove the agent API key")).toThrow();
  });
});

describe("Settings say what is true on each host", () => {
  const cases = [
    ["excel", /by Office on this computer/],
    ["sheets", /with your Google account/],
    ["preview", /in this browser tab/],
  ] as const;
  for (const [kind, where] of cases) {
    it(`${kind}: where the settings are kept`, async () => {
      const host = new FakeHost();
      Object.defineProperty(host, "kind", { value: kind });
      view = await renderSettings(host);
      expect(view.container.textContent).toMatch(where);
      expect(view.container.textContent).not.toContain("Stored for you on this computer");
    });
  }

  it("the tenant URL's example reads as an example, and the E-mail field says what it is for", async () => {
    view = await renderSettings(new FakeHost());
    expect(view.container.textContent).toContain("For example, https://your-tenant.example.com");
    const email = fieldByLabel(view.container, "E-mail");
    const hint = document.getElementById(email.getAttribute("aria-describedby") ?? "");
    expect(hint?.textContent).toMatch(/e-mail the agent/);
  });

  it("a long chat URL can be read whole: it wraps over lines, and Enter still saves", async () => {
    const host = new FakeHost();
    view = await renderSettings(host);
    const url = `${"https://ai.acme.example/api/v1/public/acme-corporation-emea/agents/"}a1/chat/stream-chat-state`;
    const field = fieldByLabel(view.container, "Agent chat URL");
    expect(field).toBeInstanceOf(HTMLTextAreaElement);
    await typeInto(field, `${url}\n`);
    expect(field.value).toBe(url);
    expect(Number((field as HTMLTextAreaElement).rows)).toBeGreaterThan(1);
    await press(field, "Enter");
    await settle();
    expect(host.calls.saveSettings.at(-1)?.chatUrl).toBe(url);
  });
});
