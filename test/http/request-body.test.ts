/**
 * Reading request bodies under the Node server (src/http/request-input.ts), on a real port with
 * the server options the simulator listens with: the body limit's step reads a body sent with its
 * headers at once, and one that comes later, a chunked one and a large one through hono's request, and keeps
 * its text on the request's record; an unread body does not disturb the next request on the
 * connection.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { createRoute, OpenAPIHono } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../src/engine/clock.js";
import type { AppEnv } from "../../src/http/env.js";
import { answerError, writeEnvelope } from "../../src/http/errors.js";
import { bodyLimit } from "../../src/http/gates/index.js";
import { createGateway } from "../../src/http/gateway.js";
import { createMount } from "../../src/http/mount.js";
import { nodeServerOptions } from "../../src/http/node-server.js";
import { bodyOf } from "../../src/http/request-input.js";

let server: ServerType;
let port: number;

/** Whether the body limit's step had to wait for the body (answered with a promise). */
const waited = new WeakMap<object, boolean>();
const limit = bodyLimit(() => 1024 * 1024);

beforeAll(async () => {
  const gateway = createGateway({
    everyRequest: [(exchange) => void (exchange.clock = fixedClock(0))],
    api: [],
    graphql: { gates: [], writeError: writeEnvelope },
    other: [(exchange) => {
      const read = limit(exchange);
      waited.set(exchange, read !== undefined);
      return read;
    }],
    recorder: { begin: () => undefined, waits: () => false, finish: () => undefined, finishLater: () => Promise.resolve() },
    onError: (error, exchange) => answerError(error, exchange),
  });
  const echo = createRoute({ method: "post", path: "/echo", hide: true, responses: { 200: { description: "" } } });
  const app = new OpenAPIHono<AppEnv>();
  app.route("/", createMount({ side: gateway.other, base: "" })().route(echo, (c, exchange) => c.json({ body: bodyOf(exchange), waited: waited.get(exchange) })).router);
  // Answers without reading the body: Node has to discard it before the next request.
  app.post("/refuse", (c) => c.json({ refused: true }, 401));
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", ...nodeServerOptions });
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  status: number;
  json: unknown;
}

/** Writes `parts` to one connection (waiting `gapMs` between them) and reads `count` responses. */
async function exchange(parts: (string | Buffer)[], count: number, gapMs = 0): Promise<Answer[]> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  let received = Buffer.alloc(0);
  const answers: Answer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    socket.on("error", reject);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf("\r\n\r\n");
        if (end < 0) break;
        const head = received.subarray(0, end).toString("latin1");
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)![1]);
        if (received.length < end + 4 + length) break;
        const body = received.subarray(end + 4, end + 4 + length).toString("utf8");
        answers.push({ status: Number(head.split(" ")[1]), json: JSON.parse(body) });
        received = received.subarray(end + 4 + length);
      }
      if (answers.length === count) resolve();
    });
  });
  for (const [i, part] of parts.entries()) {
    if (i > 0 && gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    socket.write(part);
  }
  await done;
  socket.destroy();
  return answers;
}

const post = (path: string, body: Buffer | string, extra = "") =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n`;

describe("request bodies under the Node server", () => {
  it("reads a body sent with its headers at once, without waiting for a turn of the event loop", async () => {
    const body = '{"stamps":1}';
    expect(await exchange([post("/echo", body) + body], 1)).toEqual([{ status: 200, json: { body, waited: false } }]);
  });

  it("waits for a body that comes after its headers", async () => {
    const body = '{"stamps":2}';
    expect(await exchange([post("/echo", body), body], 1, 50)).toEqual([{ status: 200, json: { body, waited: true } }]);
  });

  it("waits for a chunked body", async () => {
    const head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const answers = await exchange([head, "5\r\n{\"sta\r\n", "7\r\nmps\":3}\r\n0\r\n\r\n"], 1, 20);
    expect(answers).toEqual([{ status: 200, json: { body: '{"stamps":3}', waited: true } }]);
  });

  it("reads a large body (100 kB) whole", async () => {
    const body = JSON.stringify({ comment: "x".repeat(100_000) });
    const [answer] = await exchange([post("/echo", body) + body], 1);
    expect(answer!.status).toBe(200);
    expect((answer!.json as { body: string }).body === body).toBe(true);
  });

  it("decodes as the adapter does: invalid UTF-8 becomes U+FFFD, a leading BOM is dropped", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"'), Buffer.from([0xff, 0xc3]), Buffer.from('é"}')]);
    const [answer] = await exchange([Buffer.concat([Buffer.from(post("/echo", bytes)), bytes])], 1);
    expect(answer).toEqual({ status: 200, json: { body: '{"a":"\uFFFD\uFFFDé"}', waited: false } });
  });

  it("answers pipelined requests in order, each with its own body", async () => {
    const first = '{"n":1}';
    const second = '{"n":22}';
    const answers = await exchange([post("/echo", first) + first + post("/echo", second) + second], 2);
    expect(answers.map((a) => a.json)).toEqual([{ body: first, waited: false }, { body: second, waited: false }]);
  });

  it("discards a body the app did not read, and the connection serves the next request", async () => {
    const unread = JSON.stringify({ big: "y".repeat(200_000) });
    const body = '{"after":true}';
    const answers = await exchange([post("/refuse", unread), unread + post("/echo", body) + body], 2, 20);
    expect(answers).toEqual([
      { status: 401, json: { refused: true } },
      { status: 200, json: { body, waited: false } },
    ]);
  });
});
