// @vitest-environment jsdom
/**
 * The chat as a first-party Fluent add-in behaves: focus stays somewhere sensible after Stop and
 * New conversation, a refused key offers "Open settings" at the right field with the service's own
 * reason first, and the answer's steps are a disclosure button controlling a region.
 */
import { FluentProvider, webLightTheme } from "@fluentui/react-components";
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { errorFromStatus, PlatformError } from "../../src/core/errors.js";
import AgentChat from "../../taskpane/AgentChat.js";
import { errorMessage } from "../../taskpane/errorMessage.js";
import {
  buttonByName,
  CONNECTED,
  click,
  FakeHost,
  fieldByLabel,
  queryButton,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";
import { answerWith, answerWithStep, refusedWith, showAsk, waitsUntilStopped } from "./agentScript.js";

// The chat rendered alone (openChat, below); whole panes are unmounted by ../support/pane.js.
let unmountChat: (() => void) | null = null;
afterEach(() => {
  unmountChat?.();
  unmountChat = null;
});

async function open(host: FakeHost): Promise<HTMLElement> {
  return showAsk(await renderPane(host));
}

async function ask(root: HTMLElement, question: string): Promise<void> {
  await typeInto(fieldByLabel(root, "Ask the agent"), question);
  await click(buttonByName(root, "Send"));
}

function answers(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>("[data-answer-status]")];
}

describe("focus in the chat", () => {
  it("after Stop, focus is in the question box", async () => {
    const root = await open(new FakeHost({ ask: waitsUntilStopped() }));
    await ask(root, "Long question");
    await settle();
    const stop = buttonByName(root, "Stop");
    stop.focus();
    await click(stop);
    await settle();
    expect(root.textContent).toContain("Stopped.");
    expect(document.activeElement).toBe(fieldByLabel(root, "Ask the agent"));
  });

  it("after New conversation, focus is in the question box", async () => {
    const root = await open(new FakeHost({ ask: answerWith("Sure.") }));
    await ask(root, "First?");
    await waitFor(() => expect(answers(root)).toHaveLength(1));
    const fresh = buttonByName(root, "New conversation");
    fresh.focus();
    await click(fresh);
    await settle();
    expect(answers(root)).toHaveLength(0);
    expect(document.activeElement).toBe(fieldByLabel(root, "Ask the agent"));
  });

  it("New conversation while an answer streams stops it and leaves focus in the question box", async () => {
    const host = new FakeHost({ ask: waitsUntilStopped("chat-3") });
    const root = await open(host);
    await ask(root, "Long question");
    await settle();
    const fresh = buttonByName(root, "New conversation");
    fresh.focus();
    await click(fresh);
    await settle();
    expect(host.calls.abortChat).toEqual(["chat-3"]);
    expect(answers(root)).toHaveLength(0);
    expect(document.activeElement).toBe(fieldByLabel(root, "Ask the agent"));
  });
});

/** The chat alone, with a spy for "Open settings" (the pane wires it to open Settings at the field). */
async function openChat(host: FakeHost): Promise<{ root: HTMLElement; opened: unknown[][] }> {
  const opened: unknown[][] = [];
  const container = document.createElement("div");
  document.body.append(container);
  const reactRoot = createRoot(container);
  await act(async () => {
    reactRoot.render(
      <FluentProvider theme={webLightTheme}>
        <AgentChat host={host} settings={host.settings} onOpenSettings={(...args) => opened.push(args)} />
      </FluentProvider>,
    );
  });
  unmountChat = () => {
    act(() => reactRoot.unmount());
    container.remove();
  };
  await waitFor(() => fieldByLabel(container, "Ask the agent"));
  return { root: container, opened };
}

