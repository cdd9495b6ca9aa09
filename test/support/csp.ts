/**
 * Reading a page's Content-Security-Policy from its `<meta http-equiv>` tag, and what a page's
 * policy violations look like in Chromium (collected by `recordCspViolations`).
 */
import type { Page } from "playwright-core";

/** The policy of the page's CSP meta tag, directive name to its values; null without one. */
export function cspOf(html: string): Map<string, string[]> | null {
  const tags = [...html.matchAll(/<meta\b[^>]*>/gi)].map((m) => m[0]);
  const tag = tags.find((t) => /http-equiv\s*=\s*["']?content-security-policy/i.test(t));
  if (!tag) return null;
  const content = /\scontent\s*=\s*"([^"]*)"/i.exec(tag)?.[1] ?? /\scontent\s*=\s*'([^']*)'/i.exec(tag)?.[1];
  if (content === undefined) return null;
  const policy = new Map<string, string[]>();
  for (const part of content.split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (!name) continue;
    // CSP: a repeated directive is ignored; the first one counts.
    if (!policy.has(name.toLowerCase())) policy.set(name.toLowerCase(), values);
  }
  return policy;
}

/** How many CSP meta tags the page has (more than one would combine into a stricter policy). */
export function cspTagCount(html: string): number {
  return [...html.matchAll(/<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy[^>]*>/gi)].length;
}

export interface CspViolation {
  directive: string;
  blockedURI: string;
}

/**
 * Collects the page's `securitypolicyviolation` events into `window.__cspViolations`, from the
 * first script on (call before `goto`).
 */
export async function recordCspViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: { directive: string; blockedURI: string }[] = [];
    (window as unknown as { __cspViolations: typeof seen }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI });
    });
  });
}

export function cspViolations(page: Page): Promise<CspViolation[]> {
  return page.evaluate(
    () => (window as unknown as { __cspViolations?: CspViolation[] }).__cspViolations ?? [],
  );
}

/**
 * Tries, from inside the page, what an injected payload would: an inline event handler, an inline
 * script, and a request to `forbiddenUrl`. Resolves with what got through, once each attempt has
 * ended: the image's own load or error event has fired (after the inline handlers would have run),
 * and every attempt the policy stopped has been reported as a violation (so `cspViolations` holds
 * it). Positive signals throughout: no wait for a time in which a handler "would have" run.
 */
export async function attemptInjection(
  page: Page,
  forbiddenUrl: string,
): Promise<{ ran: unknown; fetched: boolean }> {
  return page.evaluate(async (target) => {
    const w = window as unknown as { __injected?: unknown };
    const reported = new Set<string>();
    let onReport = () => {};
    document.addEventListener("securitypolicyviolation", (event) => {
      reported.add(event.effectiveDirective);
      onReport();
    });
    const reportOf = (directive: string) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (reported.has(directive)) resolve();
        };
        const before = onReport;
        onReport = () => {
          before();
          check();
        };
        check();
      });
    const holder = document.createElement("div");
    holder.innerHTML = `<img alt="" src="data:," onerror="window.__injected='handler'" onload="window.__injected='handler'">`;
    // The image's own load or error event, heard by a listener the policy allows: the inline
    // handlers, had the policy let them run, ran before it (they were attached first).
    const settled = new Promise((resolve) => {
      const img = holder.querySelector("img")!;
      img.addEventListener("load", resolve, { once: true });
      img.addEventListener("error", resolve, { once: true });
    });
    document.body.append(holder);
    const script = document.createElement("script");
    script.textContent = "window.__injected = 'script';";
    document.body.append(script);
    let fetched = false;
    try {
      await fetch(target, { mode: "no-cors" });
      fetched = true;
    } catch {
      fetched = false;
    }
    await settled;
    // What the policy stopped, it reports (CSP: "report a violation" for each blocked attempt).
    if (w.__injected === undefined)
      await Promise.all([reportOf("script-src-attr"), reportOf("script-src-elem")]);
    if (!fetched) await reportOf("connect-src");
    holder.remove();
    script.remove();
    return { ran: w.__injected, fetched };
  }, forbiddenUrl);
}
