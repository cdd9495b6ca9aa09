// The other half of `forwardTo()` in apps-script.ts: a worker thread that makes the HTTP requests
// the main thread posts, replies on the port, then wakes the main thread, which is blocked in
// Atomics.wait. So the fake UrlFetchApp.fetch can be synchronous, like the real one, and still reach
// the sandbox over loopback.
import { workerData } from "node:worker_threads";

const { signal, port } = workerData;

port.on("message", async (request) => {
  let reply;
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body ?? undefined,
      redirect: "manual",
    });
    const headers = {};
    response.headers.forEach((value, key) => {
      headers[key] = value;
    });
    reply = { ok: true, answer: { status: response.status, headers, body: await response.text() } };
  } catch (error) {
    reply = {
      ok: false,
      message: `${error?.message ?? error}${error?.cause ? ` (${error.cause.message ?? error.cause})` : ""}`,
    };
  }
  port.postMessage(reply);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
