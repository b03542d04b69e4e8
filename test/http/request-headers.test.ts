/**
 * requestHeader reads a header from Node's `incoming.headers` under the simulator's Node server
 * and from the fetch Request otherwise; both ways give what fetch `Headers.get` gives, repeated
 * headers and padded values included.
 */
import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/env.js";
import { nodeServerOptions } from "../../src/http/node-server.js";
import { requestHeader } from "../../src/http/request-input.js";

const NAMES = ["x-api-key", "prefer", "content-type", "x-missing", "x-api-kez", "constructor", "origin"];

/** For each of NAMES, what requestHeader says and what the fetch Request's `Headers` say. */
const app = new Hono<AppEnv>();
app.get("/", (c) =>
  c.json({
    ours: Object.fromEntries(NAMES.map((name) => [name, requestHeader(c, name) ?? null])),
    fetch: Object.fromEntries(NAMES.map((name) => [name, c.req.raw.headers.get(name)])),
  }),
);

/** Raw header lines, as a client may send them: names in any case, repeats, padded values. */
const RAW = ["X-API-KEY: sim_key", "Prefer:  code=404 ", "prefer:\tdelay=5", "Content-Type: application/json", "content-type: text/plain", "Origin:"];
const EXPECTED = {
  "x-api-key": "sim_key",
  prefer: "code=404, delay=5",
  "content-type": "application/json, text/plain",
  "x-missing": null,
  "x-api-kez": null,
  constructor: null,
  origin: "",
};

let server: ServerType;
let port: number;

beforeAll(async () => {
  server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", ...nodeServerOptions });
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("requestHeader", () => {
  it("under the simulator's Node server: matches any case, joins repeats with ', ', trims, as fetch Headers do", async () => {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write(`GET / HTTP/1.1\r\nHost: sim.test\r\n${RAW.join("\r\n")}\r\nConnection: close\r\n\r\n`);
    let text = "";
    for await (const chunk of socket) text += String(chunk);
    const body = JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as { ours: unknown; fetch: unknown };
    expect(body.ours).toEqual(EXPECTED);
    expect(body.fetch).toEqual(EXPECTED);
  });

  it("in process (no Node request): reads the fetch Request's headers", async () => {
    const headers = new Headers();
    for (const line of RAW) {
      const colon = line.indexOf(":");
      headers.append(line.slice(0, colon), line.slice(colon + 1));
    }
    const res = await app.fetch(new Request("http://sim.test/", { headers }));
    const body = (await res.json()) as { ours: unknown; fetch: unknown };
    expect(body.ours).toEqual(EXPECTED);
  });

  it("reads Node's request, not the fetch Request, when there is one", async () => {
    const read = new Hono<AppEnv>().get("/", (c) => c.text(requestHeader(c, "x-api-key") ?? "none"));
    const res = await read.fetch(new Request("http://sim.test/", { headers: { "X-Api-Key": "from-fetch" } }), {
      incoming: { headers: { "x-api-key": "from-node" } },
    });
    expect(await res.text()).toBe("from-node");
  });
});
