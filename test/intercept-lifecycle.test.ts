/**
 * The life of an interception: loaded on first use, origins added and restored (also by `using`),
 * other origins untouched, two simulators side by side, held requests released by restore(), and
 * an app module that calls production with axios, unchanged.
 */
import http from "node:http";
import https from "node:https";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import axios from "axios";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSimulator, PRODUCTION_ORIGIN } from "../src/index.js";
import { rewardVisit } from "./support/loyalty-app.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
const EXAMPLE = "https://loyalty.example.test";
const sims: ReturnType<typeof createSimulator>[] = [];
const simulator = () => {
  const sim = createSimulator({ customers: 3, seed: 5 });
  sims.push(sim);
  return sim;
};
afterEach(() => sims.splice(0).forEach((sim) => sim.restore()));

const shop = (origin: string, init: RequestInit = {}) => fetch(`${origin}/rest_api/v1/shop`, { headers: AUTH, ...init });
const rejection = (promise: Promise<unknown>) => promise.then((v) => expect.unreachable(`resolved ${String(v)}`), (e: unknown) => e);
const activeId = (sim: ReturnType<typeof createSimulator>) => sim.engine.defaultShop().store.data.customers.find((c) => !c.excluded && !c.mergedIntoCustomerId)!.id;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("sim.intercept()", () => {
  it("loads @mswjs/interceptors on first use only, and restore() leaves fetch and https as they were", () => {
    const require = createRequire(import.meta.url);
    const loaded = () => require.cache[require.resolve("@mswjs/interceptors/ClientRequest")] !== undefined;
    const [fetchBefore, requestBefore] = [globalThis.fetch, https.request];
    const sim = simulator();
    expect(loaded()).toBe(false);
    sim.intercept();
    expect(loaded()).toBe(true);
    expect([globalThis.fetch === fetchBefore, https.request === requestBefore]).toEqual([false, false]);
    sim.restore();
    expect([globalThis.fetch === fetchBefore, https.request === requestBefore]).toEqual([true, true]);
  });

  it("defaults to production's origin; each call adds an origin, the same one twice is one interception", async () => {
    const sim = simulator();
    expect(PRODUCTION_ORIGIN).toBe("https://stamp.appydesign.io");
    const production = sim.intercept();
    const local = sim.intercept("http://localhost:9999/");
    expect([production.origin, local.origin, sim.intercept(PRODUCTION_ORIGIN).origin]).toEqual([PRODUCTION_ORIGIN, "http://localhost:9999", PRODUCTION_ORIGIN]);
    expect([(await shop(PRODUCTION_ORIGIN)).status, (await shop("http://localhost:9999")).status]).toEqual([200, 200]);
    production.restore();
    expect((await shop("http://localhost:9999")).status).toBe(200);
    expect(await sim.control.requests({ path: "/shop" })).toHaveLength(3);
  });

  it("ends with the scope of a `using` declaration", async () => {
    const sim = simulator();
    const origin = `http://127.0.0.1:${await closedPort()}`;
    {
      using interception = sim.intercept(origin);
      expect([interception.origin, (await shop(origin)).status]).toEqual([origin, 200]);
    }
    expect(await rejection(shop(origin))).toMatchObject({ message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it.each([
    ["a host without a scheme", "stamp.appydesign.io"],
    ["a base URL with a path", "https://stamp.appydesign.io/rest_api/v1"],
    ["another scheme", "ftp://stamp.appydesign.io"],
  ])("refuses %s, naming what it takes", (_, origin) => {
    expect(() => simulator().intercept(origin)).toThrow(
      `intercept(${JSON.stringify(origin)}): give an origin (scheme, host and port, no path), such as "https://stamp.appydesign.io"`,
    );
  });

  it("lets requests to other origins go out untouched, whatever the client", async () => {
    const server = http.createServer((_, res) => res.end("the real server"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const sim = simulator();
      sim.intercept();
      const viaHttp = await new Promise<string>((resolve, reject) => {
        http.get(`${origin}/x`, (res) => res.setEncoding("utf8").on("data", resolve)).on("error", reject);
      });
      expect([await (await fetch(`${origin}/x`)).text(), viaHttp, (await axios.get<string>(`${origin}/x`)).data]).toEqual(Array(3).fill("the real server"));
      expect(await sim.control.requests()).toEqual([]);
    } finally {
      server.close();
    }
  });

  it("two simulators answer their own origins; one cannot take the other's", async () => {
    const [a, b] = [simulator(), simulator()];
    a.intercept();
    b.intercept(EXAMPLE);
    expect(() => a.intercept(EXAMPLE)).toThrow(`${EXAMPLE} is already intercepted by another simulator; restore() that one first`);
    expect([(await shop(PRODUCTION_ORIGIN)).status, (await shop(EXAMPLE)).status, (await shop(EXAMPLE)).status]).toEqual([200, 200, 200]);
    expect([(await a.control.requests()).length, (await b.control.requests()).length]).toEqual([1, 2]);
    a.restore();
    expect((await shop(EXAMPLE)).status).toBe(200);
    expect(b.intercept(PRODUCTION_ORIGIN).origin).toBe(PRODUCTION_ORIGIN);
    expect((await shop(PRODUCTION_ORIGIN)).status).toBe(200);
    expect([(await a.control.requests()).length, (await b.control.requests()).length]).toEqual([1, 4]);
  });

  it("restore() closes the connections of requests held by a timeout fault, as a server shutting down", async () => {
    const sim = simulator();
    sim.intercept();
    await sim.control.addScenario({ name: "hold", rules: [{ match: { operation: "getShop" }, times: 2, respond: { fault: "timeout" } }] });
    const reached = vi.spyOn(sim.app, "fetch");
    const viaFetch = rejection(shop(PRODUCTION_ORIGIN));
    const viaHttps = new Promise<unknown>((resolve) => https.get(`${PRODUCTION_ORIGIN}/rest_api/v1/shop`, { headers: AUTH }, () => resolve("answered")).on("error", resolve));
    await vi.waitFor(() => expect(reached).toHaveBeenCalledTimes(2));
    sim.restore();
    expect(await viaFetch).toMatchObject({ message: "fetch failed", cause: { code: "UND_ERR_SOCKET", message: "other side closed" } });
    expect(await viaHttps).toMatchObject({ message: "socket hang up", code: "ECONNRESET" });
    expect((await sim.control.requests()).map((r) => r.fault)).toEqual(["timeout", "timeout"]);
  });

  it("a fetch held by a timeout fault still sees its caller give up after a garbage collection", async () => {
    const sim = simulator();
    sim.intercept();
    await sim.control.addScenario({ name: "hold", rules: [{ match: { operation: "getShop" }, respond: { fault: "timeout" } }] });
    const controller = new AbortController();
    const reason = new Error("client gave up");
    const held = shop(PRODUCTION_ORIGIN, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc(); // nothing but the caller's signal may be left to reach the waiting request
    controller.abort(reason);
    await expect(held).rejects.toBe(reason);
  });
});

describe("an app module calling production with axios, unchanged", () => {
  it("is answered by the simulator, and its network failures are axios's own", async () => {
    const sim = simulator();
    sim.intercept();
    Object.assign(process.env, { LOYALTY_API_KEY: sim.apiKey, LOYALTY_API_SECRET: sim.apiSecret });
    const id = activeId(sim);
    const before = sim.engine.defaultShop().store.data.customers.find((c) => c.id === id)!.balance;
    expect(await rewardVisit(id)).toBe(before + 1);
    expect(await sim.control.requests({ customerId: id })).toMatchObject([{ operation: "awardStamps", requestBody: { stamps: 1, comment: "Thanks for your visit" }, status: 200 }]);
    await sim.control.addScenario({ name: "reset", rules: [{ match: { operation: "awardStamps" }, times: 1, respond: { fault: "connection_reset" } }] });
    expect(await rejection(rewardVisit(id))).toMatchObject({ isAxiosError: true, code: "ECONNRESET", message: "read ECONNRESET" });
    expect(await rewardVisit(id)).toBe(before + 2);
  });
});
