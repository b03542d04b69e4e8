/**
 * The pseudonymiser never spins (issue 35, item 3): it draws a fake a bounded number of times, then
 * widens a code or an id by a character at a time, then gives up with an ImportError naming the
 * field (never the value). A code that is only its prefix, a code space the real codes fill, and
 * emails that leave no room for a fake all end.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { dir, startSource } from "../support/import.js";

type Json = Record<string, any>;
let outs = 0;
const AT = (hour: number) => `2026-10-21T${String(hour).padStart(2, "0")}:00:00+00:00`;

async function importShop(change: (file: Json) => void, args: string[] = []) {
  const source = startSource({ customers: 0, change });
  const out = join(dir, `pseudonyms-${outs++}.json`);
  let err = "";
  const io = { out: () => {}, err: (t: string) => (err += t), progress: () => {} };
  const argv = ["--from", source.credentials.from, "--api-key", source.credentials.apiKey, "--api-secret", source.credentials.apiSecret, "--out", out, "--salt", "s", "--customers", "all", ...args];
  const code = await runImportCli(argv, {}, io, source.deps);
  return { code, err, file: existsSync(out) ? (JSON.parse(readFileSync(out, "utf8")) as Json) : undefined };
}

const codesOf = (file: Json): string[] => file.customers.flatMap((c: Json) => c.rewardCodes.map((code: Json) => code.code));

describe("issue 35, item 3: fakes that cannot be drawn", () => {
  it("a code with nothing after its last '-' gets a fake widened past its prefix", async () => {
    const run = await importShop((file) => (file.customers[0].rewardCodes[1].code = "LOYAL-"));
    expect(run.code).toBe(0);
    const codes = codesOf(run.file!);
    expect(codes).not.toContain("LOYAL-");
    expect(codes[1]).toMatch(/^LOYAL-[A-Z]+$/);
  });

  it("codes that fill their space (X-0 to X-9) get fakes of one more character, all distinct", async () => {
    const real = Array.from({ length: 10 }, (_, i) => `X-${i}`);
    const run = await importShop((file) => {
      file.customers[0].rewardCodes = real.map((code, i) => ({ code, rewardId: 101, used: true, createdAt: AT(i) }));
    });
    expect(run.code).toBe(0);
    const codes = codesOf(run.file!).filter((code) => code.startsWith("X-"));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^X-\d{2,}$/);
  });

  it("gives up on an email no fake can avoid (the source's emails are the fakes' domains), naming the field: exit 1", async () => {
    const run = await importShop((file) => ["com", "net", "org"].forEach((email, i) => (file.customers[i].email = email)));
    expect(run.code).toBe(1);
    expect(run.file).toBeUndefined();
    expect(run.err).toBe(
      "loyalty-sim import: could not make a fake for customers[0].email: each of 100 tries was or held an original value (the source's values leave no room for one), so nothing was written; correct the value in the shop, or import with --keep-personal-data\n",
    );
    expect((await importShop((file) => ["com", "net", "org"].forEach((email, i) => (file.customers[i].email = email)), ["--keep-personal-data"])).code).toBe(0);
  });
});
