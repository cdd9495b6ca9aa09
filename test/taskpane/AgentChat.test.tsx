// @vitest-environment jsdom
/**
 * Ask the agent: the identity in use, streaming progress and answer, Stop, follow-ups keeping the
 * conversation, New conversation, errors inline, a malicious answer shown inert, and previewing the
 * agent as another user (SCIM users, paged; user attributes).
 */
import { act } from "react";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../../src/core/chat-messages.js";
import { PlatformError } from "../../src/core/errors.js";
import type { ScimUser } from "../../src/hosts/host.js";
import {
  buttonByName,
  CONNECTED,
  click,
  deferred,
  FakeHost,
  fieldByLabel,
  queryButton,
  settle,
  typeInto,
  waitFor,
} from "../support/fakeHost.js";
import { renderPane } from "../support/pane.js";
import { answerWith, showAsk, streamOf } from "./agentScript.js";

async function open(host: FakeHost): Promise<HTMLElement> {
  const root = await showAsk(await renderPane(host));
  return root;
}

async function ask(root: HTMLElement, question: string): Promise<void> {
  await typeInto(fieldByLabel(root, "Ask the agent"), question);
  await click(buttonByName(root, "Send"));
}

function byAriaLabel(root: ParentNode, label: string): HTMLInputElement {
  const el = root.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
  if (!el) throw new Error(`no input labelled ${label}`);
  return el;
}

function answers(root: ParentNode): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>("[data-answer-status]")];
}

