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
  await pane.getByRole("tab", { name: "Ask" }).click();
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
    // A javascript: link would run as the click's navigation, queued before this frame and task.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  });
});

describe("Settings", () => {
  test("Save and Back stay in view at the bottom of a short pane, and Enter in a field saves", async () => {
    const page = await open();
    await page.setViewportSize({ width: 1280, height: 520 });
    const pane = paneOf(page);
    await pane.getByRole("button", { name: "Settings", exact: true }).click();
    const body = await page.locator(".preview-pane-body").boundingBox();
    if (!body) throw new Error("the pane's body is not drawn");
    for (const name of ["Save", "Back"]) {
      const box = await pane.getByRole("button", { name, exact: true }).boundingBox();
      if (!box) throw new Error(`${name} is not drawn`);
      expect(box.y, name).toBeGreaterThanOrEqual(body.y);
      expect(box.y + box.height, name).toBeLessThanOrEqual(body.y + body.height + 0.5);
    }

    const email = pane.getByRole("textbox", { name: "E-mail" });
    await email.fill("ann.lee+pane@example.com");
    await email.press("Enter");
    // Saved: the pane goes back to the list; Settings shows the stored address when opened again.
    await pane.getByRole("button", { name: "Save", exact: true }).waitFor({ state: "detached" });
    await pane.getByRole("button", { name: "Settings", exact: true }).click();
    expect(await pane.getByRole("textbox", { name: "E-mail" }).inputValue()).toBe("ann.lee+pane@example.com");
  });
});

describe("the composer in a narrow pane", () => {
  test.each([300, 350])(
    "at %i px: Send and New conversation share one row, edges aligned with the question box",
    async (width) => {
      const page = await open();
      await page.evaluate((w) => document.documentElement.style.setProperty("--pane-width", `${w}px`), width);
      const pane = paneOf(page);
      expect(Math.round((await pane.boundingBox())?.width ?? 0)).toBe(width);
      await pane.getByRole("tab", { name: "Ask" }).click();
      const box = async (role: "button" | "textbox", name: string) => {
        const found = await pane.getByRole(role, { name, exact: true }).boundingBox();
        if (!found) throw new Error(`${name} is not drawn`);
        return found;
      };
      // The question box's frame is the Textarea's root, around the <textarea> by its border.
      const question = await pane
        .getByRole("textbox", { name: "Ask the agent" })
        .locator("xpath=..")
        .boundingBox();
      if (!question) throw new Error("the question box is not drawn");
      const send = await box("button", "Send");
      const fresh = await box("button", "New conversation");
      expect(fresh.y, "same row").toBeCloseTo(send.y, 0);
      expect(send.x + send.width, "no overlap").toBeLessThanOrEqual(fresh.x);
      expect(Math.abs(send.x - question.x), "left edges").toBeLessThanOrEqual(1);
      expect(
        Math.abs(fresh.x + fresh.width - (question.x + question.width)),
        "right edges",
      ).toBeLessThanOrEqual(1);
    },
  );
});

describe("the answer's steps in a narrow pane", () => {
  test("at 300 px: each step's dot sits under the disclosure's chevron, its text under the label", async () => {
    const page = await open();
    await page.evaluate(() => document.documentElement.style.setProperty("--pane-width", "300px"));
    await ask(page, "Which region grew fastest last quarter?");
    const disclosure = paneOf(page).getByRole("button", { name: /^\d+ steps?$/ });
    await disclosure.click();
    const geometry = await disclosure.evaluate((button) => {
      const list = document.getElementById(button.getAttribute("aria-controls") ?? "");
      const chevron = button.querySelector("svg")?.getBoundingClientRect();
      const label = document.createRange();
      const text = [...button.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (!list || !chevron || !text) throw new Error("the disclosure is not drawn");
      label.selectNodeContents(text);
      // A step: its mark (the dot, or a box around it) first, its text last.
      const mark = list.querySelector("li")?.firstElementChild;
      const dot = (mark?.firstElementChild ?? mark)?.getBoundingClientRect();
      const stepText = list.querySelector("li")?.lastElementChild?.getBoundingClientRect();
      if (!dot || !stepText) throw new Error("the steps are not drawn");
      return {
        chevronCentre: chevron.left + chevron.width / 2,
        dotCentre: dot.left + dot.width / 2,
        labelLeft: label.getBoundingClientRect().left,
        stepTextLeft: stepText.left,
      };
    });
    expect(Math.abs(geometry.dotCentre - geometry.chevronCentre), "dot under chevron").toBeLessThanOrEqual(1);
    expect(Math.abs(geometry.stepTextLeft - geometry.labelLeft), "text under label").toBeLessThanOrEqual(1);
  });
});
