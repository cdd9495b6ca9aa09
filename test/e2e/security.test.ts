/**
 * Security in a real Chromium against `startPreview`: the page's Content-Security-Policy
 * allows what the preview needs and stops injected code, and a secret typed into Settings never
 * shows up outside its masked field: not in the DOM, the accessibility tree, a URL or the console.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { demoSeed } from "../../src/sandbox/demo.js";
import { type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";
import { attemptInjection, cspOf, cspTagCount, cspViolations, recordCspViolations } from "../support/csp.js";

vi.setConfig({ testTimeout: 60_000 });

// Keys that appear nowhere in the code or the demo data, so any sighting is a leak.
const SECRET_API_KEY = "sk-e2e-Zq7Lw2Vn9Tk4Rb8M";
const WRONG_API_KEY = "sk-e2e-wrong-Hd3Fs6Pj1Xc5";
const SECRET_AGENT_KEY = "ak-e2e-Yp5Nr8Gm2Wq6";
const SECRETS = [SECRET_API_KEY, WRONG_API_KEY, SECRET_AGENT_KEY];

let session: E2eSession;

beforeAll(async () => {
  session = await startSession({
    chatDelayMs: 5,
    seed: () => {
      const seed = demoSeed(new Date());
      seed.apiKeys = [...(seed.apiKeys ?? []), { key: SECRET_API_KEY, deployments: "all" }];
      seed.agents = (seed.agents ?? []).map((a) => ({ ...a, apiKeys: [...a.apiKeys, SECRET_AGENT_KEY] }));
      return seed;
    },
  });
});

afterAll(async () => {
  await session?.close();
});

describe("Content-Security-Policy of the preview page", () => {
  test("the served page has one policy: its own origin and the sandbox on loopback, nothing else", async () => {
    const html = await (await fetch(session.preview.url)).text();
    expect(cspTagCount(html)).toBe(1);
    const policy = cspOf(html)!;
    expect(policy.get("default-src")).toEqual(["'none'"]);
    expect(policy.get("script-src")).toEqual(["'self'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
    expect(policy.get("connect-src")).toEqual([
      "'self'",
      "http://127.0.0.1:*",
      "http://localhost:*",
      "ws://127.0.0.1:*",
      "ws://localhost:*",
    ]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'none'"]);
    expect(policy.get("form-action")).toEqual(["'none'"]);
    // The sandbox the page talks to is inside it.
    expect(new URL(session.preview.sandboxUrl).hostname).toBe("127.0.0.1");
  });

  test("the policy lets the pane work (list, agent) and stops injected code and requests elsewhere", async () => {
    const page = await session.openPreview("", { prepare: recordCspViolations });
    await waitForPlacements(page);
    const answer = await ask(page, "Which region had the highest revenue in Q3?");
    expect(answer).toContain("North America");
    expect(await cspViolations(page)).toEqual([]);

    const outcome = await attemptInjection(page, "https://collector.example/steal");
    expect(outcome).toEqual({ ran: undefined, fetched: false });
    const violations = await cspViolations(page);
    expect(violations.map((v) => v.directive)).toEqual(
      expect.arrayContaining(["script-src-attr", "script-src-elem", "connect-src"]),
    );
    expect(violations).toContainEqual({
      directive: "connect-src",
      blockedURI: "https://collector.example/steal",
    });
  });
});

describe("secrets", () => {
  test("a key typed into Settings appears only in its masked field, and after saving nowhere in the page, URLs or console", async () => {
    const urls: string[] = [];
    const logs: string[] = [];
    const authorizations: string[] = [];
    const page = await session.openPreview("", {
      prepare(tab) {
        tab.on("request", (request) => {
          urls.push(request.url());
          const auth = request.headers().authorization;
          if (auth) authorizations.push(auth);
        });
        tab.on("console", (message) => logs.push(message.text()));
        tab.on("pageerror", (error) => logs.push(`${error.message}\n${error.stack ?? ""}`));
      },
    });
    await waitForPlacements(page);
    const pane = paneOf(page);

    // A wrong key first: the refusal says what to do and does not repeat the key.
    await openSettings(page);
    await pane.getByLabel("API key", { exact: true }).fill(WRONG_API_KEY);
    await expectOnlyInPasswordFields(page, WRONG_API_KEY);
    await pane.getByRole("button", { name: "Save" }).click();
    const refusal = pane.getByText(/API key was refused \(401\)/).first();
    await refusal.waitFor();
    await expectNowhereInPage(page, WRONG_API_KEY);

    // Then the right keys, for the API and for the agent.
    await openSettings(page);
    await pane.getByLabel("API key", { exact: true }).fill(SECRET_API_KEY);
    await pane.getByLabel("Agent API key", { exact: true }).fill(SECRET_AGENT_KEY);
    await expectOnlyInPasswordFields(page, SECRET_API_KEY);
    await expectOnlyInPasswordFields(page, SECRET_AGENT_KEY);
    await pane.getByRole("button", { name: "Save" }).click();
    await waitForPlacements(page);
    await expect.poll(() => pane.getByText(/API key was refused/).count()).toBe(0);
    // The keys are in use (the sandbox knows no other way to accept them)...
    expect(authorizations).toContain(`Bearer ${SECRET_API_KEY}`);
    const answer = await ask(page, "Revenue by region in Q3?");
    expect(answer).toContain("North America");
    expect(authorizations).toContain(`Api-Key ${SECRET_AGENT_KEY}`);

    // ...and shown nowhere: the masked fields were emptied on save.
    await openSettings(page);
    expect(await pane.getByLabel("API key", { exact: true }).getAttribute("placeholder")).toMatch(
      /A key is set/,
    );
    // (The checks do see field values: the tenant URL, not a secret, is found in all of them.)
    expect(await sightings(page, session.preview.sandboxUrl)).toEqual(
      expect.arrayContaining(["outerHTML", "accessibility tree", "value of <input type=url>"]),
    );
    for (const secret of SECRETS) await expectNowhereInPage(page, secret);
    await page.reload();
    await waitForPlacements(page);
    for (const secret of SECRETS) await expectNowhereInPage(page, secret);

    expect(urls.length).toBeGreaterThan(5);
    for (const secret of SECRETS) {
      expect(urls.filter((u) => u.includes(secret))).toEqual([]);
      expect(logs.filter((l) => l.includes(secret))).toEqual([]);
      expect(page.url()).not.toContain(secret);
    }

    // The preview keeps the saved keys in the tab's sessionStorage under its one settings key (gone
    // when the tab closes), and nothing else holds them: not localStorage, not a cookie.
    const storage = await page.evaluate(() => ({
      local: Object.entries(localStorage),
      session: Object.entries(sessionStorage),
      cookie: document.cookie,
    }));
    const holding = storage.session.filter(([, value]) => SECRETS.some((s) => value.includes(s)));
    expect(holding.map(([key]) => key)).toEqual([
      `rp-preview:${new URL(session.preview.sandboxUrl).host}:settings`,
    ]);
    expect(holding[0]?.[1]).toContain(SECRET_API_KEY);
    expect(holding[0]?.[1]).not.toContain(WRONG_API_KEY);
    for (const [key] of storage.session) for (const s of SECRETS) expect(key).not.toContain(s);
    expect(JSON.stringify(storage.local)).not.toMatch(/sk-e2e|ak-e2e/);
    expect(storage.cookie).not.toMatch(/sk-e2e|ak-e2e/);
  });
});

async function openSettings(page: Page) {
  const pane = paneOf(page);
  const form = pane.getByRole("form", { name: "Settings" });
  if ((await form.count()) === 0) await pane.getByRole("button", { name: "Settings" }).click();
  await form.waitFor();
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

/** Where `secret` occurs in the document: markup, attributes, form values, accessibility tree. */
async function sightings(page: Page, secret: string) {
  const dom = await page.evaluate((s) => {
    const found: string[] = [];
    if (document.documentElement.outerHTML.includes(s)) found.push("outerHTML");
    if ((document.body.innerText ?? "").includes(s)) found.push("text");
    for (const element of document.querySelectorAll("*")) {
      for (const attribute of element.attributes) {
        if (attribute.value.includes(s)) {
          const input = element instanceof HTMLInputElement ? element : null;
          found.push(
            `attribute ${attribute.name} of <${element.localName}${input ? ` type=${input.type}` : ""}>`,
          );
        }
      }
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
        if (element.value.includes(s)) found.push(`value of <${element.localName} type=${element.type}>`);
      }
    }
    return found;
  }, secret);
  // The browser's own accessibility tree, what assistive technology reads (Playwright's
  // ariaSnapshot is computed by Playwright from the DOM and shows a password field's raw value).
  const cdp = await page.context().newCDPSession(page);
  try {
    const tree = await cdp.send("Accessibility.getFullAXTree");
    if (tree.nodes.length < 20) dom.push("accessibility tree too small to be the page's");
    if (JSON.stringify(tree).includes(secret)) dom.push("accessibility tree");
  } finally {
    await cdp.detach();
  }
  return dom;
}

/**
 * The secret is only where the user typed it: a password field's value property. Not its `value`
 * attribute (a controlled React input mirrors its value there), so not the markup either.
 */
async function expectOnlyInPasswordFields(page: Page, secret: string) {
  const found = await sightings(page, secret);
  expect(found).toEqual(["value of <input type=password>"]);
  const attributes = await page.evaluate(
    (s) => [...document.querySelectorAll("input")].filter((i) => i.getAttribute("value")?.includes(s)).length,
    secret,
  );
  expect(attributes).toBe(0);
}

async function expectNowhereInPage(page: Page, secret: string) {
  expect(await sightings(page, secret), secret).toEqual([]);
}
