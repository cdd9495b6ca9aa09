/**
 * The sidebar's typed bridge over google.script.run: values and PlatformErrors from envelopes,
 * Apps Script's own refusals as "server" errors, names and arguments checked at compile time.
 */
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../../../src/core/errors.js";
import { createBridge, type ServerCall } from "../../../../src/hosts/sheets/sidebar/bridge.js";
import { fakeScriptRun } from "../../../support/fake-script-run.js";

const ok = (value: unknown) => ({ ok: true, value });

describe("bridge", () => {
  it("resolves a server function's value and rejects its PlatformError with kind and message", async () => {
    const { run, calls } = fakeScriptRun({
      getSettings: () => ok({ tenantUrl: "https://t.example", apiKeySet: true }),
      listDeployments: () => ({
        ok: false,
        error: new PlatformError("unauthorized", "The API key was refused (401).", { status: 401 }).toJSON(),
      }),
    });
    const call = createBridge(() => run);
    await expect(call("getSettings")).resolves.toEqual({ tenantUrl: "https://t.example", apiKeySet: true });
    const error = await call("listDeployments").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      kind: "unauthorized",
      status: 401,
      message: "The API key was refused (401).",
    });
    expect(calls.map((c) => c.name)).toEqual(["getSettings", "listDeployments"]);
  });

  it("passes arguments as given", async () => {
    const { run, calls } = fakeScriptRun({ disconnectPlacement: () => ok({ id: 42 }) });
    const call = createBridge(() => run);
    await call("disconnectPlacement", 7, 42, { placementId: "p-1" });
    expect(calls).toEqual([{ name: "disconnectPlacement", args: [7, 42, { placementId: "p-1" }] }]);
  });

  it("what Apps Script itself refuses becomes a 'server' PlatformError that says what happened", async () => {
    const { run } = fakeScriptRun({
      refreshPane: () => {
        throw new Error("Authorization is required to perform that action.");
      },
    });
    const error = await createBridge(() => run)("refreshPane").catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: "server",
      message: expect.stringMatching(
        /^Google Apps Script could not run refreshPane: Authorization is required/,
      ),
    });
  });

  it("what reaches the failure handler is always Apps Script's own refusal, whatever its text", async () => {
    // Server functions answer PlatformErrors in an envelope; text shaped like one is not revived.
    const text = JSON.stringify(new PlatformError("unauthorized", "Paste a new key.").toJSON());
    const { run } = fakeScriptRun({
      getSettings: () => {
        throw new Error(text);
      },
    });
    const error = await createBridge(() => run)("getSettings").catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: "server",
      message: expect.stringMatching(/^Google Apps Script could not run getSettings: /),
    });
  });

  it("outside Google Sheets it rejects instead of hanging", async () => {
    await expect(createBridge(() => undefined)("getActiveContext")).rejects.toMatchObject({ kind: "server" });
  });
});

/**
 * Names and argument types are checked at compile time: `npm run typecheck` fails when a call below
 * stops being an error (each `@ts-expect-error` must have one to expect). Never called; nothing here
 * can fail at run time, so it is no test case of vitest's.
 */
void function serverCallsCheckedAtCompileTime(call: ServerCall): void {
  // @ts-expect-error: no such server function.
  void call("deleteEverything");
  // @ts-expect-error: disconnectPlacement takes (deploymentId, reportId, input).
  void call("disconnectPlacement", "7", 42, {});
  // @ts-expect-error: a menu item is not a sidebar function (it answers no envelope).
  void call("disconnectReportHere");
};
