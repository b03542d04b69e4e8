/**
 * For the tests of `loyalty-sim verify`: a simulator on a real port standing in for production
 * (its clock running from a fixed instant, so its seeded customers are the same every day), the
 * customers a write run may use, and a proxy in front of it that changes one thing (a drift) and
 * counts what it forwards, writes apart.
 * @module
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Kind, parse } from "graphql";
import { afterAll } from "vitest";
import { parseConfig } from "../../src/config.js";
import { SimClock } from "../../src/engine/clock.js";
import { serve } from "../../src/simulator/server.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import type { ShopStore } from "../../src/store/shop-store.js";
import { NOW } from "./sim.js";

/** A simulator on a port, as `npx loyalty-sim --seed 1 --customers 50` starts it (or with more customers), with a quota no test run uses up. */
export async function startStandIn(options: { apiKey?: string; apiSecret?: string; customers?: number } = {}) {
  const config = parseConfig({ port: 0, logLevel: "silent", seed: 1, customers: 50, rateLimit: 100_000, ...options });
  const started = Date.now();
  const built = buildSimulator(config, { newClock: () => new SimClock(() => NOW + (Date.now() - started)) });
  const sim = await serve(built, config);
  afterAll(() => sim.close());
  return sim;
}

/**
 * Customers every write check can run with: active, with a tier, able to pay the cheapest listed
 * reward (one stamp more, for a drift that charges one too many) and not the dearest.
 */
export function writableCustomers(store: ShopStore, count: number): string[] {
  const prices = store.data.program.rewards.filter((r) => !r.posOnly && r.tierId === undefined && r.exchangeType !== "variable").map((r) => r.price);
  const [cheapest, dearest] = [Math.min(...prices), Math.max(...prices)];
  const found = store.data.customers
    .filter((c) => !c.excluded && c.mergedIntoCustomerId === undefined && c.vipTierId !== undefined && c.balance >= cheapest && c.balance < dearest - 1)
    .map((c) => c.id);
  if (found.length < count) throw new Error(`only ${found.length} customers of this seed suit a write run; ${count} are needed`);
  return found.slice(0, count);
}

export interface ProxiedRequest {
  method: string;
  /** With the query. */
  path: string;
  body: string;
}

/** One difference from the contract: how the proxy changes a request, an answer's JSON or its headers. */
export interface Drift {
  /** True: the connection is cut, nothing forwarded (a target that stops answering). */
  drop?(request: ProxiedRequest): boolean;
  request?(request: ProxiedRequest): ProxiedRequest;
  json?(body: any, request: ProxiedRequest): unknown;
  headers?(headers: Headers, request: ProxiedRequest): void;
}

/** Whether a request could write: anything but a GET, and a GraphQL POST whose document is not only queries. */
function isWrite({ method, path, body }: ProxiedRequest): boolean {
  if (method === "GET") return false;
  if (method !== "POST" || path.split("?")[0] !== "/graphql") return true;
  try {
    return parse((JSON.parse(body) as { query: string }).query).definitions.some((d) => d.kind === Kind.OPERATION_DEFINITION && d.operation !== "query");
  } catch {
    return true;
  }
}

const FORWARDED = ["x-api-key", "x-api-secret", "content-type", "accept", "user-agent"];

export async function startProxy(target: string, drift: Drift = {}) {
  const counts = { requests: 0, writes: 0 };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const received = { method: req.method!, path: req.url!, body: Buffer.concat(chunks).toString("utf8") };
    counts.requests++;
    if (isWrite(received)) counts.writes++;
    if (drift.drop?.(received)) return void req.socket.destroy();
    const request = drift.request?.(received) ?? received;
    const headers = Object.fromEntries(FORWARDED.flatMap((name) => (typeof req.headers[name] === "string" ? [[name, req.headers[name] as string]] : [])));
    const answer = await fetch(`${target}${request.path}`, { method: request.method, headers, ...(request.body !== "" && { body: request.body }) });
    let text = await answer.text();
    const out = new Headers(answer.headers);
    for (const name of ["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"]) out.delete(name);
    drift.headers?.(out, request);
    if (drift.json && out.get("content-type")?.includes("json") && text !== "") text = JSON.stringify(drift.json(JSON.parse(text), request));
    res.writeHead(answer.status, Object.fromEntries(out));
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  afterAll(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, counts, close };
}

/** Every object in a JSON value, depth first, for drifts that change records wherever they are. */
export function eachObject(value: unknown, visit: (object: Record<string, unknown>) => void): void {
  if (Array.isArray(value)) return value.forEach((item) => eachObject(item, visit));
  if (typeof value !== "object" || value === null) return;
  visit(value as Record<string, unknown>);
  for (const field of Object.values(value)) eachObject(field, visit);
}
