/**
 * import's requests carry production's credentials (issue 35, items 1 and 8): a redirect is never
 * followed (not to another host or port, not from https to http), and an answer is read no further
 * than its bound, whatever the source sends. Against real sockets where Node's own fetch decides.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { MAX_ANSWER_BYTES } from "../../src/http/outbound.js";
import { dir } from "../support/import.js";

const KEY = "live_key_outbound_1a2b3c";
const SECRET = "live_secret_outbound_4d5e6f";
const ENV = { LOYALTY_SIM_IMPORT_API_KEY: KEY, LOYALTY_SIM_IMPORT_API_SECRET: SECRET };
let outs = 0;

async function server(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingMessage["headers"][] = [];
  const s = createServer((req, res) => {
    seen.push(req.headers);
    handle(req, res);
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  afterAll(() => {
    s.closeAllConnections();
    s.close();
  });
  return { origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

/** The command against `from`, credentials from the environment: its exit code and what it said. */
async function importFrom(from: string, fetchImpl?: typeof fetch) {
  const said = { out: "", err: "" };
  const io = { out: (t: string) => (said.out += t), err: (t: string) => (said.err += t), progress: () => {} };
  const code = await runImportCli(["--from", from, "--out", join(dir, `outbound-${outs++}.json`), "--salt", "s"], ENV, io, fetchImpl ? { fetch: fetchImpl } : {});
  return { code, ...said };
}

describe("issue 35, item 1: import never follows a redirect", () => {
  it("refuses a 302 to another port: nothing reaches it, the source named where it pointed; exit 1", async () => {
    const elsewhere = await server((_req, res) => res.end("{}"));
    const source = await server((_req, res) => res.writeHead(302, { Location: `${elsewhere.origin}/steal?k=1` }).end());
    const run = await importFrom(source.origin);
    expect(run.code).toBe(1);
    expect(elsewhere.seen).toEqual([]);
    expect(source.seen).toHaveLength(1);
    expect(run.err).toBe(
      `loyalty-sim import: GET /rest_api/v1/shop to ${source.origin} failed: answered 302, a redirect to ${elsewhere.origin}/steal: loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself; nothing was written\n`,
    );
  });

  it("refuses a 301 from https to plain http, saying so, and the secret never goes out in clear", async () => {
    // A fetch as the standard has it: it follows a redirect unless told `redirect: "manual"`.
    const sent: { url: string; secret: string | undefined }[] = [];
    const standard: typeof fetch = async (input, init) => {
      const url = String(input);
      sent.push({ url, secret: new Headers(init?.headers).get("x-api-secret") ?? undefined });
      if (url.startsWith("https://")) {
        const moved = new Response(null, { status: 301, headers: { Location: url.replace("https://", "http://") } });
        return init?.redirect === "manual" ? moved : standard(moved.headers.get("location")!, init);
      }
      return new Response("{}", { status: 500 });
    };
    const run = await importFrom("https://shop.example", standard);
    expect(run.code).toBe(1);
    expect(sent).toEqual([{ url: "https://shop.example/rest_api/v1/shop", secret: SECRET }]);
    expect(run.err).toBe(
      "loyalty-sim import: GET /rest_api/v1/shop to https://shop.example failed: answered 301, a redirect to http://shop.example/rest_api/v1/shop (from https to plain http): loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself; nothing was written\n",
    );
  });
});

describe("issue 35, item 8: import reads an answer no further than its bound", () => {
  it("stops a body of 64 MiB at 16 MiB: exit 1, the bound named, the rest never pulled", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const huge: typeof fetch = async () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            if (pulled >= 64 * chunk.length) return controller.close();
            pulled += chunk.length;
            controller.enqueue(chunk);
          },
        }),
        { status: 200, headers: { "Content-Type": "application/json" } },
      );
    const run = await importFrom("https://shop.example", huge);
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `loyalty-sim import: GET /rest_api/v1/shop to https://shop.example failed: the answer is larger than ${MAX_ANSWER_BYTES} bytes (it went on past that), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read; nothing was written\n`,
    );
    expect(pulled).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 2 * chunk.length);
  });

  it("refuses an answer nested a million levels deep as one the contract does not describe, without a stack overflow", async () => {
    const deep: typeof fetch = async () => new Response(`{"success":true,"data":${"[".repeat(1_000_000)}${"]".repeat(1_000_000)},"timestamp":"x"}`, { status: 200 });
    const run = await importFrom("https://shop.example", deep);
    expect(run.code).toBe(1);
    expect(run.err).toBe("loyalty-sim import: GET /rest_api/v1/shop was answered with data: Invalid input: expected object, received array, which the contract (production's documented answers) does not take; nothing was written\n");
  });

  it("refuses a declared length over the bound before reading a byte of it", async () => {
    const source = await server((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(10 * MAX_ANSWER_BYTES) });
      res.write("[");
    });
    const run = await importFrom(source.origin);
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `loyalty-sim import: GET /rest_api/v1/shop to ${source.origin} failed: the answer is larger than ${MAX_ANSWER_BYTES} bytes (it declared ${10 * MAX_ANSWER_BYTES} bytes), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read; nothing was written\n`,
    );
  });
});
