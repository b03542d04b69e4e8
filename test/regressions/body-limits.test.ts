/**
 * Regression (issue 17, cases 3 and 16): the control API read bodies of any size (20-50 MB to
 * `/__sim/clock` were accepted, 1.5 GB chunked bodies to `/__sim/scenarios` grew the heap), and no
 * test pinned that a body of exactly the limit is accepted. On a real socket: every control call
 * that takes a body refuses one over its limit (1 MiB; 4 MiB for a scenario) with 413
 * PAYLOAD_TOO_LARGE, before the rest of it is sent (a declared length is judged from the header; a
 * chunked body is read up to the limit, then answered), and changes nothing; a body of exactly the
 * limit is accepted, declared and chunked, by the control API and by the loyalty API.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/server.js";

const MIB = 1024 * 1024;
const SCENARIO_LIMIT = 4 * MIB;
const AUTH = "X-Api-Key: sim_key\r\nX-Api-Secret: sim_secret\r\n";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ customers: 5 });
});
afterAll(() => sim.close());

interface Answer {
  status: number;
  body: any;
}

/**
 * Writes `head` and `body` to a new connection and reads the one response. With `chunked`, the
 * body goes in 64 KiB chunks; `finish: false` leaves the request unfinished (no last chunk), so
 * only a server that answers without the rest of the body can answer at all.
 */
async function send(method: string, path: string, body: string, options: { chunked: boolean; declare?: number; finish?: boolean; headers?: string }): Promise<Answer> {
  const { chunked, finish = true } = options;
  const socket = connect(Number(new URL(sim.url).port), "127.0.0.1");
  socket.on("error", () => {});
  await new Promise((resolve) => socket.once("connect", resolve));
  const framing = chunked ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${options.declare ?? Buffer.byteLength(body)}\r\n`;
  const answer = new Promise<Answer>((resolve) => {
    let received = Buffer.alloc(0);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf("\r\n\r\n");
      if (end < 0) return;
      const head = received.subarray(0, end).toString("latin1");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      const text = received.subarray(end + 4, end + 4 + length).toString("utf8");
      resolve({ status: Number(head.split(" ")[1]), body: text ? JSON.parse(text) : undefined });
    });
  });
  socket.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${options.headers ?? ""}${framing}\r\n`);
  if (chunked) {
    for (let i = 0; i < body.length; i += 64 * 1024) {
      const piece = body.slice(i, i + 64 * 1024);
      socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
    }
    if (finish) socket.write("0\r\n\r\n");
  } else if (finish) {
    socket.write(body);
  }
  const res = await answer;
  socket.destroy();
  return res;
}

/** `json` padded with spaces after it to exactly `size` bytes (still the same JSON). */
const exactly = (json: object, size: number) => {
  const text = JSON.stringify(json);
  return text + " ".repeat(size - Buffer.byteLength(text));
};

const tooLarge = (limit: number) => ({ message: `Request body is larger than ${limit} bytes`, code: "PAYLOAD_TOO_LARGE", statusCode: 413 });

/** What a refused call must leave as it was. */
async function state() {
  const get = async (path: string) => (await fetch(`${sim.url}${path}`)).json();
  return { clock: await get("/__sim/clock"), shops: await get("/__sim/shops"), scenarios: await get("/__sim/scenarios") };
}

const CONTROL_CALLS: [string, string, object, number][] = [
  ["POST", "/__sim/clock", { advanceSeconds: 3600 }, MIB],
  ["POST", "/__sim/reset", {}, MIB],
  ["POST", "/__sim/shops", { customers: 1 }, MIB],
  ["POST", "/__sim/customers", { firstName: "A", lastName: "B", email: "a@example.com" }, MIB],
  ["POST", "/__sim/customers/1/merge", { into: "2" }, MIB],
  ["POST", "/__sim/scenarios", { name: "big", rules: [{ respond: { status: 418 } }] }, SCENARIO_LIMIT],
  ["DELETE", "/__sim/scenarios", {}, MIB],
  ["DELETE", "/__sim/requests", {}, MIB],
];

describe("control API bodies over the limit: 413, unread, nothing changed", () => {
  beforeAll(async () => {
    // A frozen clock, so that "unchanged" is exact.
    await sim.control.setClock({ frozen: true });
  });

  it.each(CONTROL_CALLS)("%s %s: a declared length one byte over the limit is refused from the header, the body never sent", async (method, path, _json, limit) => {
    const before = await state();
    const res = await send(method, path, "", { chunked: false, declare: limit + 1, finish: false });
    expect([res.status, res.body.error]).toEqual([413, tooLarge(limit)]);
    expect(await state()).toStrictEqual(before);
  });

  it.each(CONTROL_CALLS)("%s %s: a chunked body one byte over the limit is refused once it passes it, the request unfinished", async (method, path, json, limit) => {
    const before = await state();
    const res = await send(method, path, exactly(json, limit + 1), { chunked: true, finish: false });
    expect([res.status, res.body.error]).toEqual([413, tooLarge(limit)]);
    expect(await state()).toStrictEqual(before);
  });
});

describe("a body of exactly the limit is accepted, declared and chunked", () => {
  it.each([false, true])("POST /__sim/clock with exactly 1 MiB (chunked: %s) moves the clock", async (chunked) => {
    const frozen = await sim.control.setClock({ frozen: true });
    const res = await send("POST", "/__sim/clock", exactly({ advanceSeconds: 60 }, MIB), { chunked });
    expect(res.status).toBe(200);
    expect(Date.parse(res.body.now) - Date.parse(frozen.now)).toBe(60_000);
  });

  it.each([false, true])("POST /__sim/scenarios with exactly 4 MiB (chunked: %s) adds the scenario", async (chunked) => {
    const name = `exact-${chunked}`;
    const res = await send("POST", "/__sim/scenarios", exactly({ name, rules: [{ match: { operation: "getShop" }, respond: { status: 418 } }] }, SCENARIO_LIMIT), { chunked });
    expect([res.status, res.body.name, res.body.owner]).toEqual([201, name, "this shop"]);
    await sim.control.removeScenario(name);
  });

  it.each([false, true])("the API takes exactly 1 MiB (chunked: %s): the award is made; one byte more is 413 and awards nothing", async (chunked) => {
    const customers = (await (await fetch(`${sim.baseUrl}/customers?limit=5`, { headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" } })).json()) as { data: { id: string; state: string; stampBalance: number }[] };
    const customer = customers.data.find((c) => c.state === "active")!;
    const path = `/rest_api/v1/customers/${customer.id}/stamps/award`;
    const accepted = await send("POST", path, exactly({ stamps: 2 }, MIB), { chunked, headers: AUTH });
    expect([accepted.status, accepted.body.data]).toEqual([200, { customerId: customer.id, stampChange: 2, stampBalance: customer.stampBalance + 2 }]);
    const refused = await send("POST", path, exactly({ stamps: 2 }, MIB + 1), { chunked, headers: AUTH });
    expect([refused.status, refused.body.error]).toEqual([413, tooLarge(MIB)]);
    const after = (await (await fetch(`${sim.baseUrl}/customers/${customer.id}`, { headers: { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" } })).json()) as { data: { stampBalance: number } };
    expect(after.data.stampBalance).toBe(customer.stampBalance + 2);
  });
});
