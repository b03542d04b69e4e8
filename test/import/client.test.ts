/**
 * import's reader alone, over a fake fetch and a fake clock: GET only, a 429 waited out for its
 * Retry-After (seconds or a date) and given up after 6 in a row or a wait over an hour, an answer
 * the contract does not describe refused, an unreachable source named, never a credential.
 */
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PoliteReader, SourceError, type ReaderOptions } from "../../src/import/client.js";
import { envelope } from "../../src/http/schemas.js";

const SECRET = "reader-secret-never-shown";
const shop = envelope(z.object({ programName: z.string() }));

function reader(answers: { status?: number; headers?: Record<string, string>; body?: unknown }[], options: Partial<ReaderOptions> = {}) {
  let now = Date.UTC(2026, 10, 23, 12);
  const sleeps: number[] = [];
  const sent: { url: string; init: RequestInit }[] = [];
  const fake: typeof fetch = async (url, init) => {
    sent.push({ url: String(url), init: init! });
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)]!;
    const body = answer.body ?? { success: true, data: { programName: "Crumb" }, timestamp: "2026-11-23T12:00:00+00:00" };
    return new Response(JSON.stringify(body), { status: answer.status ?? 200, headers: { "Content-Type": "application/json", ...answer.headers } });
  };
  const polite = new PoliteReader({ origin: "https://loyalty.example", fetch: fake, apiKey: "reader-key-never-shown", apiSecret: SECRET, left: () => 10, now: () => now, sleep: async (ms) => void (sleeps.push(ms), (now += ms)), ...options });
  return { polite, sleeps, sent, at: () => now };
}

describe("import's reader", () => {
  it("sends a GET with the credentials in headers, and refuses anything else before it leaves", async () => {
    const { polite, sent } = reader([{}]);
    expect(await polite.get("/shop", shop)).toEqual({ success: true, data: { programName: "Crumb" }, timestamp: "2026-11-23T12:00:00+00:00" });
    expect(sent.map((s) => [s.url, s.init.method, (s.init.headers as Record<string, string>)["X-Api-Secret"]])).toEqual([["https://loyalty.example/rest_api/v1/shop", "GET", SECRET]]);
    await expect(polite.request({ method: "POST", path: "/customers/1/activities" }, shop)).rejects.toThrow("loyalty-sim import tried to send POST /customers/1/activities: it only ever reads (GET); nothing was sent");
    expect(sent).toHaveLength(1);
  });

  it("waits a 429 out for its Retry-After, in seconds or as a date, and reads on", async () => {
    const { polite, sleeps, at } = reader([{ status: 429, headers: { "Retry-After": "120" } }, { status: 429, headers: { "Retry-After": new Date(Date.UTC(2026, 10, 23, 12, 5)).toUTCString() } }, {}]);
    await polite.get("/shop", shop);
    expect(sleeps).toEqual([120_000, 180_000]);
    expect([polite.sent, polite.waitedMs, at()]).toEqual([3, 300_000, Date.UTC(2026, 10, 23, 12, 5)]);
  });

  it("gives up after 6 answers of 429 in a row, and at once on a Retry-After over an hour", async () => {
    await expect(reader([{ status: 429, headers: { "Retry-After": "1" } }]).polite.get("/shop", shop)).rejects.toThrow(new SourceError("GET /rest_api/v1/shop was answered 429 6 times in a row: the shop's quota is taken by someone else too; import again later"));
    await expect(reader([{ status: 429, headers: { "Retry-After": "3661" } }]).polite.get("/shop", shop)).rejects.toThrow(new SourceError("GET /rest_api/v1/shop was answered 429 with Retry-After 3661 s (more than 3660 s); import again later"));
  });

  it("refuses an answer the contract does not describe, naming the field", async () => {
    const { polite } = reader([{ body: { success: true, data: { programName: 7 }, timestamp: "2026-11-23T12:00:00+00:00" } }]);
    await expect(polite.get("/shop", shop)).rejects.toThrow(new SourceError("GET /rest_api/v1/shop was answered with data.programName: Invalid input: expected string, received number, which the contract (production's documented answers) does not take; nothing was written"));
  });

  it("names an unreachable source by its system code, with no credential", async () => {
    // A port just freed: nothing listens there.
    const server = createServer().listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const polite = new PoliteReader({ origin: `http://127.0.0.1:${port}`, fetch, apiKey: "k", apiSecret: SECRET, left: () => 1 });
    const error = await polite.get("/shop", shop).catch((e: unknown) => e as Error);
    expect(error).toEqual(new SourceError(`GET /rest_api/v1/shop to http://127.0.0.1:${port} failed: no answer: ECONNREFUSED; nothing was written`));
  });
});
