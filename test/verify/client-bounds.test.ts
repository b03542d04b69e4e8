/**
 * The polite client against hostile targets on real sockets (Node's own fetch decides whether a
 * redirect is followed): a redirect is never followed, so the credentials and a write stay with
 * the origin the user named; an answer is read only up to its bound, alone and over the run; an
 * answer nested too deep or holding too many values is refused before it is parsed. Each is a
 * TargetError naming the request (exit code 2).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES } from "../../src/http/outbound.js";
import { MAX_ANSWER_VALUES, MAX_RUN_ANSWER_BYTES, PoliteClient, TargetError, type ClientOptions } from "../../src/verify/client.js";

async function server(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { method: string; url: string; headers: IncomingMessage["headers"] }[] = [];
  const s = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    handle(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    s.closeAllConnections();
    s.close();
  });
  return { origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

const client = (origin: string, options: Partial<ClientOptions> = {}) =>
  new PoliteClient({ origin, fetch, apiKey: "the-key", apiSecret: "the-secret", writes: false, plan: false, pace: false, left: () => 1, ...options });
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a TargetError"), (error: unknown) => error as TargetError);
const shop = { method: "GET" as const, path: "/rest_api/v1/shop" };
const REFUSAL = "loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself";

describe("a redirect", () => {
  it("to another port is refused: the credentials never reach it, and the error names where it pointed", async () => {
    const elsewhere = await server((_req, res) => res.end("{}"));
    const target = await server((_req, res) => res.writeHead(302, { Location: `${elsewhere.origin}/collect?secret=1` }).end());
    const error = await failure(client(target.origin).send(shop));
    expect(error).toBeInstanceOf(TargetError);
    expect(error.message).toBe(`GET /rest_api/v1/shop: answered 302, a redirect to ${elsewhere.origin}/collect: ${REFUSAL}`);
    expect(elsewhere.seen).toEqual([]);
  });

  it("of a write (307) to another customer is refused: the award is sent once, to the customer named", async () => {
    const target = await server((req, res) => {
      if (req.url!.includes("/customers/1/")) res.writeHead(307, { Location: "/rest_api/v1/customers/2/stamps/award" }).end();
      else res.writeHead(200, { "Content-Type": "application/json" }).end('{"success":true,"data":{}}');
    });
    const award = { method: "POST" as const, path: "/rest_api/v1/customers/1/stamps/award", body: { stamps: 1 } };
    const error = await failure(client(target.origin, { writes: true }).send(award));
    expect(error.message).toBe(`POST /rest_api/v1/customers/1/stamps/award: answered 307, a redirect to ${target.origin}/rest_api/v1/customers/2/stamps/award: ${REFUSAL}`);
    expect(target.seen.map((r) => `${r.method} ${r.url}`)).toEqual(["POST /rest_api/v1/customers/1/stamps/award"]);
  });

  it("from https to plain http is refused and named a downgrade: fetch is told not to follow it", async () => {
    const inits: RequestInit[] = [];
    const fake: typeof fetch = async (_url, init) => {
      inits.push(init!);
      return new Response(null, { status: 301, headers: { Location: "http://stamp.example/rest_api/v1/shop" } });
    };
    const error = await failure(client("https://stamp.example", { fetch: fake }).send(shop));
    expect(error.message).toBe(`GET /rest_api/v1/shop: answered 301, a redirect to http://stamp.example/rest_api/v1/shop (from https to plain http): ${REFUSAL}`);
    expect(inits.map((i) => i.redirect)).toEqual(["manual"]);
  });
});

describe("an answer's size", () => {
  it("an endless body is read up to the bound, then refused: memory stays flat", async () => {
    let written = 0;
    const target = await server((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once("drain", more);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      more();
    });
    const heap = process.memoryUsage().rss;
    const error = await failure(client(target.origin).send(shop));
    expect(error.message).toBe(`GET /rest_api/v1/shop: the answer is larger than ${MAX_ANSWER_BYTES} bytes (it went on past that), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read`);
    expect(written).toBeLessThan(4 * MAX_ANSWER_BYTES);
    expect(process.memoryUsage().rss - heap).toBeLessThan(256 * 1024 * 1024);
  });

  it("a declared Content-Length over the bound is refused before the body is read", async () => {
    const target = await server((_req, res) => res.writeHead(200, { "Content-Length": String(MAX_ANSWER_BYTES + 1) }).end());
    const error = await failure(client(target.origin).send(shop));
    expect(error.message).toBe(`GET /rest_api/v1/shop: the answer is larger than ${MAX_ANSWER_BYTES} bytes (it declared ${MAX_ANSWER_BYTES + 1} bytes), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read`);
  });

  it("a compressed answer is bounded by what it inflates to: a gzip bomb is read no further than the bound", async () => {
    const bomb = gzipSync(Buffer.alloc(4 * MAX_ANSWER_BYTES, 0x20));
    const target = await server((_req, res) => res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": String(bomb.length) }).end(bomb));
    const error = await failure(client(target.origin).send(shop));
    expect(error.message).toBe(`GET /rest_api/v1/shop: the answer is larger than ${MAX_ANSWER_BYTES} bytes (it went on past that), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read`);
  });

  it("the answers of a run together are bounded too: past it the run stops", async () => {
    const big = `{"success":true,"data":"${"x".repeat(MAX_ANSWER_BYTES - 100)}"}`;
    const target = await server((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(big));
    const polite = client(target.origin);
    const fit = Math.floor(MAX_RUN_ANSWER_BYTES / big.length);
    for (let i = 0; i < fit; i++) expect((await polite.send(shop))!.status).toBe(200);
    const error = await failure(polite.send(shop));
    expect(error.message).toMatch(new RegExp(`^GET /rest_api/v1/shop: the run's answers together are larger than ${MAX_RUN_ANSWER_BYTES} bytes, the most loyalty-sim reads in one run \\(docs/limits\\.md\\)`));
  });

  it("JSON nested a million deep, or holding more values than the bound, is refused before it is parsed", async () => {
    const deep = `${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`;
    const many = `{"success":true,"data":[${Array.from({ length: MAX_ANSWER_VALUES }, () => "0").join(",")}]}`;
    const target = await server((req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end(req.url!.endsWith("deep") ? deep : many));
    const tooDeep = await failure(client(target.origin).send({ method: "GET", path: "/rest_api/v1/deep" }));
    expect(tooDeep.message).toBe("GET /rest_api/v1/deep: the answer is JSON nested deeper than 64 levels, more than loyalty-sim reads of one answer (docs/limits.md)");
    const tooMany = await failure(client(target.origin).send({ method: "GET", path: "/rest_api/v1/many" }));
    expect(tooMany.message).toBe(`GET /rest_api/v1/many: the answer holds more than ${MAX_ANSWER_VALUES} JSON values, more than loyalty-sim reads of one answer (docs/limits.md)`);
  });
});
