/**
 * Hostile cases through the pane, in a real Chromium against `startPreview`: the agent's
 * stream failing in each way the sandbox can script, double actions on `Disconnect report here`
 * while the first is still in flight, and broken answers to the reports list. In every case the
 * pane says what happened and stays usable; it never goes blank.
 */
import type { Page, Request, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { DEMO_API_KEY } from "../../src/sandbox/demo.js";
import {
  cell,
  type E2eSession,
  paneOf,
  placementItem,
  startSession,
  waitForPlacements,
} from "../support/browser.js";

vi.setConfig({ testTimeout: 60_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession({ chatDelayMs: 5 });
});

afterAll(async () => {
  await session?.close();
});

const NORMAL_QUESTION = "Which region had the highest revenue in Q3?";

async function open(prepare?: (page: Page) => Promise<void> | void): Promise<Page> {
  const page = await session.openPreview("", prepare ? { prepare } : {});
  await waitForPlacements(page);
  return page;
}

function conversation(page: Page) {
  return paneOf(page).getByRole("region", { name: "Conversation" });
}

/** Sends a question and waits until its turn is no longer streaming; returns that turn's element. */
async function send(page: Page, question: string) {
  const pane = paneOf(page);
  await pane.getByRole("tab", { name: "Ask" }).click();
  await pane.getByRole("textbox", { name: "Ask the agent" }).fill(question);
  await pane.getByRole("button", { name: "Send" }).click();
  return conversation(page).getByText(question, { exact: true }).locator("..");
}

async function askNormally(page: Page): Promise<string> {
  const pane = paneOf(page);
  const before = await pane.locator('[data-answer-status="done"]').count();
  await send(page, NORMAL_QUESTION);
  const answer = pane.locator('[data-answer-status="done"]').nth(before);
  await answer.waitFor({ timeout: 30_000 });
  return (await answer.textContent()) ?? "";
}

function chatPosts(page: Page): { path: string; body: Record<string, unknown> }[] {
  const posts: { path: string; body: Record<string, unknown> }[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && request.url().includes("/chat/")) {
      posts.push({ path: new URL(request.url()).pathname, body: request.postDataJSON() ?? {} });
    }
  });
  return posts;
}

describe("the agent's stream through the pane (sandbox trigger words), one conversation", () => {
  // One page for the whole conversation: each failure must leave the pane usable for the next turn.
  let page: Page;
  let posts: { path: string; body: Record<string, unknown> }[];

  beforeAll(async () => {
    page = await open((tab) => {
      posts = chatPosts(tab);
    });
  });

  test("an error line mid-stream: a clear inline error, then the next question is answered", async () => {
    const turn = await send(page, "trigger:error How did revenue do?");
    const error = turn.getByText(/^.+\. The agent stopped with an error\. Ask again/);
    await error.waitFor();
    expect(await turn.locator('[data-answer-status="done"]').count()).toBe(0);

    expect(await askNormally(page)).toContain("North America");
  });

  test("__suspended__: the pane resumes the same request once and shows the whole answer", async () => {
    posts.length = 0;
    const turn = await send(page, "trigger:suspend Which region had the highest revenue in Q3?");
    const answer = turn.locator('[data-answer-status="done"]');
    await answer.waitFor({ timeout: 30_000 });
    expect(await answer.textContent()).toContain("North America");
    const asks = posts.filter((p) => p.path.endsWith("/chat/stream-chat-state"));
    expect(asks).toHaveLength(2);
    expect(asks[1]?.body.messageId).toBe(asks[0]?.body.messageId);
    expect(asks[1]?.body.input).toBe(asks[0]?.body.input);
    expect(asks[1]?.body.chatId).toBeTruthy();
    expect(await turn.getByText(/error/i).count()).toBe(0);

    expect(await askNormally(page)).toContain("Following up on your earlier question");
  });

  test("a malformed line between good ones is skipped: the answer is whole, no error", async () => {
    const turn = await send(page, "trigger:malformed Which region had the highest revenue in Q3?");
    const answer = turn.locator('[data-answer-status="done"]');
    await answer.waitFor({ timeout: 30_000 });
    const text = (await answer.textContent()) ?? "";
    expect(text).toContain("North America");
    expect(text).toContain("Answered for ann.lee@example.com");
    expect(await turn.getByText(/error/i).count()).toBe(0);

    expect(await askNormally(page)).toContain("North America");
  });

  test("Stop while a slow answer streams: the run is aborted at the service, the turn says Stopped, the pane goes on", async () => {
    posts.length = 0;
    const turn = await send(page, "trigger:slow Which region had the highest revenue in Q3?");
    const streaming = turn.locator('[data-answer-status="streaming"]');
    // Wait for the first piece of the answer, so the stream is really under way.
    await expect
      .poll(async () => ((await streaming.count()) ? ((await streaming.textContent()) ?? "") : ""))
      .not.toBe("");
    await paneOf(page).getByRole("button", { name: "Stop" }).click();

    await turn.locator('[data-answer-status="stopped"]').waitFor({ timeout: 10_000 });
    expect(await turn.getByText("Stopped.", { exact: true }).count()).toBe(1);
    await expect.poll(() => posts.filter((p) => p.path.endsWith("/chat/abort")).length).toBe(1);
    const ask = posts.find((p) => p.path.endsWith("/chat/stream-chat-state"));
    const abort = posts.find((p) => p.path.endsWith("/chat/abort"));
    expect(abort?.body.chatId).toBeTruthy();
    expect(abort?.body.chatId).toBe(ask?.body.chatId);

    const started = Date.now();
    expect(await askNormally(page)).toContain("North America");
    // The next answer did not wait for the stopped one's remaining pieces (1.5 s apart).
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(await turn.locator('[data-answer-status="stopped"]').count()).toBe(1);
  });
});

