/**
 * requestHeader reads a header from the Node request's raw list when there is one, and from the
 * fetch Request otherwise; both ways give what fetch `Headers.get` gives.
 */
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/http/env.js";
import { requestHeader } from "../../src/http/request-headers.js";

const NAMES = ["x-api-key", "prefer", "content-type", "x-missing", "x-api-kez"];

/** What requestHeader says for each of NAMES, with the Node bindings (`rawHeaders`) or without. */
async function read(rawHeaders: string[], viaNode: boolean): Promise<Record<string, string | null>> {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => c.json(Object.fromEntries(NAMES.map((name) => [name, requestHeader(c, name) ?? null]))));
  const headers = new Headers();
  for (let i = 0; i < rawHeaders.length; i += 2) headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
  const res = await app.fetch(new Request("http://sim.test/", { headers }), viaNode ? { incoming: { rawHeaders } } : undefined);
  return (await res.json()) as Record<string, string | null>;
}

describe("requestHeader", () => {
  it.each([true, false])("matches a lower-case name to any case, joins repeats with ', ', trims spaces and tabs (Node list: %s)", async (viaNode) => {
    const raw = ["X-API-KEY", "sim_key", "Prefer", " code=404 ", "prefer", "\tdelay=5", "Content-Type", "application/json"];
    expect(await read(raw, viaNode)).toEqual({
      "x-api-key": "sim_key",
      prefer: "code=404, delay=5",
      "content-type": "application/json",
      "x-missing": null,
      "x-api-kez": null,
    });
  });

  it("reads the Node list, not the fetch Request, when there is one", async () => {
    const app = new Hono<AppEnv>();
    app.get("/", (c) => c.text(requestHeader(c, "x-api-key") ?? "none"));
    const res = await app.fetch(new Request("http://sim.test/", { headers: { "X-Api-Key": "from-fetch" } }), { incoming: { rawHeaders: ["x-api-key", "from-node"] } });
    expect(await res.text()).toBe("from-node");
  });
});
