/**
 * Every row of the fault table (src/http/faults.ts) against what clients really meet: each kind
 * through a real socket, `sim.fetch` and interception, with `fetch` and `node:http`, must give
 * exactly what its row says (the response, or the error of its connection's end; a held request
 * the client's own error when it gives up, and the end's error when the server shuts down first),
 * and journal the status its row says. A kind added to the table without its pieces (its shipped
 * example, its row in the docs) fails here, naming the piece.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { CONNECTION_ENDS, FAULT_KINDS, FAULTS, faultResponse, type ClientKind, type Fault } from "../../src/http/faults.js";
import { createSimulator, startSimulator, type ControlClient } from "../../src/index.js";

const AUTH = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret" };
/** An origin the interception answers (plain http, so `node:http` can call it). */
const INTERCEPTED = "http://fault-kinds.example.test";
/** How long a held request is left before its client gives up or its server goes. */
const HOLD_MS = 100;

/** Where the simulator answers: its origin, its control client, and what ends held requests (nothing in process). */
interface Opened {
  origin: string;
  control: ControlClient;
  fetch: typeof fetch;
  shutDown?: () => Promise<void> | void;
}
const WAYS: { way: string; clients: ClientKind[]; shutDown?: string; open: () => Promise<Opened> }[] = [
  {
    way: "a real socket",
    clients: ["fetch", "http"],
    shutDown: "close()",
    open: async () => {
      const sim = await startSimulator({ customers: 1 });
      closers.push(() => sim.close());
      return { origin: sim.url, control: sim.control, fetch, shutDown: () => sim.close() };
    },
  },
  {
    way: "sim.fetch",
    clients: ["fetch"],
    open: async () => {
      const sim = createSimulator({ customers: 1 });
      return { origin: "http://loyalty-sim.local", control: sim.control, fetch: sim.fetch };
    },
  },
  {
    way: "interception",
    clients: ["fetch", "http"],
    shutDown: "restore()",
    open: async () => {
      const sim = createSimulator({ customers: 1 });
      const interception = sim.intercept(INTERCEPTED);
      closers.push(() => interception.restore());
      return { origin: INTERCEPTED, control: sim.control, fetch, shutDown: () => interception.restore() };
    },
  },
];

const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

type Outcome = { response: { status: number; type: string | null; body: string } } | { error: unknown };

/** One GET /shop by `client`, and a way for the client to give up with `reason`. */
function call(opened: Opened, client: ClientKind): { outcome: Promise<Outcome>; giveUp: (reason: Error) => void } {
  const url = `${opened.origin}/rest_api/v1/shop`;
  if (client === "fetch") {
    const controller = new AbortController();
    const outcome = opened
      .fetch(url, { headers: AUTH, signal: controller.signal })
      .then(async (res) => ({ response: { status: res.status, type: res.headers.get("content-type"), body: await res.text() } }), (error: unknown) => ({ error }));
    return { outcome, giveUp: (reason) => controller.abort(reason) };
  }
  let request: http.ClientRequest;
  const outcome = new Promise<Outcome>((resolve) => {
    request = http.get(url, { headers: AUTH }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ response: { status: res.statusCode!, type: res.headers["content-type"] ?? null, body } }));
    });
    request.on("error", (error) => resolve({ error }));
  });
  return { outcome, giveUp: (reason) => request.destroy(reason) };
}

/** What a client meets when the connection ends as the kind's row says. */
function endError(kind: Fault, client: ClientKind) {
  const row = FAULT_KINDS[kind];
  const raised = "connection" in row ? CONNECTION_ENDS[row.connection].raises[client] : undefined;
  if (raised === undefined) return undefined;
  return client === "fetch" ? { name: "TypeError", message: "fetch failed", cause: raised } : raised;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(FAULTS)("fault %s", (kind) => {
  const row = FAULT_KINDS[kind];
  const response = faultResponse(kind);

  describe.each(WAYS)("through $way", ({ clients, shutDown, open }) => {
    it.each(clients)("%s meets what the table says, and the journal has its status", async (client) => {
      const opened = await open();
      await opened.control.addScenario({ name: kind, rules: [{ match: { operation: "getShop" }, times: 1, respond: { fault: kind } }] });
      const { outcome, giveUp } = call(opened, client);
      if (row.holds) {
        let settled = false;
        void outcome.then(() => (settled = true));
        await wait(HOLD_MS);
        expect(settled, `${kind} answered ${client} before it gave up: the table says it holds`).toBe(false);
        const reason = new Error("the client gave up");
        giveUp(reason);
        expect(await outcome, `${kind}: ${client} that gives up meets its own error`).toEqual({ error: reason });
      } else if (response) {
        expect(await outcome, `${kind}: ${client} gets the table's response`).toEqual({ response: { status: response.status, type: response.type, body: response.body } });
      } else {
        const { error } = (await outcome) as { error?: unknown };
        expect(error, `${kind}: ${client} meets the error of the table's connection end`).toMatchObject(endError(kind, client)!);
      }
      await vi.waitFor(async () => expect((await opened.control.requests()).map((e) => [e.status, e.fault])).toEqual([[response?.status ?? null, kind]]));
      expect((await call(opened, client).outcome) as unknown, "the next request is answered (times: 1)").toMatchObject({ response: { status: 200 } });
    });

    if (!row.holds || shutDown === undefined) return;
    it.each(clients)(`%s held until ${shutDown} meets the error of the table's connection end`, async (client) => {
      const opened = await open();
      await opened.control.addScenario({ name: kind, rules: [{ match: { operation: "getShop" }, respond: { fault: kind } }] });
      const { outcome } = call(opened, client);
      await wait(HOLD_MS);
      await opened.shutDown!();
      const { error } = (await outcome) as { error?: unknown };
      expect(error, `${kind}: ${client} held, then the server went`).toMatchObject(endError(kind, client)!);
    });
  });

  it("ships an example in scenarios/faults/", () => {
    const file = `scenarios/faults/${kind.replaceAll("_", "-")}.yaml`;
    expect(existsSync(file), `fault "${kind}" ships no example: add ${file} (a rule answering with it, as the others)`).toBe(true);
    const rules = (parse(readFileSync(file, "utf8")) as { rules: { respond: { fault?: string } }[] }).rules;
    expect(rules.map((r) => r.respond.fault), `${file} answers with another fault`).toContain(kind);
  });

  it("has its row in the docs' table of what each client meets", () => {
    const docs = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
    const row = `| \`${kind}\` |`;
    const found = docs.filter((file) => readFileSync(file, "utf8").split("\n").some((line) => line.startsWith(row)));
    expect(found, `fault "${kind}" has no row "${row} ..." in the faults table of README.md or docs/ (what fetch, node:http and axios meet)`).not.toEqual([]);
  });
});