describe("asking the agent", () => {
  it("shows who the agent answers as, above the conversation", async () => {
    const root = await open(new FakeHost({ ask: answerWith("Hi") }));
    expect(root.textContent).toContain("Answering as ann@example.com");
  });

  it("shows progress steps while the answer streams in, then the answer", async () => {
    const gate = deferred<void>();
    const host = new FakeHost({
      ask: async (_request, options) => {
        const lines: ChatMessage[] = [
          { id: "__cutoff__", state: { chatId: "chat-9" } },
          {
            id: "tool-1",
            role: "assistant",
            graphPath: ["cube_data_analyst_agent", "tools"],
            content: "",
            isInProcess: true,
            toolCall: { name: "query_revenue" },
          } as ChatMessage,
          {
            id: "final-1",
            role: "assistant",
            graphPath: ["final"],
            content: "Revenue grew ",
            isInProcess: true,
          },
        ];
        streamOf(lines, options);
        await gate.promise;
        return streamOf(
          [
            ...lines,
            {
              id: "final-1",
              role: "assistant",
              graphPath: ["final"],
              content: "**12%** in EMEA.",
              isDelta: true,
            },
          ],
          options,
        );
      },
    });
    const root = await open(host);
    await ask(root, "How did revenue do?");
    await settle();
    expect(root.textContent).toContain("How did revenue do?");
    expect(root.textContent).toContain("Using query_revenue");
    expect(answers(root)[0]?.textContent).toContain("Revenue grew");
    expect(queryButton(root, "Stop")).toBeDefined();
    expect(queryButton(root, "Send")).toBeUndefined();

    await act(async () => gate.resolve());
    await waitFor(() => expect(answers(root)[0]?.querySelector("strong")?.textContent).toBe("12%"));
    expect(answers(root)[0]?.textContent).toContain("Revenue grew 12% in EMEA.");
    expect(root.textContent).toContain("1 step");
    expect(queryButton(root, "Send")).toBeDefined();
    expect(host.calls.ask[0]).toEqual({
      input: "How did revenue do?",
      sessionSettings: { externalId: "ann", email: "ann@example.com" },
    });
  });

  it("while streaming, a deeper step under final (graphPath longer than 2) is a step, not the answer", async () => {
    const gate = deferred<void>();
    const draft: ChatMessage = {
      id: "draft-1",
      role: "assistant",
      graphPath: ["final", "writer", "draft"],
      content: "Drafting the regions table",
      isInProcess: true,
    };
    const host = new FakeHost({
      ask: async (_request, options) => {
        const lines: ChatMessage[] = [{ id: "__cutoff__", state: { chatId: "chat-9" } }, draft];
        streamOf(lines, options);
        await gate.promise;
        const done = { ...draft, isInProcess: false };
        return streamOf(
          [
            ...lines,
            done,
            { id: "final-1", role: "assistant", graphPath: ["final"], content: "EMEA grew most." },
          ],
          options,
        );
      },
    });
    const root = await open(host);
    await ask(root, "Which region grew?");
    await settle();
    expect(answers(root)[0]?.textContent).not.toContain("Drafting the regions table");
    expect(answers(root)[0]?.textContent).toContain("The agent is working");
    expect(root.querySelector('[aria-label="Conversation"] ul')?.textContent).toContain(
      "Drafting the regions table",
    );

    await act(async () => gate.resolve());
    await waitFor(() => expect(answers(root)[0]?.textContent).toContain("EMEA grew most."));
    expect(answers(root)[0]?.textContent).not.toContain("Drafting");
    expect(root.textContent).toContain("1 step");
  });

  it("continues the conversation with its chatId, and New conversation starts over", async () => {
    const host = new FakeHost({ ask: answerWith("Sure.", "chat-42") });
    const root = await open(host);
    await ask(root, "First?");
    await waitFor(() => expect(answers(root)).toHaveLength(1));
    await ask(root, "And then?");
    await waitFor(() => expect(answers(root)).toHaveLength(2));
    expect(host.calls.ask[0]?.chatId).toBeUndefined();
    expect(host.calls.ask[1]?.chatId).toBe("chat-42");

    await click(buttonByName(root, "New conversation"));
    expect(answers(root)).toHaveLength(0);
    await ask(root, "Fresh start");
    await waitFor(() => expect(host.calls.ask).toHaveLength(3));
    expect(host.calls.ask[2]?.chatId).toBeUndefined();
  });

  it("Stop aborts the request and stops the run on the service", async () => {
    let signal: AbortSignal | undefined;
    const host = new FakeHost({
      ask: (_request, options) => {
        signal = options.signal;
        streamOf([{ id: "__cutoff__", state: { chatId: "chat-7" } }], options);
        return new Promise((_resolve, reject) => {
          options.signal?.addEventListener("abort", () =>
            reject(new PlatformError("aborted", "You stopped the answer. Ask again when you are ready.")),
          );
        });
      },
    });
    const root = await open(host);
    await ask(root, "Long question");
    await settle();
    await click(buttonByName(root, "Stop"));
    await settle();
    expect(signal?.aborted).toBe(true);
    expect(host.calls.abortChat).toEqual(["chat-7"]);
    expect(root.textContent).toContain("Stopped.");
    expect(queryButton(root, "Send")).toBeDefined();
  });

  it("shows errors inline with what to do", async () => {
    const host = new FakeHost({
      ask: async () => {
        throw new PlatformError(
          "unauthorized",
          "The agent API key was refused (401): it is missing, malformed or expired. Paste a new one in Settings.",
        );
      },
    });
    const root = await open(host);
    await ask(root, "Anything?");
    await waitFor(() => expect(root.textContent).toContain("The agent API key was refused (401)"));
    expect(queryButton(root, "Open settings")).toBeDefined();
  });

  it("brings a failed answer's error into view, above the sticky question box", async () => {
    const gate = deferred<void>();
    const host = new FakeHost({
      ask: async () => {
        await gate.promise;
        throw new PlatformError("network", "Could not reach the agent at ai.example.com to ask.");
      },
    });
    const root = await open(host);
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    await ask(root, "Anything?");
    await settle();
    const asked = scrolled.length;
    gate.resolve();
    await waitFor(() => expect(root.textContent).toContain("Could not reach the agent"));
    expect(scrolled.length).toBeGreaterThan(asked);
    expect(scrolled.at(-1)?.textContent).toContain("Could not reach the agent");
  });

  it("says how to set up the agent when no chat URL or key is set", async () => {
    const root = await open(new FakeHost({ settings: { ...CONNECTED, chatUrl: "", agentApiKeySet: false } }));
    expect(root.textContent).toContain("Set the Agent chat URL and the Agent API key in Settings");
    expect(buttonByName(root, "Send").disabled).toBe(true);
  });
});

