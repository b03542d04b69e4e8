/**
 * `GET /__sim/events`: coalesced ticks per shop while someone listens; nothing left running once
 * the client goes or the server closes.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.js";
import { listen } from "../../src/simulator/server.js";
import { AUTH, createTestSim } from "../support/sim.js";

/** Reads server-sent events from a response body, one `{ event, data }` at a time. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  return {
    reader,
    async next(): Promise<{ event: string; data: unknown } | undefined> {
      for (;;) {
        const end = buffered.indexOf("\n\n");
        if (end >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const field = (name: string) => block.split("\n").find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
          return { event: field("event")!, data: JSON.parse(field("data")!) };
        }
        const { done, value } = await reader.read();
        if (done) return undefined;
        buffered += decoder.decode(value, { stream: true });
      }
    },
  };
}

describe("the events stream", () => {
  it("sends the newest id, then coalesced journal and clock ticks; stops its timer once the client goes", async () => {
    const sim = createTestSim({ customers: 0 });
    const res = await sim.app.request("/__sim/events");
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/event-stream"]);
    const stream = eventReader(res.body!);
    expect(await stream.next()).toEqual({ event: "journal", data: { lastId: 0 } });
    // Three requests between two ticks make one tick, naming the newest.
    for (let i = 0; i < 3; i++) await sim.call("GET", "/shop");
    expect(await stream.next()).toEqual({ event: "journal", data: { lastId: 3 } });
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 60 } });
    expect(await stream.next()).toEqual({ event: "clock", data: { now: "2026-11-23T12:01:00+00:00", frozen: true } });
    expect([sim.events.listeners, sim.events.ticking]).toEqual([1, true]);
    await stream.reader.cancel();
    await expect.poll(() => [sim.events.listeners, sim.events.ticking]).toEqual([0, false]);
  });

  it("each shop hears of its own changes only", async () => {
    const sim = createTestSim({ customers: 0 });
    const other = (await sim.call("POST", "/__sim/shops", { body: { customers: 0 } })).body;
    const stream = eventReader((await sim.app.request(`/__sim/events?shop=${other.id}`)).body!);
    expect(await stream.next()).toEqual({ event: "journal", data: { lastId: 0 } });
    await sim.call("GET", "/shop");
    await sim.call("POST", "/__sim/clock", { body: { advanceSeconds: 1 } });
    await sim.call("GET", "/shop", { headers: { "X-Api-Key": other.apiKey, "X-Api-Secret": other.apiSecret } });
    expect(await stream.next()).toEqual({ event: "journal", data: { lastId: 2 } });
    await stream.reader.cancel();
  });

  it("a server's close ends open streams, and leaves no listener or timer", async () => {
    const running = await listen(parseConfig({ port: 0, logLevel: "silent", customers: 0 }));
    const res = await fetch(`${running.url}/__sim/events`);
    const stream = eventReader(res.body!);
    expect(await stream.next()).toEqual({ event: "journal", data: { lastId: 0 } });
    await fetch(`${running.baseUrl}/shop`, { headers: AUTH });
    expect(await stream.next()).toEqual({ event: "journal", data: { lastId: 1 } });
    await running.close();
    // The stream ends (its last chunk may be cut by closeAllConnections): it does not hang.
    expect(await stream.next().catch(() => undefined)).toBeUndefined();
    expect([running.built.events.listeners, running.built.events.ticking]).toEqual([0, false]);
  });
});
