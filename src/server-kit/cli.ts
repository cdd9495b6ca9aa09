/**
 * What the two command-line servers (the add-in server, src/addin-server/cli.ts, and the sandbox,
 * src/sandbox/cli.ts) share: their flags read with `node:util` `parseArgs`, the exit on a bad
 * argument, and stopping on SIGINT/SIGTERM. Their flags, defaults, error lines and output lines are
 * public contracts: this module keeps the wording both had, and each CLI keeps its own.
 */
import { parseArgs } from "node:util";

/** A flag's kind: "value" takes one (`--port 3000`, `--port=3000`), "switch" takes none. */
export type FlagKind = "value" | "switch";

/** One flag as given, in the order given: `--port` and its value, or `--quiet`. */
export interface GivenFlag {
  /** The flag's name with its dashes, as the CLI's own messages name it: "--port", "-h". */
  flag: string;
  /** A "value" flag's value ("" for `--port=`); undefined for a switch. */
  value: string | undefined;
}

/** Writes `message` to stderr and exits with `status` (2: bad arguments). */
export function fail(message: string, status = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(status);
}

/**
 * Reads `argv` with `parseArgs` against `flags` (long names without dashes; `help` may be given as
 * `-h`), and returns the flags in the order given, so that each CLI checks them in that order and
 * stops at the first bad one. Exits with status 2 and `usage` on an argument that is not one of
 * `flags` ("Unknown argument "<arg as given>"."), or on a value flag without its value ("--port
 * needs a value."). A value flag takes the next argument whatever it looks like, as before.
 */
export function readFlags(argv: string[], flags: Record<string, FlagKind>, usage: string): GivenFlag[] {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const [name, kind] of Object.entries(flags)) {
    options[name] = {
      type: kind === "value" ? "string" : "boolean",
      ...(name === "help" ? { short: "h" } : {}),
    };
  }
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const given: GivenFlag[] = [];
  for (const token of tokens) {
    const raw = argv[token.index] ?? "";
    // Not a flag of ours: an unknown name, a word, "--", or short flags run together ("-qh").
    if (
      token.kind !== "option" ||
      !(token.name in flags) ||
      (token.rawName.length === 2 && raw !== token.rawName)
    ) {
      fail(`Unknown argument "${raw}".\n${usage}`);
    }
    if (flags[token.name] === "value") {
      if (token.value === undefined) fail(`${token.rawName} needs a value.\n${usage}`);
      given.push({ flag: token.rawName, value: token.value });
    } else {
      given.push({ flag: token.rawName, value: undefined });
    }
  }
  return given;
}

/**
 * Stops on SIGINT or SIGTERM: `stop()` runs once, then the process exits with status 0. A second
 * signal exits at once when `again` is "exit" (Ctrl-C again does not wait), else it is ignored.
 */
export function stopOnSignals(stop: () => Promise<unknown>, again: "exit" | "ignore"): void {
  let stopping = false;
  const onSignal = () => {
    if (stopping) {
      if (again === "exit") process.exit(0);
      return;
    }
    stopping = true;
    stop().then(() => process.exit(0));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
}
