/**
 * The outbound request that carries a shop's credentials (verify, import): no redirect followed,
 * no answer read past its bound, nothing hangs past the timeout. Against real sockets: Node's own
 * fetch is what decides whether a redirect is followed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { OutboundError, redirectProblem, sendOutbound } from "../../src/http/outbound.js";

async function server(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: { url: string; headers: IncomingMessage["headers"] }[] = [];
  const s = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    handle(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    s.closeAllConnections();
    s.close();
  });
  return { origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

const credentials = { "X-Api-Key": "key", "X-Api-Secret": "secret" };
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected an OutboundError"), (error: unknown) => error as OutboundError);

describe("sendOutbound", () => {
  it("refuses a redirect to another port without sending the credentials there, and says where it pointed", async () => {
    const elsewhere = await server((_req, res) => res.end("{}"));
    const target = await server((_req, res) => res.writeHead(302, { Location: `${elsewhere.origin}/steal?token=abc` }).end());
    const error = await failure(sendOutbound(fetch, `${target.origin}/rest_api/v1/shop`, { headers: credentials }));
    expect(error).toBeInstanceOf(OutboundError);
    expect(error.message).toBe(`answered 302, a redirect to ${elsewhere.origin}/steal: loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself`);
    expect(elsewhere.seen).toEqual([]);
  });

  it("refuses a 307 of a write: the body is not sent again", async () => {
    const elsewhere = await server((_req, res) => res.end("{}"));
    const target = await server((_req, res) => res.writeHead(307, { Location: `${elsewhere.origin}/rest_api/v1/customers/2/stamps/award` }).end());
    const error = await failure(sendOutbound(fetch, `${target.origin}/rest_api/v1/customers/1/stamps/award`, { method: "POST", headers: credentials, body: '{"stamps":1}' }));
    expect(error.message).toMatch(/^answered 307, a redirect to http:\/\/127\.0\.0\.1:\d+\/rest_api\/v1\/customers\/2\/stamps\/award: /);
    expect(target.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
  });

  it("names a downgrade from https to http, and drops control characters and user info", () => {
    expect(redirectProblem(301, "http://user:pw@stamp.example/a\u001b[31m?x=1", "https://stamp.example/rest_api/v1/shop")).toBe(
      "answered 301, a redirect to http://stamp.example/a%1B[31m (from https to plain http): loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself",
    );
    expect(redirectProblem(302, null, "https://a.example/")).toMatch(/^answered 302, a redirect to nowhere \(no Location\): /);
  });

  it("reads an answer within the bound whole", async () => {
    const target = await server((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end('{"success":true,"data":"é"}'));
    const answer = await sendOutbound(fetch, `${target.origin}/x`, {}, { maxBytes: 1024 });
    expect([answer.status, answer.text, answer.headers.get("content-type")]).toEqual([200, '{"success":true,"data":"é"}', "application/json"]);
  });

  it("refuses a declared length over the bound before reading the body", async () => {
    const target = await server((_req, res) => res.writeHead(200, { "Content-Length": 2048 }).end("x".repeat(2048)));
    const error = await failure(sendOutbound(fetch, `${target.origin}/x`, {}, { maxBytes: 1024 }));
    expect(error.message).toBe("the answer is larger than 1024 bytes (it declared 2048 bytes), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read");
  });

  it("stops reading an endless body at the bound", async () => {
    let written = 0;
    const target = await server((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once("drain", more);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      more();
    });
    const error = await failure(sendOutbound(fetch, `${target.origin}/x`, {}, { maxBytes: 1024 * 1024 }));
    expect(error.message).toBe("the answer is larger than 1048576 bytes (it went on past that), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read");
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it("ends a body that stalls at the timeout, and an address nobody answers at once", async () => {
    const target = await server((_req, res) => res.writeHead(200).write("{"));
    const stalled = await failure(sendOutbound(fetch, `${target.origin}/x`, {}, { timeoutMs: 200 }));
    expect(stalled.message).toBe("the answer broke off: no answer within 0.2 s");
    const closed = await server((req) => req.socket.destroy());
    const dropped = await failure(sendOutbound(fetch, `${closed.origin}/x`, {}));
    expect(dropped.message).toMatch(/^no answer: /);
  });
});
