/**
 * Asking the deployment's agent from the pane, in a real Chromium against `startPreview`: the answer
 * streams in, a follow-up continues the conversation, and what the agent echoes back is rendered
 * inert (no raw HTML, no `javascript:` links).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 60_000 });

let session: E2eSession;

beforeAll(async () => {
  // Slow enough pieces that the stream is seen growing.
  session = await startSession({ chatDelayMs: 60 });
});

afterAll(async () => {
  await session?.close();
});

async function open(): Promise<Page> {
  const page = await session.openPreview();
  await waitForPlacements(page);
  return page;
}

/** Records the last answer's status and text length at every change of the page. */
async function recordAnswers(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __answers: string[] }).__answers = seen;
    new MutationObserver(() => {
      const all = document.querySelectorAll("[data-answer-status]");
      const last = all[all.length - 1];
      if (last) seen.push(`${last.getAttribute("data-answer-status")}|${last.textContent?.length ?? 0}`);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

async function ask(page: Page, question: string): Promise<string> {
  const pane = paneOf(page);
  const before = await pane.locator('[data-answer-status="done"]').count();
  await pane.getByRole("textbox", { name: "Ask the agent" }).fill(question);
  await pane.getByRole("button", { name: "Send" }).click();
  const answer = pane.locator('[data-answer-status="done"]').nth(before);
  await answer.waitFor({ timeout: 30_000 });
  return (await answer.textContent()) ?? "";
}

function chatRequests(page: Page): { chatId?: string; input?: string }[] {
  const bodies: { chatId?: string; input?: string }[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith("/chat/stream-chat-state")) {
      bodies.push(request.postDataJSON());
    }
  });
  return bodies;
}

describe("Ask the agent", () => {
  test("the answer streams in as it arrives, and a follow-up keeps the conversation", async () => {
    const page = await open();
    const requests = chatRequests(page);
    await recordAnswers(page);

    const first = await ask(page, "Which region had the highest revenue in Q3?");
    expect(first).toContain("North America");
    expect(first).toContain("Answered for ann.lee@example.com");

    // Streaming: the answer was shown, and grew, before it was complete.
    const seen = await page.evaluate(() => (window as unknown as { __answers: string[] }).__answers);
    const partial = new Set(
      seen.filter((s) => s.startsWith("streaming|") && !s.endsWith("|0")).map((s) => s.split("|")[1]),
    );
    expect(partial.size).toBeGreaterThanOrEqual(2);

    const second = await ask(page, "And what about Europe?");
    expect(second).toContain("Following up on your earlier question");
    expect(second).toContain("Which region had the highest revenue in Q3?");
    expect(second).toContain("Europe");
    expect(requests).toHaveLength(2);
    expect(requests[1]?.chatId).toBeTruthy();
    expect(requests[1]?.chatId).toBe(requests[0]?.chatId ?? requests[1]?.chatId);

    // A new conversation starts over: the agent no longer knows the earlier questions.
    await paneOf(page).getByRole("button", { name: "New conversation" }).click();
    const fresh = await ask(page, "What did I ask so far?");
    expect(fresh).toContain("This is the first question of this conversation.");
  });

  test("markup and javascript: links the agent echoes back are shown inert", async () => {
    const page = await open();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const payload =
      'Revenue <img src=x onerror="window.__xss=1;alert(1)"> [open the report](javascript:window.__xss=2) <script>window.__xss=3</script>';
    await ask(page, payload);
    // The scripted agent echoes earlier questions back, as markdown, in a recap.
    const recap = await ask(page, "What did I ask so far?");
    expect(recap).toContain("You asked, in order:");
    expect(recap).toContain("open the report");

    const conversation = paneOf(page).getByRole("region", { name: "Conversation" });
    expect(await conversation.locator("img").count()).toBe(0);
    expect(await conversation.locator("script").count()).toBe(0);
    expect(await conversation.locator("[onerror]").count()).toBe(0);
    const hrefs = await conversation
      .locator("a")
      .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
    for (const href of hrefs) expect(href.trim().toLowerCase()).not.toMatch(/^(javascript|data|vbscript):/);

    // Clicking what the link text became does nothing either.
    await conversation.getByText("open the report").last().click();
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});
