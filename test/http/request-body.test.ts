/**
 * Reading request bodies under the Node server (src/http/request-body.ts), on a real port with
 * the server options the simulator listens with: a body sent with its headers is read from the
 * stream's buffer without waiting; one that comes later, chunked, or larger than the wait covers
 * is read by the adapter; an unread body does not disturb the next request on the connection.
 */
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/env.js";
import { nodeServerOptions } from "../../src/http/node-server.js";
import { bodyText } from "../../src/http/request-input.js";

let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono<AppEnv>();
  app.post("/echo", (c) => {
    const text = bodyText(c);
    const waited = typeof text !== "string";
    return Promise.resolve(text).then((body) => c.json({ waited, body, again: bodyText(c) === body }));
  });
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
  it("reads a body sent with its headers without waiting, and keeps it for a second read", async () => {
    const body = '{"stamps":1}';
    expect(await exchange([post("/echo", body) + body], 1)).toEqual([{ status: 200, json: { waited: false, body, again: true } }]);
  });

  it("waits for a body that comes after its headers", async () => {
    const body = '{"stamps":2}';
    expect(await exchange([post("/echo", body), body], 1, 50)).toEqual([{ status: 200, json: { waited: true, body, again: true } }]);
  });

  it("waits for a chunked body", async () => {
    const head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
    const answers = await exchange([head, "5\r\n{\"sta\r\n", "7\r\nmps\":3}\r\n0\r\n\r\n"], 1, 20);
    expect(answers).toEqual([{ status: 200, json: { waited: true, body: '{"stamps":3}', again: true } }]);
  });

  it("reads a body larger than the wait covers (64 KiB) whole", async () => {
    const body = JSON.stringify({ comment: "x".repeat(100_000) });
    const [answer] = await exchange([post("/echo", body) + body], 1);
    const { body: read, ...rest } = answer!.json as { body: string };
    expect([answer!.status, rest]).toEqual([200, { waited: true, again: true }]);
    expect(read === body).toBe(true);
  });

  it("decodes as the adapter does: invalid UTF-8 becomes U+FFFD, a leading BOM is dropped", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"'), Buffer.from([0xff, 0xc3]), Buffer.from('é"}')]);
    const [answer] = await exchange([Buffer.concat([Buffer.from(post("/echo", bytes)), bytes])], 1);
    expect(answer).toEqual({ status: 200, json: { waited: false, body: '{"a":"\uFFFD\uFFFDé"}', again: true } });
  });

  it("answers pipelined requests in order, each with its own body", async () => {
    const first = '{"n":1}';
    const second = '{"n":22}';
    const answers = await exchange([post("/echo", first) + first + post("/echo", second) + second], 2);
    expect(answers.map((a) => a.json)).toEqual([
      { waited: false, body: first, again: true },
      { waited: expect.any(Boolean), body: second, again: true },
    ]);
  });

  it("discards a body the app did not read, and the connection serves the next request", async () => {
    const unread = JSON.stringify({ big: "y".repeat(200_000) });
    const body = '{"after":true}';
    const answers = await exchange([post("/refuse", unread), unread + post("/echo", body) + body], 2, 20);
    expect(answers).toEqual([
      { status: 401, json: { refused: true } },
      { status: 200, json: { waited: false, body, again: true } },
    ]);
  });
});
