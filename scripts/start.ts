/**
 * `npm start`: the local Reporting Platform with its demo data and the preview page beside it, in
 * one process. PORT changes the page's port (PORT=0 takes a free one). Ctrl-C stops both.
 */
import { DEFAULT_PREVIEW_PORT, startPreview } from "../tooling/preview/server.js";

const port =
  process.env.PORT === undefined || process.env.PORT === "" ? DEFAULT_PREVIEW_PORT : Number(process.env.PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number (0 for a free one), not "${process.env.PORT}".`);
  process.exit(1);
}

let preview: Awaited<ReturnType<typeof startPreview>>;
try {
  preview = await startPreview({ port, logLevel: "warn" });
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    console.error(`Port ${port} is in use. Stop what uses it, or start on another port: PORT=3001 npm start`);
  } else {
    console.error(error instanceof Error ? error.message : String(error));
  }
  process.exit(1);
}

console.log(`Preview: ${preview.url}`);
console.log(`Sandbox: ${preview.sandboxUrl} (the local Reporting Platform, demo data)`);
console.log("Press Ctrl-C to stop.");

let stopping = false;
async function stop(signal: string) {
  if (stopping) {
    process.exit(1);
  }
  stopping = true;
  console.log(`\n${signal}: stopping the preview and the sandbox…`);
  await preview.close();
  process.exit(0);
}
process.on("SIGINT", () => void stop("SIGINT"));
process.on("SIGTERM", () => void stop("SIGTERM"));
