/**
 * Settings as a keyboard user meets it in a real Chromium (the preview): opening it puts focus inside
 * it, Save keeps focus on a control, a refused key opens Settings at that key, Back with changes not
 * saved asks first, and Done saves what changed since the last Save.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { type E2eSession, paneOf, startSession, waitForPlacements } from "../support/browser.js";

vi.setConfig({ testTimeout: 90_000 });

let session: E2eSession;

beforeAll(async () => {
  session = await startSession();
});

afterAll(async () => {
  await session?.close();
});

async function open(): Promise<Page> {
  const page = await session.openPreview("?width=350");
  await waitForPlacements(page);
  return page;
}

/** What has focus: its tag and accessible name as far as the DOM tells ("BODY" when nothing does). */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "BODY";
    const labelledBy = el.getAttribute("aria-labelledby");
    const byId = labelledBy ? document.getElementById(labelledBy.split(" ")[0] ?? "")?.textContent : null;
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    const name = el.getAttribute("aria-label") ?? label ?? byId ?? el.textContent?.trim().slice(0, 40) ?? "";
    return `${el.tagName} ${name}`.trim();
  });
}

async function openSettingsByGear(page: Page) {
  const pane = paneOf(page);
  await pane.getByRole("button", { name: "Settings" }).click();
  await pane.getByRole("heading", { name: "Settings" }).waitFor();
  await expect.poll(() => focused(page)).toBe("H2 Settings");
}

describe("Settings and focus", () => {
  test("the gear puts focus on Settings' heading, and Escape from there goes back to the list", async () => {
    const page = await open();
    await openSettingsByGear(page);
    await page.keyboard.press("Escape");
    await paneOf(page).getByRole("heading", { name: "Settings" }).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).not.toBe("BODY");
  });

  test("Save, which goes back to the list, leaves focus on the Settings button, never the page", async () => {
    const page = await open();
    await openSettingsByGear(page);
    const pane = paneOf(page);
    // A change that keeps Settings open after the Save: the deployment is kept, so the pane goes
    // back to the list; the E-mail is a field whose change is harmless.
    await pane.getByLabel("E-mail").fill("ann@example.com");
    await pane.getByRole("button", { name: "Save" }).focus();
    await page.keyboard.press("Enter");
    await pane.getByRole("heading", { name: "Settings" }).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).toBe("BUTTON Settings");
  });

  test("Back with a change not saved asks first: Keep editing keeps it, Discard changes drops it", async () => {
    const page = await open();
    await openSettingsByGear(page);
    const pane = paneOf(page);
    await pane.getByLabel("External ID").fill("someone-else");
    await pane.getByRole("button", { name: "Back" }).click();
    await expect.poll(() => focused(page)).toBe("BUTTON Discard changes");
    expect(await pane.getByText("Your changes are not saved.").isVisible()).toBe(true);
    await pane.getByRole("button", { name: "Keep editing" }).click();
    expect(await pane.getByLabel("External ID").inputValue()).toBe("someone-else");
    await expect.poll(() => focused(page)).not.toBe("BODY");

    await pane.getByRole("button", { name: "Back" }).click();
    await pane.getByRole("button", { name: "Discard changes" }).click();
    await pane.getByRole("heading", { name: "Settings" }).waitFor({ state: "detached" });
    await expect.poll(() => focused(page)).not.toBe("BODY");
    await openSettingsByGear(page);
    expect(await pane.getByLabel("External ID").inputValue()).not.toBe("someone-else");
  });

  test("a refused API key: Open settings puts focus in the API key, the one field marked", async () => {
    const page = await open();
    await openSettingsByGear(page);
    const pane = paneOf(page);
    await pane.getByLabel("API key", { exact: true }).fill("not-a-key-of-this-tenant");
    await pane.getByRole("button", { name: "Save" }).click();
    const openSettings = pane.getByRole("button", { name: "Open settings" });
    await openSettings.waitFor();
    await openSettings.click();
    await pane.getByRole("heading", { name: "Settings" }).waitFor();
    await expect.poll(() => focused(page)).toBe("INPUT API key");
    const marked = pane.locator('[aria-invalid="true"]');
    await expect.poll(() => marked.count()).toBe(1);
    expect(await marked.getAttribute("placeholder")).toMatch(/A key is set/);
    // Opening Settings asks for the deployments again ("Loading deployments…" meanwhile): the hint
    // says why there are none once the service has refused the key again.
    await expect
      .poll(() => pane.getByText("Deployments are listed once the API key is accepted.").count())
      .toBe(1);
  });
});
