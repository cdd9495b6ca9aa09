/**
 * A FetchHandler for the Apps Script fakes (apps-script.ts) that makes the request for real over
 * loopback, synchronously, so the same flows run against the sandbox: UrlFetchApp is synchronous,
 * and so must the fake be. A worker thread fetches while the test blocks in Atomics.wait.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { FetchAnswer, FetchHandler } from "./apps-script.js";

const HERE = dirname(fileURLToPath(import.meta.url));

let fetchWorker: { port: MessagePort; signal: Int32Array } | null = null;

type MessagePort = import("node:worker_threads").MessagePort;

function startFetchWorker(): { port: MessagePort; signal: Int32Array } {
  if (fetchWorker) return fetchWorker;
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(join(HERE, "sync-fetch-worker.mjs"), {
    workerData: { signal, port: port2 },
    transferList: [port2],
  });
  worker.unref();
  port1.unref();
  fetchWorker = { port: port1, signal };
  return fetchWorker;
}

/**
 * A FetchHandler that performs the request for real (loopback), synchronously: UrlFetchApp is
 * synchronous, and so must the fake be. A worker thread fetches; this thread waits for its reply.
 */
export function forwardTo(): FetchHandler {
  return (request) => {
    const { port, signal } = startFetchWorker();
    const headers: Record<string, string> = { ...request.headers };
    if (request.contentType) headers["Content-Type"] = request.contentType;
    Atomics.store(signal, 0, 0);
    port.postMessage({ url: request.url, method: request.method, headers, body: request.payload });
    if (Atomics.wait(signal, 0, 0, 20_000) === "timed-out")
      throw new Error(`No answer from ${request.url} in 20 s.`);
    const reply = receiveMessageOnPort(port)?.message as
      | { ok: true; answer: FetchAnswer }
      | { ok: false; message: string }
      | undefined;
    if (!reply) throw new Error("The fetch worker sent no reply.");
    // UrlFetchApp throws on a failed connection ("Address unavailable", DNS errors).
    if (!reply.ok) throw new Error(reply.message);
    return reply.answer;
  };
}
