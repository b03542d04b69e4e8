/**
 * A failed control call says what failed in its message, which is what test runners print: the
 * call, the status and code, and the first offending field (`.details` is kept). A wrong base URL
 * is named as such: another server's answer, or nothing listening.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createControlClient, createSimulator, SimulatorError } from "../../src/index.js";

/** What a rejected call threw. */
const failure = (call: Promise<unknown>) => call.then(() => expect.unreachable("the call succeeded"), (e: unknown) => e as SimulatorError);

describe("a failed control call's message", () => {
  it("names the call, status, code and the first detail", async () => {
    const sim = createSimulator({ customers: 1 });
    const error = await failure(sim.control.createCustomer({ firstName: "Ada", lastName: "L", email: "not-an-email" }));
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error.message).toBe("POST /__sim/customers: 422 VALIDATION_ERROR: Request validation failed (body email: Invalid email address)");
    expect([error.status, error.code]).toEqual([422, "VALIDATION_ERROR"]);
    expect(error.details).toEqual([{ in: "body", path: "email", message: "Invalid email address" }]);
  });

  it("counts the details it does not show", async () => {
    const sim = createSimulator({ customers: 1 });
    const error = await failure(sim.control.createCustomer({ firstName: "", lastName: "", email: "x" }));
    expect(error.message).toBe(
      "POST /__sim/customers: 422 VALIDATION_ERROR: Request validation failed (body firstName: Too small: expected string to have >=1 characters, +2 more)",
    );
    expect(error.details!.map((d) => d.path)).toEqual(["firstName", "lastName", "email"]);
  });

  it("shows the query and path of the call, and an error without details as is", async () => {
    const sim = createSimulator({ customers: 1 });
    expect((await failure(sim.control.requests({ status: 3 }))).message).toBe(
      "GET /__sim/requests?status=3: 422 VALIDATION_ERROR: Request validation failed (query status: Too small: expected number to be >=100)",
    );
    const missing = await failure(sim.control.removeScenario("no such"));
    expect(missing.message).toBe("DELETE /__sim/scenarios/no%20such: 404 NOT_FOUND: Scenario no such is not active for this shop");
    expect(missing.details).toBeUndefined();
  });
});

describe("a wrong base URL", () => {
  let other: Server;
  let otherOrigin: string;
  beforeAll(async () => {
    // Another server: an HTML 404 for unknown paths, a plain-text 200 and a JSON 404 of its own.
    other = createServer((req, res) => {
      if (req.url === "/__sim/health") return res.writeHead(200, { "Content-Type": "text/plain" }).end("hello");
      if (req.url === "/__sim/clock") return res.writeHead(404, { "Content-Type": "application/json" }).end('{"message":"nope"}');
      res.writeHead(404, { "Content-Type": "text/html; charset=utf-8" }).end("<h1>Not Found</h1>");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

  it.each([
    ["an HTML 404", (c: ReturnType<typeof createControlClient>) => c.shops(), "/__sim/shops", 404, "text/html"],
    ["a JSON 404 that is no error envelope", (c: ReturnType<typeof createControlClient>) => c.clock(), "/__sim/clock", 404, "application/json"],
    ["a 200 that is not JSON", (c: ReturnType<typeof createControlClient>) => c.health(), "/__sim/health", 200, "text/plain"],
  ])("another server's answer (%s) is named as such", async (_, call, path, status, type) => {
    const error = await failure(call(createControlClient(fetch, otherOrigin)));
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error.message).toBe(`no loyalty-sim answered at ${otherOrigin}${path} (got ${status} ${type})`);
    expect([error.status, error.code]).toEqual([status, `HTTP_${status}`]);
  });

  it("nothing listening: could not reach loyalty-sim, with the connection's error code", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(createControlClient(fetch, origin).reset());
    expect(error).toBeInstanceOf(SimulatorError);
    expect(error.message).toBe(`could not reach loyalty-sim at ${origin}: ECONNREFUSED`);
    expect([error.status, error.code]).toEqual([0, "ECONNREFUSED"]);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it("a URL of the simulator with a path (its API base URL) still reaches /__sim", async () => {
    const sim = createSimulator({ customers: 1 });
    const control = createControlClient(sim.fetch, sim.baseUrl);
    expect((await control.shops()).map((s) => s.apiKey)).toEqual(["sim_key"]);
    expect((await sim.control.requests()).length).toBe(0);
  });
});
