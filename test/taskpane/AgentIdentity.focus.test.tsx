// @vitest-environment jsdom
/**
 * Previewing the agent as another user, from the keyboard: adding a user attribute lands in its
 * name, removing one leaves focus on the row that took its place (or Add attribute), and Back to me
 * hands focus to the question box. Focus never falls to the page.
 */
import { describe, expect, it } from "vitest";
import type { ScimUser } from "../../src/hosts/host.js";
import {
  buttonByName,
  CONNECTED,
  click,
  FakeHost,
  fieldByLabel,
  settle,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";
import { answerWith, showAsk } from "./agentScript.js";

function user(n: number): ScimUser {
  return {
    id: `u${n}`,
    userName: `user${n}@example.com`,
    displayName: `User ${n}`,
    email: `user${n}@example.com`,
    active: true,
  };
}

function labelled(root: ParentNode, label: string): HTMLElement {
  const el = root.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (!el) throw new Error(`nothing labelled ${label}`);
  return el;
}

async function openAnotherUser(host: FakeHost): Promise<HTMLElement> {
  const root = await showAsk(await renderPane(host));
  await click(buttonByName(root, "See the agent as another user"));
  await waitFor(() => buttonByName(root, "Add attribute"));
  return root;
}

describe("user attributes from the keyboard", () => {
  it("Add attribute puts focus in the new attribute's name", async () => {
    const root = await openAnotherUser(new FakeHost({ ask: answerWith("Hi") }));
    await click(buttonByName(root, "Add attribute"));
    expect(document.activeElement).toBe(labelled(root, "Attribute 1 name"));
    await click(buttonByName(root, "Add attribute"));
    expect(document.activeElement).toBe(labelled(root, "Attribute 2 name"));
  });

  it("Remove attribute leaves focus on the row that took its place, then the one before, then Add attribute", async () => {
    const root = await openAnotherUser(new FakeHost({ ask: answerWith("Hi") }));
    for (let i = 0; i < 3; i++) await click(buttonByName(root, "Add attribute"));
    await click(labelled(root, "Remove attribute 1"));
    expect(document.activeElement).toBe(labelled(root, "Remove attribute 1"));
    await click(labelled(root, "Remove attribute 2"));
    expect(document.activeElement).toBe(labelled(root, "Remove attribute 1"));
    await click(labelled(root, "Remove attribute 1"));
    expect(document.activeElement).toBe(buttonByName(root, "Add attribute"));
  });
});

describe("Back to me", () => {
  it("hands focus to the question box when it goes away", async () => {
    const host = new FakeHost({
      settings: { ...CONNECTED, scimTokenSet: true },
      ask: answerWith("Hi"),
      scimPages: [{ users: [user(1), user(2)], totalResults: 2, startIndex: 1, itemsPerPage: 2 }],
    });
    const root = await openAnotherUser(host);
    const picker = fieldByLabel(root, "User") as unknown as HTMLButtonElement;
    await click(picker);
    await settle();
    const option = [...document.querySelectorAll('[role="option"]')].find((o) =>
      o.textContent?.startsWith("User 2"),
    );
    await click(option as Element);
    await settle();
    await waitFor(() => buttonByName(root, "Back to me"));
    buttonByName(root, "Back to me").focus();
    await click(buttonByName(root, "Back to me"));
    expect(root.textContent).toContain("Answering as ann@example.com");
    expect(document.activeElement).toBe(fieldByLabel(root, "Ask the agent"));
  });
});
