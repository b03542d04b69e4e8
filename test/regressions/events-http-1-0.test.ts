/**
 * Issue 26, case 13 (the events half). Was: `/__sim/events` answered every client with
 * `Transfer-Encoding: chunked` and `Connection: keep-alive` (set by hono's SSE helper), so an
 * HTTP/1.0 client, which knows no chunked encoding, read chunk sizes as part of the stream. Now the
 * server frames the stream: close-delimited with `Connection: close` for HTTP/1.0, chunked for
 * HTTP/1.1. Read on a raw socket, as such a client reads it.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { listen } from "../../src/simulator/server.js";
import { AUTH } from "../support/sim.js";

let running: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  running = await listen(parseConfig({ port: 0, logLevel: "silent", customers: 0 }));
});
afterAll(() => running.close());

/** A raw connection that collects what it reads; `until` waits for a text to have been read. */
function rawClient(request: string) {
  const socket: Socket = connect(running.port, "127.0.0.1");
  let read = "";
  let ended = false;
  const waiters: (() => void)[] = [];
  socket.on("data", (chunk) => {
    read += chunk.toString("latin1");
    for (const wake of waiters.splice(0)) wake();
  });
  socket.on("close", () => {
    ended = true;
    for (const wake of waiters.splice(0)) wake();
  });
  socket.write(request);
  const until = async (done: () => boolean) => {
    while (!done()) {
      if (ended) throw new Error(`connection closed; read ${JSON.stringify(read)}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { socket, read: () => read, ended: () => ended, until };
}

const head = (text: string) => text.slice(0, text.indexOf("\r\n\r\n")).toLowerCase().split("\r\n");

describe("issue 26, case 13: /__sim/events sends chunked framing to HTTP/1.0 clients", () => {
  it("HTTP/1.1 keeps chunked framing and the connection", async () => {
    const client = rawClient("GET /__sim/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    await client.until(() => client.read().includes("\r\n\r\n23\r\nevent: journal\n"));
    const lines = head(client.read());
    expect(lines).toContain("transfer-encoding: chunked");
    expect(lines).toContain("connection: keep-alive");
    client.socket.destroy();
  });

  it("HTTP/1.0: no chunked framing, Connection: close, the events as written; the stream ends with the connection", async () => {
    const client = rawClient("GET /__sim/events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n");
    const first = 'event: journal\ndata: {"lastId":0}\n\n';
    await client.until(() => client.read().includes(first));
    const lines = head(client.read());
    expect(lines[0]).toBe("http/1.1 200 ok");
    expect(lines).toContain("connection: close");
    expect(lines).toContain("content-type: text/event-stream");
    expect(lines.filter((l) => l.startsWith("transfer-encoding") || l.startsWith("content-length"))).toEqual([]);
    expect(client.read().slice(client.read().indexOf("\r\n\r\n") + 4)).toBe(first);
    await fetch(`${running.baseUrl}/shop`, { headers: AUTH });
    const second = 'event: journal\ndata: {"lastId":1}\n\n';
    await client.until(() => client.read().endsWith(second));
    expect(client.read().slice(client.read().indexOf("\r\n\r\n") + 4)).toBe(first + second);
    // The stream ends (here: its shop's hub closes) and the connection with it, which is the end
    // of the body an HTTP/1.0 client reads.
    running.built.events.close();
    await new Promise<void>((resolve) => (client.ended() ? resolve() : client.socket.once("close", () => resolve())));
    expect(client.read().endsWith(second)).toBe(true);
  });
});
