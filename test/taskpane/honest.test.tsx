// @vitest-environment jsdom
/**
 * The pane tells the truth under a misbehaving service and hostile names: a disconnect whose answer
 * was lost is judged from the reloaded list, another report is no proof, a partial answer says so
 * and shows whole, names cannot reorder or hide text, typed secrets stay out of DOM attributes, a
 * tenant change asks for new keys, a chat URL off the tenant's domain needs the user's trust.
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import type { AgentAnswer } from "../../src/core/chat-request.js";
import { PlatformError } from "../../src/core/errors.js";
import { withoutPlacement } from "../../src/sandbox/placement-rules.js";
import {
  buttonByName,
  CONNECTED,
  click,
  ctx,
  FakeHost,
  fieldByLabel,
  queryButton,
  report,
  settle,
  typeInto,
  WORKBOOK_ID,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";
import { showAsk } from "./agentScript.js";

const disconnectButton = (root: ParentNode) => buttonByName(root, "Disconnect report here");
const queryStop = (root: ParentNode) => queryButton(root, "Stop");

describe("a disconnect whose answer was lost", () => {
  it("after a time-out, reloads the list and says the disconnect was applied when the placement is gone", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4") });
    host.platform.disconnect = async (deploymentId, reportId, input) => {
      // The service applies it, but its answer comes after the client gave up.
      const current = host.reports.find((r) => r.id === reportId && r.deploymentId === deploymentId)!;
      host.reports = host.reports.map((r) => (r === current ? withoutPlacement(current, input) : r));
      throw new PlatformError("timeout", "The service did not answer within 30 s. Try again.");
    };
    const root = await renderPane(host);
    const loadsBefore = host.calls.loadWorkbook;
    await click(disconnectButton(root));
    await waitFor(() =>
      expect(document.body.textContent).toContain(
        "The service did not answer within 30 s. The list was reloaded: Revenue by region is no longer at Sales!B2:F20, so the disconnect was applied",
      ),
    );
    expect(host.calls.loadWorkbook).toBe(loadsBefore + 1);
    expect(document.body.textContent).not.toContain("Try again.");
  });

  it("after a time-out that changed nothing, says the placement is still there", async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4") });
    host.platform.disconnect = async () => {
      throw new PlatformError("network", "Could not reach acme.example.com.");
    };
    await renderPane(host);
    await click(disconnectButton(document.body));
    await waitFor(() =>
      expect(document.body.textContent).toContain(
        "Revenue by region is still at Sales!B2:F20, so nothing was disconnected",
      ),
    );
  });

  it('another report in the answer is not "Disconnected"', async () => {
    const host = new FakeHost({ context: ctx("Sales", "C4") });
    host.platform.disconnect = async () => report(999, "Head count", []);
    await renderPane(host);
    await click(disconnectButton(document.body));
    await waitFor(() =>
      expect(document.body.textContent).toContain("answered with another report (Head count, id 999)"),
    );
    expect(document.body.textContent).not.toContain("Disconnected Revenue by region");
  });
});

describe("names the service or the workbook supplies", () => {
  it("are isolated and show their hidden characters", async () => {
    const RLO = "\u202E";
    const host = new FakeHost({
      context: ctx(`${RLO}Summary`, "B2", "s-evil"),
      reports: [
        report(301, `Revenue${RLO} 3N`, [
          {
            id: "p-evil",
            workbookId: WORKBOOK_ID,
            sheetId: "s-evil",
            sheetName: `${RLO}Summary`,
            anchorCell: "B2",
            resultLocation: "x",
            endResultCell: "C3",
          },
        ]),
      ],
    });
    host.sheets = [{ id: "s-evil", name: `${RLO}Summary` }];
    const root = await renderPane(host);
    await waitFor(() => expect(root.textContent).toContain("Revenue⟨U+202E⟩ 3N"));
    expect(root.textContent).not.toContain(RLO);
    expect(root.textContent).toContain("Placed at '⟨U+202E⟩Summary'!B2:C3");
    const names = [...root.querySelectorAll("bdi")].map((b) => b.textContent);
    expect(names).toEqual(expect.arrayContaining(["Revenue⟨U+202E⟩ 3N", "'⟨U+202E⟩Summary'!B2:C3"]));
  });
});

describe("the agent's answer", () => {
  it("a partial answer is shown whole, with a note that it may be incomplete", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `| Region ${i} | ${i * 10} |`);
    const text = ["| Region | Revenue |", "|---|---|", ...rows].join("\n");
    const answer: AgentAnswer = {
      answer: text,
      chatId: "c-1",
      messageId: "1718000000000123456789012-message",
      messages: [],
      incomplete: {
        reason: "unfinished",
        message: "This answer may be incomplete: the agent's stream ended early.",
      },
    };
    const host = new FakeHost({ ask: async () => answer });
    const root = await renderPane(host);
    await showAsk(root);
    await typeInto(fieldByLabel(root, "Ask the agent"), "Revenue by region?");
    await click(buttonByName(root, "Send"));
    await waitFor(() =>
      expect(root.querySelectorAll('[data-answer-status="done"] tbody tr')).toHaveLength(12),
    );
    const done = root.querySelector('[data-answer-status="done"]')!;
    expect(done.textContent).toContain("Region 11");
    expect(done.textContent).toContain("This answer may be incomplete");
  });

  it("a chat time-out ends the turn like any error: the next question can be asked", async () => {
    let calls = 0;
    const host = new FakeHost({
      ask: async () => {
        calls += 1;
        if (calls === 1) {
          throw new PlatformError(
            "timeout",
            "The agent sent nothing for 60 s, so the add-in stopped waiting.",
          );
        }
        return { answer: "Second answer", chatId: "c", messageId: "m", messages: [], incomplete: null };
      },
    });
    const root = await renderPane(host);
    await showAsk(root);
    await typeInto(fieldByLabel(root, "Ask the agent"), "First?");
    await click(buttonByName(root, "Send"));
    await waitFor(() => expect(root.textContent).toContain("The agent sent nothing for 60 s"));
    expect(queryStop(root)).toBeUndefined();
    await typeInto(fieldByLabel(root, "Ask the agent"), "Second?");
    await click(buttonByName(root, "Send"));
    await waitFor(() => expect(root.textContent).toContain("Second answer"));
  });

  it("a long answer renders whole, as separate blocks", async () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i}: ${"word ".repeat(60)}`);
    const host = new FakeHost({
      ask: async () => ({
        answer: paragraphs.join("\n\n"),
        chatId: "c",
        messageId: "m",
        messages: [],
        incomplete: null,
      }),
    });
    const root = await renderPane(host);
    await showAsk(root);
    await typeInto(fieldByLabel(root, "Ask the agent"), "Long?");
    await click(buttonByName(root, "Send"));
    await waitFor(() => expect(root.querySelectorAll('[data-answer-status="done"] p')).toHaveLength(60));
    const done = root.querySelector('[data-answer-status="done"]')!;
    expect(done.querySelectorAll("[data-markdown-block]").length).toBeGreaterThan(1);
    expect(done.textContent).toContain("Paragraph 59:");
  });
});

describe("Settings and secrets", () => {
  async function openSettings(host: FakeHost): Promise<HTMLElement> {
    const root = await renderPane(host);
    await click(buttonByName(root, "Settings"));
    await waitFor(() => fieldByLabel(root, "Tenant URL"));
    return root;
  }

  it("a typed secret is in no DOM attribute, and is read on save", async () => {
    const host = new FakeHost();
    const root = await openSettings(host);
    const field = fieldByLabel(root, "API key") as HTMLInputElement;
    await typeInto(field, "sk-typed-0123456789");
    expect(field.value).toBe("sk-typed-0123456789");
    expect(field.getAttribute("value")).toBeNull();
    expect(document.documentElement.outerHTML).not.toContain("sk-typed-0123456789");
    await click(buttonByName(root, "Save"));
    await settle();
    expect(host.calls.saveSettings[0]).toMatchObject({ apiKey: "sk-typed-0123456789" });
    expect(field.value).toBe("");
  });

  it("a tenant change that cleared the keys says which to paste, for which address", async () => {
    const host = new FakeHost({ settings: { ...CONNECTED, scimTokenSet: true } });
    host.platform.saveSettings = async (patch) => {
      host.settings = {
        ...host.settings,
        tenantUrl: patch.tenantUrl ?? "",
        apiKeySet: false,
        scimTokenSet: false,
      };
      return host.settings;
    };
    const root = await openSettings(host);
    await typeInto(fieldByLabel(root, "Tenant URL"), "https://acme.example.net");
    await click(buttonByName(root, "Save"));
    await waitFor(() =>
      expect(root.textContent).toContain(
        "The tenant changed: paste the API key and the SCIM token for https://acme.example.net.",
      ),
    );
  });

  it("a chat URL the host refuses as off the tenant's domain can be trusted explicitly", async () => {
    const host = new FakeHost();
    const saved = [] as unknown[];
    host.platform.saveSettings = async (patch) => {
      saved.push(patch);
      if (!patch.confirmChatUrl) {
        throw new PlatformError(
          "insecure-url",
          "The agent chat URL (chat.other.example) is not part of the tenant acme.example.com. Use the chat URL of an agent of this tenant, or confirm that you trust chat.other.example.",
          { field: "chatUrl" },
        );
      }
      host.settings = { ...host.settings, chatUrl: patch.chatUrl ?? "", chatUrlConfirmed: true };
      return host.settings;
    };
    const root = await openSettings(host);
    await typeInto(
      fieldByLabel(root, "Agent chat URL"),
      "https://chat.other.example/api/v1/public/a/agents/1/chat/stream-chat-state",
    );
    await click(buttonByName(root, "Save"));
    const trust = await (async () => {
      let box: HTMLInputElement | null = null;
      await waitFor(() => {
        box = root.querySelector<HTMLInputElement>('input[type="checkbox"]');
        expect(box).not.toBeNull();
      });
      return box as unknown as HTMLInputElement;
    })();
    expect(trust.closest("div")?.textContent ?? root.textContent).toContain("chat.other.example");
    expect(trust.checked).toBe(false);
    await act(async () => trust.click());
    await click(buttonByName(root, "Save"));
    await settle();
    expect(saved).toHaveLength(2);
    expect(saved[1]).toMatchObject({ confirmChatUrl: true });
  });
});
