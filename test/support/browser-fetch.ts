/**
 * `fetch` as a browser page at `pageOrigin` sees it, for Node tests: a call to another origin is
 * preflighted when the request is not "simple" (Authorization always makes it so), and an answer
 * (or preflight) without an `Access-Control-Allow-Origin` that admits the page fails with a
 * TypeError and no response, which is all a page learns of a CORS refusal (Fetch standard, CORS
 * check). A request with `redirect: "manual"` that is answered with a 3xx gets what a browser gives
 * a page: an opaque-redirect response (type "opaqueredirect", status 0, no headers, no body), the
 * target unreadable (Fetch standard, HTTP fetch: redirect mode "manual"). Every URL asked is
 * recorded with its method.
 */
const SIMPLE_METHODS = new Set(["GET", "HEAD", "POST"]);
const SIMPLE_HEADERS = new Set(["accept", "accept-language", "content-language"]);
const SIMPLE_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"];

export interface BrowserFetch {
  fetch: typeof fetch;
  /** "METHOD url" of every request the page made (preflights not included). */
  asked: string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What a page's fetch returns for a redirect it was told not to follow. */
async function asPageSees(response: Response, init: RequestInit): Promise<Response> {
  if (init.redirect !== "manual" || !REDIRECT_STATUSES.has(response.status)) return response;
  await response.body?.cancel();
  const opaque = new Response(null, { status: 200 });
  Object.defineProperties(opaque, {
    type: { value: "opaqueredirect" },
    status: { value: 0 },
    ok: { value: false },
    statusText: { value: "" },
  });
  return opaque;
}

function failed(): TypeError {
  return new TypeError("Failed to fetch");
}

export function browserFetch(pageOrigin: string): BrowserFetch {
  const asked: string[] = [];
  const admits = (response: Response) => {
    const allow = response.headers.get("access-control-allow-origin");
    return allow === "*" || allow === pageOrigin;
  };
  const pageFetch: typeof fetch = async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? "GET").toUpperCase();
    asked.push(`${method} ${url.href}`);
    if (url.origin === pageOrigin) return asPageSees(await fetch(url, init), init);
    const headers = new Headers(init.headers);
    const names = [...headers.keys()];
    const type = headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
    const simple =
      SIMPLE_METHODS.has(method) &&
      names.every(
        (n) => SIMPLE_HEADERS.has(n) || (n === "content-type" && SIMPLE_TYPES.includes(type ?? "")),
      );
    if (!simple) {
      const preflight = await fetch(url, {
        method: "OPTIONS",
        headers: {
          Origin: pageOrigin,
          "Access-Control-Request-Method": method,
          "Access-Control-Request-Headers": names.join(","),
        },
      }).catch(() => {
        throw failed();
      });
      await preflight.arrayBuffer();
      if (!preflight.ok || !admits(preflight)) throw failed();
    }
    headers.set("Origin", pageOrigin);
    const response = await fetch(url, { ...init, headers }).catch((error) => {
      if (init.signal?.aborted) throw error;
      throw failed();
    });
    if (!admits(response)) {
      await response.body?.cancel();
      throw failed();
    }
    return asPageSees(response, init);
  };
  return { fetch: pageFetch, asked };
}