describe("a malicious answer", () => {
  it("renders inert: no raw HTML, no javascript: links; safe links open in a new tab", async () => {
    const host = new FakeHost({
      ask: answerWith(
        [
          "Here you go <img src=x onerror=alert(1)> and <script>alert(2)</script>",
          "",
          "[click me](javascript:alert(3)) [data](data:text/html,<b>x</b>) [docs](https://example.com/docs)",
          "",
          "![tracker](https://evil.example.net/pixel.png)",
        ].join("\n"),
      ),
    });
    const root = await open(host);
    await ask(root, "Show me");
    await waitFor(() => expect(answers(root)[0]?.textContent).toContain("Here you go"));
    const answer = answers(root)[0] as HTMLElement;
    expect(answer.querySelector("img")).toBeNull();
    expect(answer.querySelector("script")).toBeNull();
    expect(answer.querySelector("[onerror]")).toBeNull();
    expect(document.querySelector("img[onerror]")).toBeNull();
    const hrefs = [...answer.querySelectorAll("a")].map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["https://example.com/docs"]);
    expect(document.querySelector('a[href^="javascript:"]')).toBeNull();
    const link = answer.querySelector("a") as HTMLAnchorElement;
    expect(link.target).toBe("_blank");
    expect(link.rel).toBe("noopener noreferrer");
    expect(answer.textContent).toContain("click me");
  });
});

describe("seeing the agent as another user", () => {
  const user = (n: number): ScimUser => ({
    id: `u${n}`,
    userName: `user${n}@example.com`,
    displayName: `User ${n}`,
    email: `user${n}@example.com`,
    active: true,
  });

  it("picks a user from the tenant's users (paged with More) and sends their identity and attributes", async () => {
    const host = new FakeHost({
      settings: { ...CONNECTED, scimTokenSet: true },
      ask: answerWith("Filtered."),
      scimPages: [
        {
          users: Array.from({ length: 20 }, (_, i) => user(i + 1)),
          totalResults: 25,
          startIndex: 1,
          itemsPerPage: 20,
        },
        {
          users: Array.from({ length: 5 }, (_, i) => user(i + 21)),
          totalResults: 25,
          startIndex: 21,
          itemsPerPage: 5,
        },
      ],
    });
    const root = await open(host);
    await click(buttonByName(root, "See the agent as another user"));
    await waitFor(() => expect(root.textContent).toContain("20 of 25 users"));
    await click(buttonByName(root, "More"));
    await waitFor(() => expect(root.textContent).toContain("25 of 25 users"));
    expect(host.calls.listScimUsers).toEqual([
      { count: 20, startIndex: 1 },
      { count: 20, startIndex: 21 },
    ]);

    const picker = fieldByLabel(root, "User") as unknown as HTMLButtonElement;
    await click(picker);
    await settle();
    const option = [...document.querySelectorAll('[role="option"]')].find((o) =>
      o.textContent?.startsWith("User 23"),
    );
    await click(option as Element);
    await settle();
    expect(root.textContent).toContain("Answering as user23@example.com");

    await click(buttonByName(root, "Add attribute"));
    await typeInto(byAriaLabel(root, "Attribute 1 name"), "region");
    await typeInto(byAriaLabel(root, "Attribute 1 value"), "EMEA, APAC");
    await ask(root, "What can I see?");
    await waitFor(() => expect(host.calls.ask).toHaveLength(1));
    expect(host.calls.ask[0]?.sessionSettings).toEqual({
      externalId: "user23@example.com",
      email: "user23@example.com",
      userAttributes: [{ name: "region", value: ["EMEA", "APAC"] }],
    });

    await click(buttonByName(root, "Back to me"));
    expect(root.textContent).toContain("Answering as ann@example.com");
  });
});
