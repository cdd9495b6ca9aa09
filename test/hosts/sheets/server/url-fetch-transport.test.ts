/**
 * The server's only way out: the UrlFetchApp transport sends to the configured tenant and agent
 * chat URL, nowhere else, and maps UrlFetchApp's answer to the core's response shape.
 */
import { describe, expect, it } from "vitest";
import { PlatformError } from "../../../../src/core/errors.js";
import { buildHttpRequest } from "../../../../src/core/http.js";
import { operations } from "../../../../src/core/operations.js";
import {
  createUrlFetchTransport,
  isAllowedDestination,
} from "../../../../src/hosts/sheets/server/url-fetch-transport.js";
import { checkRequestHeaders, URL_FETCH_SETS_ITSELF } from "../../../support/apps-script-limits.js";

const to = {
  tenantBase: "https://acme.reporting.example",
  chatUrl: "https://ai.reporting.example/api/v1/public/acme/agents/a1/chat/stream-chat-state",
};

describe("destinations", () => {
  it.each([
    "https://acme.reporting.example/api/v1/deployments",
    "https://acme.reporting.example/api/scim/v2/Users?count=1",
    to.chatUrl,
    "https://ai.reporting.example/api/v1/public/acme/agents/a1/chat/abort",
  ])("allows %s", (url) => {
    expect(isAllowedDestination(url, to)).toBe(true);
  });

  it.each([
    "https://acme.reporting.example.evil.example/api/v1/deployments",
    "https://acme.reporting.example@evil.example/api/v1/deployments",
    "https://acme.reporting.example:444/api/v1/deployments",
    "http://acme.reporting.example/api/v1/deployments",
    "https://ai.reporting.example/api/v1/public/acme/agents/a2/chat/stream-chat-state",
    "https://ai.reporting.example/api/v1/deployments",
    "https://evil.example/",
  ])("refuses %s", (url) => {
    expect(isAllowedDestination(url, to)).toBe(false);
  });

  it("keeps a tenant path prefix", () => {
    const proxied = { tenantBase: "https://proxy.example/reporting", chatUrl: null };
    expect(isAllowedDestination("https://proxy.example/reporting/api/v1/deployments", proxied)).toBe(true);
    expect(isAllowedDestination("https://proxy.example/reportingX/api/v1/deployments", proxied)).toBe(false);
    expect(isAllowedDestination("https://proxy.example/other", proxied)).toBe(false);
  });
});

describe("the data API's destinations", () => {
  const withData = { ...to, dataBases: ["https://data.reporting.example/cube/7"] };

  it("allows exactly the load call under a data URL the tenant named", () => {
    expect(isAllowedDestination("https://data.reporting.example/cube/7/cubejs-api/v1/load", withData)).toBe(
      true,
    );
  });

  it.each([
    "https://data.reporting.example/cube/7/cubejs-api/v1/cubesql",
    "https://data.reporting.example/cube/7/cubejs-api/v1/load?x=1",
    "https://data.reporting.example/cube/77/cubejs-api/v1/load",
    "https://data.reporting.example/cube/7",
    "https://data.reporting.example.evil.example/cube/7/cubejs-api/v1/load",
  ])("refuses %s", (url) => {
    expect(isAllowedDestination(url, withData)).toBe(false);
  });

  it("allows no data URL before the tenant named one", () => {
    expect(isAllowedDestination("https://data.reporting.example/cube/7/cubejs-api/v1/load", to)).toBe(false);
  });
});

