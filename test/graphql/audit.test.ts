/**
 * graphql-http's audit of GraphQL over HTTP (acceptance check 39), run against the simulator as
 * users run it: in process (`createSimulator`'s fetch) and over a socket (`startSimulator`), with
 * the API headers. Every MUST and every SHOULD passes; the only audits left are the MAYs about
 * operations sent with GET, which the simulator does not offer (production documents POST only).
 * @module
 */
import { auditServer } from "graphql-http";
import { describe, expect, it } from "vitest";
import { createSimulator } from "../../src/simulator/in-process.js";
import { startSimulator } from "../../src/simulator/server.js";

/** The audits left: operations over GET, which the simulator does not offer. */
const GET_MAYS = [
  "5A70 MAY accept application/x-www-form-urlencoded formatted GET requests",
  "D6D5 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json",
  "6A70 MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json",
];

/** A fetch that sends the API headers with every request, as GraphQL clients are set up to. */
const withCredentials =
  (fetchFn: typeof fetch, sim: { apiKey: string; apiSecret: string }) =>
  (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set("X-Api-Key", sim.apiKey);
    headers.set("X-Api-Secret", sim.apiSecret);
    return fetchFn(url, { ...init, headers });
  };

describe("graphql-http's auditServer in process", () => {
  it("passes every MUST and SHOULD audit through the app, with the API headers", async () => {
    const sim = createSimulator({ customers: 3, logLevel: "silent" });
    const results = await auditServer({ url: sim.graphqlUrl, fetchFn: withCredentials(sim.fetch, sim) });
    const failed = results.filter((r) => r.status !== "ok").map((r) => `${r.id} ${r.name}`);
    expect(failed).toEqual(GET_MAYS);
    expect(results.filter((r) => /^(MUST|SHOULD)/.test(r.name)).every((r) => r.status === "ok")).toBe(true);
  });
});

describe("graphql-http's auditServer against the mounted route, over a socket", () => {
  it("passes every MUST and SHOULD audit through the gateway, with the API headers", async () => {
    const sim = await startSimulator({ customers: 3, logLevel: "silent" });
    try {
      const results = await auditServer({ url: sim.graphqlUrl, fetchFn: withCredentials(fetch, sim) });
      expect(results.filter((r) => r.status !== "ok").map((r) => `${r.id} ${r.name}`)).toEqual(GET_MAYS);
      expect(results.filter((r) => /^(MUST|SHOULD)/.test(r.name)).every((r) => r.status === "ok")).toBe(true);
      expect(results.length).toBeGreaterThan(50);
    } finally {
      await sim.close();
    }
  });
});