describe("a refused agent key", () => {
  const refused = () =>
    errorFromStatus(401, JSON.stringify({ message: "Token expired." }), {}, { credential: "agent-key" });

  it("offers Open settings (sentence case), which opens Settings at the agent API key", async () => {
    const { root, opened } = await openChat(new FakeHost({ ask: refusedWith(refused()) }));
    await ask(root, "Anything?");
    await waitFor(() => expect(root.textContent).toContain("The agent API key was refused (401)"));
    expect(queryButton(root, "Open Settings")).toBeUndefined();
    await click(buttonByName(root, "Open settings"));
    // With the failure, so Settings marks the field it opens at.
    expect(opened).toEqual([["agentApiKey", expect.stringContaining("The agent API key was refused (401)")]]);
  });

  it("says the service's own reason first, with no doubled punctuation", async () => {
    const { root } = await openChat(new FakeHost({ ask: refusedWith(refused()) }));
    await ask(root, "Anything?");
    await waitFor(() => expect(root.textContent).toContain("(401)"));
    const bar = root.querySelector('[role="group"], .fui-MessageBar') as HTMLElement;
    const text = bar.textContent ?? "";
    expect(text.indexOf("Token expired.")).toBeGreaterThanOrEqual(0);
    expect(text.indexOf("Token expired.")).toBeLessThan(text.indexOf("The agent API key was refused"));
    expect(text).not.toMatch(/[.!?]["”]?\.|\.\.(?!\.)/);
  });

  it("no chat URL set: Open settings opens Settings at the agent chat URL", async () => {
    const { root, opened } = await openChat(
      new FakeHost({ settings: { ...CONNECTED, chatUrl: "", agentApiKeySet: false } }),
    );
    await click(buttonByName(root, "Open settings"));
    expect(opened).toEqual([["chatUrl"]]);
  });

  it("no agent key set: Open settings opens Settings at the agent API key", async () => {
    const { root, opened } = await openChat(
      new FakeHost({ settings: { ...CONNECTED, agentApiKeySet: false } }),
    );
    await click(buttonByName(root, "Open settings"));
    expect(opened).toEqual([["agentApiKey"]]);
  });
});

describe("error messages built for the pane", () => {
  it("put the service's reason first and never double a full stop", () => {
    for (const [body, reason] of [
      ['{"message":"Token expired."}', "Token expired."],
      ['{"message":"Token expired"}', "Token expired."],
      ['{"error":"Why?"}', "Why?"],
    ] as const) {
      const text = errorMessage(errorFromStatus(403, body, {}, { credential: "agent-key" }));
      expect(text.startsWith(reason)).toBe(true);
      expect(text).toContain("The agent API key is valid but not allowed (403).");
      expect(text).not.toMatch(/[.!?…]["”]?\.|\.\.(?!\.)/);
    }
  });

  it("a stream error leads with the agent's reason", () => {
    const error = new PlatformError(
      "stream",
      'The agent stopped with an error: "Model overloaded.". Ask again; if it keeps failing, check the agent\'s settings or ask an admin.',
      { serviceMessage: "Model overloaded." },
    );
    expect(errorMessage(error)).toBe(
      "Model overloaded. The agent stopped with an error. Ask again; if it keeps failing, check the agent's settings or ask an admin.",
    );
  });

  it("works on an error's JSON form too, and leaves a message without a reason as it is", () => {
    const json = JSON.parse(
      JSON.stringify(errorFromStatus(401, '{"message":"Bad key"}', {}, { credential: "api-key" })),
    );
    expect(errorMessage(json)).toBe(
      // The service's reason replaces the usual causes: each thing said once.
      "Bad key. The API key was refused (401). Paste a new one in Settings.",
    );
    expect(errorMessage(new PlatformError("network", "Could not reach acme.example.com."))).toBe(
      "Could not reach acme.example.com.",
    );
  });
});

describe("the answer's steps", () => {
  it("are a disclosure button controlling the list, collapsed at first, not a <details> triangle", async () => {
    const root = await open(new FakeHost({ ask: answerWithStep("Revenue grew.") }));
    await ask(root, "How did revenue do?");
    await waitFor(() => expect(answers(root)[0]?.getAttribute("data-answer-status")).toBe("done"));
    expect(root.querySelector("details, summary")).toBeNull();
    const toggle = buttonByName(root, "1 step");
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    const list = document.getElementById(toggle.getAttribute("aria-controls") ?? "") as HTMLElement;
    expect(list).not.toBeNull();
    expect(list.hidden).toBe(true);

    await click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(list.hidden).toBe(false);
    expect(list.textContent).toContain("Used query_revenue");

    await click(toggle);
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(list.hidden).toBe(true);
  });
});
