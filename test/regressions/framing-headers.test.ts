/**
 * Issue 17, case 8. Was: a scenario could send framing and hop-by-hop headers of its own, and a
 * wrong `Content-Length` left the rest of the body on a keep-alive connection, where the client
 * read it as the start of the NEXT response (a `Trailer` answered 500 and reset the connection;
 * `Connection: close` ended it). They are refused, in any case, when the scenario is added. The
 * check reads a real socket as a client does: each response as long as its headers say.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/index.js";

const FRAMING = "is a hop-by-hop or framing header: the server sets it from the response it sends; remove it";

/** A raw keep-alive connection that reads responses by their own framing. */
class Connection {
  #data = Buffer.alloc(0);
  #closed = false;
  #wake: () => void = () => {};
  readonly #socket: Socket;

  constructor(port: number) {
    this.#socket = connect(port, "127.0.0.1");
    this.#socket.on("data", (chunk: Buffer) => {
      this.#data = Buffer.concat([this.#data, chunk]);
      this.#wake();
    });
    this.#socket.on("close", () => {
      this.#closed = true;
      this.#wake();
    });
    this.#socket.on("error", () => {});
  }

  send(text: string): void {
    this.#socket.write(text);
  }

  /** Waits until `ready` holds for the bytes received, or the connection closes. */
  async #until(ready: (data: Buffer) => boolean): Promise<void> {
    while (!ready(this.#data) && !this.#closed) await new Promise<void>((resolve) => (this.#wake = resolve));
  }

  /** The next response's status line, consuming it as its headers frame it; null if the connection closed first. */
  async response(): Promise<string | null> {
    await this.#until((d) => d.includes("\r\n\r\n"));
    const end = this.#data.indexOf("\r\n\r\n");
    if (end === -1) return null;
    const head = this.#data.subarray(0, end).toString("latin1");
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let size = length ? Number(length[1]) : 0;
    if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      // Chunks until the last one (size 0), each `size\r\ndata\r\n`.
      let at = end + 4;
      for (;;) {
        await this.#until((d) => d.indexOf("\r\n", at) !== -1);
        const line = this.#data.indexOf("\r\n", at);
        if (line === -1) return null;
        const chunk = Number.parseInt(this.#data.subarray(at, line).toString("latin1"), 16);
        at = line + 2 + chunk + 2;
        if (chunk === 0 || Number.isNaN(chunk)) break;
      }
      size = at - end - 4;
    }
    await this.#until((d) => d.length >= end + 4 + size);
    const statusLine = head.slice(0, head.indexOf("\r\n"));
    this.#data = this.#data.subarray(end + 4 + size);
    return statusLine;
  }

  /** The first bytes of what comes next, once there are `n` of them (or the connection closed). */
  async peek(n: number): Promise<string> {
    await this.#until((d) => d.length >= n);
    return this.#data.subarray(0, n).toString("latin1") + (this.#closed && this.#data.length < n ? "<closed>" : "");
  }

  close(): void {
    this.#socket.destroy();
  }
}

describe("framing headers in scenario responses", () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startSimulator({ customers: 0, rateLimit: "off" });
  });
  afterAll(() => sim?.close());

  const get = (path: string) => `GET /rest_api/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: ${sim.apiKey}\r\nX-Api-Secret: ${sim.apiSecret}\r\n\r\n`;

  it.each<[string, string]>([
    ["Content-Length", "5"],
    ["content-length", "0"],
    ["Transfer-Encoding", "chunked"],
    ["TRANSFER-ENCODING", "identity"],
    ["Connection", "close"],
    ["Keep-Alive", "timeout=1"],
    ["Upgrade", "websocket"],
    ["TE", "trailers"],
    ["Trailer", "X-Checksum"],
    ["Proxy-Connection", "close"],
  ])("%s: %s is refused, and the next response on the connection is whole", async (name, value) => {
    await sim.control.clearScenarios();
    const added = await fetch(`${sim.url}/__sim/scenarios`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "framing", rules: [{ match: { operation: "getShop" }, respond: { status: 200, headers: { [name]: value }, body: { hello: "world" } } }] }),
    });
    const connection = new Connection(sim.port);
    try {
      connection.send(get("/shop"));
      const first = await connection.response();
      connection.send(get("/tiers"));
      const next = await connection.peek("HTTP/1.1 200 OK\r\n".length);
      expect({ first, next }).toEqual({ first: "HTTP/1.1 200 OK", next: "HTTP/1.1 200 OK\r\n" });
    } finally {
      connection.close();
    }
    const refusal = (await added.json()) as { error: { details: unknown } };
    expect([added.status, refusal.error.details]).toEqual([422, [{ in: "body", path: `rules[0].respond.headers.${name}`, message: FRAMING }]]);
  });

  it("other headers a rule may set go out as given, and the connection stays in step", async () => {
    await sim.control.clearScenarios();
    const headers = { "Content-Type": "application/problem+json", "Retry-After": "120", "Content-Encoding": "identity", "Set-Cookie": "a=b" };
    await sim.control.addScenario({ name: "ok", rules: [{ match: { operation: "getShop" }, respond: { status: 503, headers, body: { down: true } } }] });
    const connection = new Connection(sim.port);
    try {
      connection.send(get("/shop"));
      expect(await connection.response()).toBe("HTTP/1.1 503 Service Unavailable");
      connection.send(get("/tiers"));
      expect(await connection.response()).toBe("HTTP/1.1 200 OK");
    } finally {
      connection.close();
    }
  });
});
