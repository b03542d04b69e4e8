/**
 * Regression (issue 17, case 13): any web page open in a developer's browser could drive the
 * control API. `/__sim` answered CORS preflights from any origin with `Access-Control-Allow-Origin: *`,
 * a body-less or text/plain `POST /__sim/reset` from another site succeeded, and the Host header was
 * not checked (DNS rebinding). Now `/__sim` refuses another site's page with 403 FORBIDDEN and never
 * answers CORS; bound to a loopback address, it refuses a Host that is not a loopback name. The API
 * keeps its CORS; clients without `Origin` and the simulator's own pages keep working; in-process
 * use is not Host-checked.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/server.js";
import { AUTH, createTestSim, expectError, type TestSim } from "../support/sim.js";

/** A customer's balance changed through the API, so that a reset would show. */
async function awarded(sim: TestSim): Promise<{ id: string; balance: number }> {
  const id = sim.activeCustomer();
  const res = await sim.call("POST", `/customers/${id}/stamps/award`, { body: { stamps: 3 } });
  expect(res.status).toBe(200);
  return { id, balance: res.body.data.stampBalance };
}

const crossSite = (why: string) => `${why}: the control API answers no other site's page. Call it from a test process, curl or the docs page at /doc`;

describe("another site's page cannot drive /__sim (in-process, own origin http://localhost)", () => {
  it("a CORS preflight for POST /__sim/reset from another origin is 403 FORBIDDEN, without CORS headers", async () => {
    const sim = createTestSim();
    const res = await sim.call("OPTIONS", "/__sim/reset", {
      auth: false,
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
      unchecked: true,
    });
    expectError(res, 403, "FORBIDDEN", crossSite("Origin https://evil.example is not this simulator's"));
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it.each([
    ["a text/plain POST with another Origin", { Origin: "https://evil.example", "Content-Type": "text/plain" }, "x", "Origin https://evil.example is not this simulator's"],
    ["a body-less POST with another Origin", { Origin: "http://localhost:3000" }, undefined, "Origin http://localhost:3000 is not this simulator's"],
    ["an opaque Origin (a sandboxed or file: page)", { Origin: "null" }, undefined, "Origin null is not this simulator's"],
    ["Sec-Fetch-Site: cross-site, without Origin", { "Sec-Fetch-Site": "cross-site" }, undefined, "Sec-Fetch-Site: cross-site"],
    ["Sec-Fetch-Site: same-site (another port of the host)", { "Sec-Fetch-Site": "same-site", Origin: "http://localhost" }, undefined, "Sec-Fetch-Site: same-site"],
  ])("POST /__sim/reset: %s is 403 FORBIDDEN and resets nothing", async (_, headers, rawBody, why) => {
    const sim = createTestSim();
    const { id, balance } = await awarded(sim);
    const res = await sim.call("POST", "/__sim/reset", { auth: false, headers, ...(rawBody !== undefined && { rawBody }) });
    expectError(res, 403, "FORBIDDEN", crossSite(why));
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(sim.engine.shop("1")!.store.customer(id)!.balance).toBe(balance);
  });

  it("reading is refused too (GET /__sim/requests, an unknown /__sim path, a percent-encoded /__sim path)", async () => {
    const sim = createTestSim();
    const headers = { Origin: "https://evil.example" };
    expect((await sim.app.request("/%5F%5Fsim/requests")).status).toBe(200);
    for (const path of ["/__sim/requests", "/__sim/nope", "/%5F%5Fsim/requests"]) {
      const res = await sim.app.request(path, { headers });
      expectError({ status: res.status, headers: res.headers, body: await res.json() }, 403, "FORBIDDEN", crossSite("Origin https://evil.example is not this simulator's"));
    }
  });

  it("the simulator's own pages, and clients without Origin, keep working", async () => {
    const sim = createTestSim();
    const { id } = await awarded(sim);
    const same = await sim.call("GET", "/__sim/requests?limit=1", { auth: false, headers: { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" } });
    expect([same.status, same.body.requests.length]).toEqual([200, 1]);
    expect(same.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const typed = await sim.call("GET", "/__sim/health", { auth: false, headers: { "Sec-Fetch-Site": "none" } });
    expect(typed.status).toBe(200);
    const reset = await sim.call("POST", "/__sim/reset", { auth: false });
    expect(reset.body).toStrictEqual({ reset: true, shops: 1 });
    expect(sim.engine.shop("1")!.store.customer(id)!.balance).toBe(createTestSim().shop.store.customer(id)!.balance);
  });

  it("the API keeps CORS for browser apps under test: a preflight from any origin is answered", async () => {
    const sim = createTestSim();
    const res = await sim.call("OPTIONS", "/customers", { auth: false, headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" }, unchecked: true });
    expect([res.status, res.headers.get("Access-Control-Allow-Origin")]).toEqual([204, "*"]);
    const get = await sim.call("GET", "/shop", { headers: { ...AUTH, Origin: "https://app.example" } });
    expect([get.status, get.headers.get("Access-Control-Allow-Origin")]).toEqual([200, "*"]);
  });

  it("in-process use binds nothing: any host name reaches /__sim", async () => {
    const sim = createTestSim();
    const res = await sim.app.request("http://loyalty-sim.local/__sim/health");
    expect(res.status).toBe(200);
    expect((await sim.app.request("http://evil.example/__sim/reset", { method: "POST" })).status).toBe(200);
  });
});

describe("bound to 127.0.0.1, /__sim answers loopback host names only (DNS rebinding)", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ customers: 5 });
  });
  afterAll(() => sim.close());

  /** One raw request with exactly these headers (fetch would not let a test set Host). */
  async function send(method: string, path: string, headers: string): Promise<{ status: number; body: any }> {
    const socket = connect(Number(new URL(sim.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    const closed = new Promise((resolve) => socket.once("close", resolve));
    socket.write(`${method} ${path} HTTP/1.1\r\n${headers}Content-Length: 0\r\nConnection: close\r\n\r\n`);
    await closed;
    const [head, body] = text.split("\r\n\r\n") as [string, string];
    return { status: Number(head.split(" ")[1]), body: body ? JSON.parse(body) : undefined };
  }

  it.each([
    ["a rebinding page (its own name as Host and Origin)", "Host: attacker.example:4747\r\nOrigin: http://attacker.example:4747\r\n", "attacker.example:4747"],
    ["a name without Origin", "Host: my-laptop.lan\r\n", "my-laptop.lan"],
    ["a name that starts like a loopback address", "Host: 127.0.0.1.attacker.example\r\n", "127.0.0.1.attacker.example"],
  ])("%s is 403 FORBIDDEN and resets nothing", async (_, headers, host) => {
    const shop = sim.engine.defaultShop();
    const customer = shop.store.data.customers.find((c) => !c.excluded && c.mergedIntoCustomerId === undefined)!;
    shop.awardStamps(customer.id, { stamps: 1 });
    const balance = customer.balance;
    const res = await send("POST", "/__sim/reset", headers);
    expect([res.status, res.body.error]).toEqual([
      403,
      {
        code: "FORBIDDEN",
        statusCode: 403,
        message: `Host ${host} is not a loopback name: while bound to a loopback address, the control API answers localhost, 127.0.0.1 and [::1] only. Call it from a test process, curl or the docs page at /doc`,
      },
    ]);
    expect(sim.engine.defaultShop().store.customer(customer.id)!.balance).toBe(balance);
  });

  it.each(["localhost", "localhost:4747", "127.0.0.1:4747", "127.0.0.2", "[::1]:4747"])("Host %s is answered", async (host) => {
    const res = await send("GET", "/__sim/health", `Host: ${host}\r\n`);
    expect([res.status, res.body.status]).toEqual([200, "ok"]);
  });

  it("the API answers any Host name (apps under test may reach it by an alias)", async () => {
    const res = await send("GET", "/rest_api/v1/shop", "Host: loyalty.test:4747\r\nX-Api-Key: sim_key\r\nX-Api-Secret: sim_secret\r\n");
    expect([res.status, res.body.success]).toEqual([200, true]);
  });
});