/**
 * Holds each DELETE connect-workbook until `release()` and counts them: the second action of a test
 * happens while the first DELETE is certainly still on its way, however slow the machine.
 */
async function heldDisconnects(page: Page): Promise<{ count: number; release(): void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const seen = { count: 0, release };
  await page.route(
    (url) => url.pathname.endsWith("/connect-workbook"),
    async (route: Route) => {
      if (route.request().method() !== "DELETE") return route.fallback();
      seen.count += 1;
      await released;
      return route.continue();
    },
  );
  return seen;
}

async function expectListAfterDisconnectingSummaryB2(page: Page) {
  await expect.poll(() => placementItem(page, "Summary!B2:F8").count()).toBe(0);
  expect(await placementItem(page, "'Q1 Sales'!B18:F24").count()).toBe(1);
  expect(await placementItem(page, "Summary!H2:J12").count()).toBe(1);
  expect(await placementItem(page, "Summary!B12:D25").count()).toBe(1);
}

/** The placement ids report 101 has at the service now (it starts with three). */
async function placementIdsOf101(): Promise<(string | null)[]> {
  const response = await fetch(`${session.preview.sandboxUrl}/api/v1/deployments/1/reports/101`, {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  const report = (await response.json()) as { externalWorkbookPlacements: { id?: string | null }[] };
  return report.externalWorkbookPlacements.map((p) => p.id ?? null);
}

describe("double actions on Disconnect report here", () => {
  test("a double-click sends one DELETE; the list and the service end right", async () => {
    const page = await open();
    const deletes = await heldDisconnects(page);
    await cell(page, "C4").click();
    const button = paneOf(page).getByRole("button", { name: "Disconnect report here" });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await button.dblclick();
    // Both clicks are in while the first DELETE is held; then it may answer.
    await expect.poll(() => deletes.count).toBe(1);
    deletes.release();

    await page
      .getByText("Disconnected Revenue by Region from Summary!B2:F8; the cells keep their values.")
      .first()
      .waitFor();
    await expectListAfterDisconnectingSummaryB2(page);
    expect(deletes.count).toBe(1);
    expect(await placementIdsOf101()).toEqual(["plc-101-q1", "plc-101-board"]);
  });

  test("the cell's right-click command during an in-flight disconnect joins it: one DELETE, one outcome", async () => {
    const page = await open();
    const deletes = await heldDisconnects(page);
    await cell(page, "C4").click();
    await paneOf(page).getByRole("button", { name: "Disconnect report here" }).click();
    await expect.poll(() => deletes.count).toBe(1);

    // The first DELETE is still on its way (held): the same command from the cell's menu.
    await cell(page, "C4").click({ button: "right" });
    const menu = page.getByRole("menu");
    await menu.getByRole("menuitem", { name: "Disconnect report here" }).click();
    await menu.waitFor({ state: "hidden" });
    deletes.release();
    const status = page
      .getByRole("region", { name: "Workbook", exact: true })
      .getByRole("status")
      .filter({ hasText: /Disconnected|already|progress/i });
    await status.first().waitFor({ timeout: 10_000 });
    expect(await status.first().textContent()).toMatch(/Revenue by Region/);

    await expectListAfterDisconnectingSummaryB2(page);
    expect(deletes.count).toBe(1);
    expect(await placementIdsOf101()).toEqual(["plc-101-q1", "plc-101-board"]);
  });
});

/** Answers the reports list (GET .../reports) with `answer` while `active.on`; the rest goes through. */
async function breakReportsList(
  page: Page,
  answer: (route: Route) => Promise<void>,
): Promise<{ on: boolean; hits: number }> {
  const state = { on: true, hits: 0 };
  await page.route(
    (url) => /\/api\/v1\/deployments\/\d+\/reports$/.test(url.pathname),
    async (route: Route) => {
      if (!state.on || route.request().method() !== "GET") return route.fallback();
      state.hits += 1;
      return answer(route);
    },
  );
  return state;
}

/** The pane shows something: its header and some message or list, never an empty body. */
async function expectNotBlank(page: Page) {
  const main = paneOf(page).getByRole("main");
  const text = ((await main.textContent()) ?? "").trim();
  expect(text.length).toBeGreaterThan(20);
  expect(
    await paneOf(page)
      .getByText(/Something went wrong/i)
      .count(),
  ).toBe(0);
}

describe("broken answers to the reports list: never a blank pane", () => {
  test("a Report missing required fields among good ones: the good ones are listed, with a warning", async () => {
    const page = await open(async (tab) => {
      await breakReportsList(tab, async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { items: Record<string, unknown>[] };
        for (const item of body.items) {
          if (item.id === 103) {
            delete item.name;
            item.externalWorkbookPlacements = "garbage";
          }
          if (item.id === 112) item.type = 42;
        }
        await route.fulfill({ response, json: body });
      });
    });
    const warning = paneOf(page).getByText("2 reports could not be shown.");
    await warning.waitFor();
    expect(await placementItem(page, "Summary!B2:F8").count()).toBe(1);
    expect(await placementItem(page, "'Q1 Sales'!B2:E14").count()).toBe(1);
    expect(await placementItem(page, "Summary!H2:J12").count()).toBe(0);
    expect(await placementItem(page, "Summary!H14:K20").count()).toBe(0);
    await expectNotBlank(page);
  });

  test("a 200 that is not JSON: an error with Retry; Retry lists the reports once the service is right again", async () => {
    const page = await session.openPreview("", {
      async prepare(tab) {
        await breakReportsList(tab, (route) =>
          route.fulfill({ status: 200, contentType: "application/json", body: '{"items": [ {"id": 1,' }),
        );
      },
    });
    const failure = paneOf(page).getByText("The reports could not be loaded.");
    await failure.waitFor({ timeout: 20_000 });
    await expectNotBlank(page);
    await paneOf(page).getByRole("tab", { name: "Ask" }).click();
    expect(
      await paneOf(page)
        .getByRole("heading", { name: /Agent chat/ })
        .count(),
    ).toBe(1);

    await page.unrouteAll({ behavior: "ignoreErrors" });
    await paneOf(page).getByRole("tab", { name: "Reports" }).click();
    await paneOf(page).getByRole("button", { name: "Retry" }).click();
    await waitForPlacements(page);
    expect(await failure.count()).toBe(0);
  });

  test("a 502 with a proxy's HTML page: retried, then an error naming the status (no HTML), with Retry", async () => {
    let state: { on: boolean; hits: number } | undefined;
    const page = await session.openPreview("", {
      async prepare(tab) {
        state = await breakReportsList(tab, (route) =>
          route.fulfill({
            status: 502,
            contentType: "text/html",
            body: "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><script>alert(1)</script></body></html>",
          }),
        );
      },
    });
    const failure = paneOf(page).getByText("The reports could not be loaded.");
    await failure.waitFor({ timeout: 20_000 });
    await expectNotBlank(page);
    // The title and the message share the bar's body.
    const message = (await failure.locator("..").textContent()) ?? "";
    expect(message).toMatch(/502/);
    expect(message).not.toMatch(/<\/?(html|body|h1|script)/i);
    expect(state?.hits).toBeGreaterThan(1); // a 5xx is worth a bounded retry

    state!.on = false;
    await paneOf(page).getByRole("button", { name: "Retry" }).click();
    await waitForPlacements(page);
    expect(await failure.count()).toBe(0);
  });
});
