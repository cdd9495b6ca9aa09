// @vitest-environment jsdom
/**
 * The chat as a first-party Fluent add-in behaves: focus stays somewhere sensible after Stop and
 * New conversation, a refused key offers "Open settings" at the right field with the service's own
 * reason first, and the answer's steps are a disclosure button controlling a region.
 */
import { afterEach, describe, expect, it } from "vitest";
import { answerWith, waitsUntilStopped } from "./agentScript.js";
import {
  buttonByName,
  click,
  FakeHost,
  fieldByLabel,
  type Rendered,
  renderPane,
  settle,
  typeInto,
  waitFor,
} from "./fakeHost.js";

let view: Rendered | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  document.body.innerHTML = "";
});

async function open(host: FakeHost): Promise<HTMLElement> {
  view = await renderPane(host);
  const root = view.container;
  await waitFor(() => fieldByLabel(root, "Ask the agent"));
  return root;
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
