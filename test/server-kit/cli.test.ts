/**
 * src/server-kit/cli.ts: the flags of both servers' command lines, read with `parseArgs`, in the
 * order given, with the two servers' refusals (status 2, the argument named, the usage after).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FlagKind, readFlags } from "../../src/server-kit/cli.js";

const FLAGS = { port: "value", tenant: "value", quiet: "switch", help: "switch" } satisfies Record<
  string,
  FlagKind
>;
const USAGE = "usage: test";

class Exit extends Error {
  constructor(readonly status: number) {
    super(`exit ${status}`);
  }
}

/** readFlags, with the process's exit and stderr caught: what it returns, or how it exits. */
function read(argv: string[]): { flags?: ReturnType<typeof readFlags>; status?: number; stderr: string } {
  let stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  vi.spyOn(process, "exit").mockImplementation((status) => {
    throw new Exit(Number(status));
  });
  try {
    return { flags: readFlags(argv, FLAGS, USAGE), stderr };
  } catch (error) {
    if (error instanceof Exit) return { status: error.status, stderr };
    throw error;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("readFlags", () => {
  it("gives the flags in the order given, values separate or after =, a repeated flag each time", () => {
    expect(
      read(["--port", "3000", "--tenant=https://a.example", "--quiet", "--tenant", "b", "-h"]).flags,
    ).toEqual([
      { flag: "--port", value: "3000" },
      { flag: "--tenant", value: "https://a.example" },
      { flag: "--quiet", value: undefined },
      { flag: "--tenant", value: "b" },
      { flag: "-h", value: undefined },
    ]);
  });

  it("takes the next argument as a value whatever it looks like, and an empty value after =", () => {
    expect(read(["--tenant", "--quiet", "--port="]).flags).toEqual([
      { flag: "--tenant", value: "--quiet" },
      { flag: "--port", value: "" },
    ]);
  });

  it.each([
    [["--colour"], "--colour"],
    [["--colour=red"], "--colour=red"],
    [["stray"], "stray"],
    [["--"], "--"],
    [["-x"], "-x"],
    [["-qh"], "-qh"],
    [["-hq"], "-hq"],
    [["--quiet", "--port", "1", "extra"], "extra"],
  ])("refuses %j with status 2, naming %s as given, then the usage", (argv, named) => {
    const run = read(argv);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`Unknown argument "${named}".\n${USAGE}\n`);
  });

  it("refuses a value flag without its value, naming it", () => {
    const run = read(["--quiet", "--port"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`--port needs a value.\n${USAGE}\n`);
  });

  it("stops at the first bad argument", () => {
    expect(read(["--nope", "--port"]).stderr).toMatch(/^Unknown argument "--nope"/);
  });
});
