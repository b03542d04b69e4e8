/**
 * graphql-http's audit of GraphQL over HTTP, run against the request steps in process (acceptance
 * check 39): every MUST and every SHOULD passes; the only audits left are the MAYs about
 * operations sent with GET, which the simulator does not offer (production documents POST only).
 * @module
 */
import { auditServer } from "graphql-http";
import { describe, expect, it } from "vitest";
import { DocumentCache, handleGraphQLRequest } from "../../src/graphql/index.js";
import { startSimulator } from "../../src/simulator/server.js";
import { createTestSim } from "../support/sim.js";

/** The audits left: operations over GET, which the simulator does not offer. */
const GET_MAYS = [
  "5A70 MAY accept application/x-www-form-urlencoded formatted GET requests",
  "D6D5 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json",
  "6A70 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json",
];

describe("graphql-http's auditServer", () => {
  it("passes every MUST and SHOULD audit", async () => {
    const { shop } = createTestSim({ customers: 3 });
    const cache = new DocumentCache();
    const fetchFn = async (_url: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      const request = {
        method: init?.method ?? "GET",
        contentType: headers.get("content-type") ?? undefined,
        accept: headers.get("accept") ?? undefined,
        bodyText: init?.body == null ? undefined : String(init.body),
      };
      const res = await handleGraphQLRequest(request, { shop }, cache);
      return new Response(res.body, { status: res.status, headers: res.headers });
    };
    const results = await auditServer({ url: "http://sim/graphql", fetchFn });
    const failed = results.filter((r) => r.status !== "ok").map((r) => `${r.id} ${r.name}`);
    expect(failed).toEqual(GET_MAYS);
    expect(results.filter((r) => /^(MUST|SHOULD)/.test(r.name)).every((r) => r.status === "ok")).toBe(true);
  });
});

describe("graphql-http's auditServer against the mounted route, over a socket", () => {
  it("passes every MUST and SHOULD audit through the gateway, with the API headers", async () => {
    const sim = await startSimulator({ customers: 3, logLevel: "silent" });
    try {
      const fetchFn = (url: string | URL | Request, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        headers.set("X-Api-Key", sim.apiKey);
        headers.set("X-Api-Secret", sim.apiSecret);
        return fetch(url, { ...init, headers });
      };
      const results = await auditServer({ url: sim.graphqlUrl, fetchFn });
      expect(results.filter((r) => r.status !== "ok").map((r) => `${r.id} ${r.name}`)).toEqual(GET_MAYS);
      expect(results.filter((r) => /^(MUST|SHOULD)/.test(r.name)).every((r) => r.status === "ok")).toBe(true);
      expect(results.length).toBeGreaterThan(50);
    } finally {
      await sim.close();
    }
  });
});
