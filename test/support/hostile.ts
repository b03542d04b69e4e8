/**
 * For the tests of `loyalty-sim verify` against hostile targets: a proxy in front of the stand-in
 * that forwards every request (so a write takes effect behind it, as on a real target that then
 * answers badly) and may answer otherwise than the stand-in did: other JSON, other text, a
 * redirect, an endless or a broken-off body, a declared length it never sends, an answer that
 * stalls. And the state of a customer in the stand-in's store, to tell whether a run put it back.
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll } from "vitest";
import type { ShopStore } from "../../src/store/shop-store.js";

/** A request as received, and the stand-in's answer to it. */
export interface Forwarded {
  /** The index of the request among those the proxy received, from 0. */
  index: number;
  method: string;
  /** With the query. */
  path: string;
  body: string;
  status: number;
  headers: Record<string, string>;
  /** The answer's text. */
  text: string;
}

/** How the proxy answers instead of the stand-in. */
export type Reply =
  | { kind: "answer"; status: number; headers: Record<string, string>; text: string }
  | { kind: "redirect"; status: number; location: string }
  | { kind: "endless" }
  | { kind: "declared"; bytes: number }
  | { kind: "broken"; text: string }
  | { kind: "stall"; text: string };

export type Hostility = (answer: Forwarded) => Reply | undefined;

const FORWARDED = ["x-api-key", "x-api-secret", "content-type", "accept", "user-agent"];
const DROPPED = ["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"];

export async function startHostileProxy(target: string, hostility: Hostility) {
  let index = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(FORWARDED.flatMap((name) => (typeof req.headers[name] === "string" ? [[name, req.headers[name] as string]] : [])));
    const upstream = await fetch(`${target}${req.url}`, { method: req.method!, headers, ...(body !== "" && { body }) });
    const text = await upstream.text();
    const kept = Object.fromEntries([...upstream.headers].filter(([name]) => !DROPPED.includes(name)));
    const forwarded: Forwarded = { index: index++, method: req.method!, path: req.url!, body, status: upstream.status, headers: kept, text };
    reply(req, res, hostility(forwarded) ?? { kind: "answer", status: upstream.status, headers: kept, text });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  afterAll(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => index, close };
}

function reply(req: IncomingMessage, res: ServerResponse, answer: Reply): void {
  switch (answer.kind) {
    case "answer":
      res.writeHead(answer.status, answer.headers).end(answer.text);
      return;
    case "redirect":
      res.writeHead(answer.status, { Location: answer.location }).end();
      return;
    case "declared":
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(answer.bytes) }).write("{");
      return;
    case "broken":
      res.writeHead(200, { "Content-Type": "application/json" }).write(answer.text, () => req.socket.destroy());
      return;
    case "stall":
      res.writeHead(200, { "Content-Type": "application/json" }).write(answer.text);
      return;
    case "endless": {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once("drain", more);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      more();
    }
  }
}

/** A server that records every request it gets: where a redirect points, which no client may follow. */
export async function startBystander() {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

/** A JSON answer of the stand-in with its body changed. */
export const withJson = (answer: Forwarded, change: (body: any) => unknown, status = answer.status): Reply => ({
  kind: "answer",
  status,
  headers: { ...answer.headers, "content-type": "application/json" },
  text: JSON.stringify(change(JSON.parse(answer.text))),
});

/** What a write run must leave as it found: the balance, the tier, the ids of the active codes. */
export function customerState(store: ShopStore, id: string) {
  const customer = store.customer(id)!;
  const active = store
    .codesOf(id)
    .filter((c) => !c.used && !c.voided)
    .map((c) => String(c.id))
    .sort();
  return { balance: customer.balance, tier: customer.vipTierId ?? null, active };
}