describe("createUrlFetchTransport", () => {
  function fakeFetch(answer: { status: number; headers: Record<string, unknown>; body: string }) {
    const calls: { url: string; options: Record<string, unknown> }[] = [];
    const fetcher = {
      fetch(url: string, options: Record<string, unknown>) {
        // As UrlFetchApp: a header the URL Fetch service sets itself is refused.
        checkRequestHeaders((options.headers as Record<string, unknown>) ?? {});
        calls.push({ url, options });
        return {
          getResponseCode: () => answer.status,
          getAllHeaders: () => answer.headers,
          getContentText: () => answer.body,
        };
      },
    };
    return { calls, fetcher: fetcher as unknown as GoogleAppsScript.URL_Fetch.UrlFetchApp };
  }

  it("refuses another address before fetching", () => {
    const { calls, fetcher } = fakeFetch({ status: 200, headers: {}, body: "" });
    const transport = createUrlFetchTransport(to, fetcher);
    let error: unknown;
    try {
      transport({ method: "GET", url: "https://evil.example/steal", headers: { Authorization: "Bearer k" } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({
      kind: "insecure-url",
      message: expect.stringMatching(/not to evil\.example/),
    });
    expect(calls).toEqual([]);
  });

  it("maps the request to UrlFetchApp options and the answer back, header names lower-cased", () => {
    const { calls, fetcher } = fakeFetch({
      status: 429,
      headers: { "Retry-After": "2", "Set-Cookie": ["a=1", "b=2"] },
      body: '{"message":"slow down"}',
    });
    const transport = createUrlFetchTransport(to, fetcher);
    const response = transport({
      method: "DELETE",
      url: "https://acme.reporting.example/api/v1/deployments/1/reports/2/connect-workbook",
      headers: { Accept: "application/json", Authorization: "Bearer k", "Content-Type": "application/json" },
      body: '{"placementId":"p"}',
    });
    expect(calls[0]?.options).toEqual({
      method: "delete",
      headers: { Accept: "application/json", Authorization: "Bearer k" },
      contentType: "application/json",
      payload: '{"placementId":"p"}',
      muteHttpExceptions: true,
      followRedirects: false,
    });
    expect(response).toEqual({
      status: 429,
      headers: { "retry-after": "2", "set-cookie": "a=1, b=2" },
      body: '{"message":"slow down"}',
    });
  });

  it("a DELETE without a body sets no restricted header: UrlFetchApp computes Content-Length itself", () => {
    const { calls, fetcher } = fakeFetch({ status: 200, headers: {}, body: "{}" });
    const transport = createUrlFetchTransport(to, fetcher);
    const config = { baseUrl: to.tenantBase, token: "k" };
    // The core asks for "Content-Length: 0" (some front ends want it); UrlFetchApp refuses the header.
    const request = buildHttpRequest(config, operations.disconnectReportFromWorkbook(1, 2));
    expect(request.headers["Content-Length"]).toBe("0");
    transport(request);
    expect(calls[0]?.options).toEqual({
      method: "delete",
      headers: { Accept: "application/json", Authorization: "Bearer k" },
      muteHttpExceptions: true,
      followRedirects: false,
    });
  });

  it.each(URL_FETCH_SETS_ITSELF.flatMap((name) => [name, name.toLowerCase(), name.toUpperCase()]))(
    "never hands UrlFetchApp %s, a header Google's URL Fetch service sets itself",
    (name) => {
      const { calls, fetcher } = fakeFetch({ status: 200, headers: {}, body: "{}" });
      const transport = createUrlFetchTransport(to, fetcher);
      transport({
        method: "GET",
        url: `${to.tenantBase}/api/v1/reports`,
        headers: { Accept: "application/json", [name]: "x" },
      });
      expect(calls[0]?.options.headers).toEqual({ Accept: "application/json" });
    },
  );

  it("the fake refuses those headers in any case, as UrlFetchApp does", () => {
    for (const name of URL_FETCH_SETS_ITSELF) {
      expect(() => checkRequestHeaders({ [name.toLowerCase()]: "x" })).toThrow(/Header:/);
      expect(() => checkRequestHeaders({ [name]: "x" })).toThrow(/Header:/);
    }
    expect(() =>
      checkRequestHeaders({ Authorization: "Bearer k", Accept: "application/json" }),
    ).not.toThrow();
  });

  it("a DELETE with a JSON body goes as UrlFetchApp documents it: method, contentType, payload", () => {
    const { calls, fetcher } = fakeFetch({ status: 200, headers: {}, body: "{}" });
    const transport = createUrlFetchTransport(to, fetcher);
    const config = { baseUrl: to.tenantBase, token: "k" };
    transport(
      buildHttpRequest(config, operations.disconnectReportFromWorkbook(1, 2, { placementId: "plc-1" })),
    );
    expect(calls[0]?.options).toMatchObject({
      method: "delete",
      contentType: "application/json",
      payload: JSON.stringify({ placementId: "plc-1" }),
    });
    expect(Object.keys(calls[0]?.options.headers as object).map((h) => h.toLowerCase())).toEqual([
      "accept",
      "authorization",
    ]);
  });
});
