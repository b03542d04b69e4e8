/**
 * import finds an original personal value or code however the text writes it (issue 35, item 6):
 * in any case, in any Unicode form, with any separator or spacing; replaced in activity labels,
 * refused (exit 1, the field named) in the program's texts, where a customer's name counts as a
 * word of the program only when the program's names of things hold it. Each file is searched here
 * independently: normalised (NFKC, lower case), for the original as a plain substring.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { dir, startSource } from "../support/import.js";

type Json = Record<string, any>;
let outs = 0;
const KEY = "live_key_leaks_7a8b9c";
const SECRET = "live_secret_leaks_0d1e2f";
const AT = "2026-10-20T09:00:00+00:00";

/** The marked shop with `change` applied, imported by the command: exit code, stderr, the file's text normalised. */
async function importMarked(change: (file: Json) => void, args: string[] = []) {
  const source = startSource({
    change: (file) => {
      file.access = { ...file.access, apiKey: KEY, apiSecret: SECRET };
      change(file);
    },
  });
  const out = join(dir, `leaks-${outs++}.json`);
  let err = "";
  const io = { out: () => {}, err: (t: string) => (err += t), progress: () => {} };
  const env = { LOYALTY_SIM_IMPORT_API_KEY: KEY, LOYALTY_SIM_IMPORT_API_SECRET: SECRET };
  const code = await runImportCli(["--from", source.credentials.from, "--out", out, "--salt", "s", "--customers", "all", ...args], env, io, source.deps);
  const text = existsSync(out) ? readFileSync(out, "utf8").normalize("NFKC").toLowerCase() : undefined;
  return { code, err, out, text };
}

const customer = (file: Json, id: string): Json => file.customers.find((c: Json) => c.id === id);
/** A label of no stamps, after Dee's history. */
const label = (file: Json, text: string) => customer(file, "7000000000004").activities.push({ label: text, stampChange: 0, createdAt: AT });

describe("issue 35, item 6: the originals are found however a label writes them", () => {
  it("a code written with an underscore, its own or a real one's in lower case", async () => {
    const run = await importMarked((file) => {
      customer(file, "7000000000001").rewardCodes[1].code = "LOYAL_AB12CD";
      label(file, "Gave LOYAL_AB12CD to a friend");
      label(file, "Asked about loyal_mk7q2x");
    });
    expect(run.code).toBe(0);
    expect(run.text).not.toContain("ab12cd");
    expect(run.text).not.toContain("mk7q2x");
  });

  it("a name in capitals, a first name read with a trailing space", async () => {
    const run = await importMarked((file) => {
      customer(file, "7000000000003").firstName = "Markedcy ";
      label(file, "Gift from MARKEDADA MARKEDLOVELACE");
      label(file, "Thanks Markedcy!");
    });
    expect(run.code).toBe(0);
    expect(run.text).not.toMatch(/marked/);
  });

  it("an email that is not ASCII", async () => {
    const run = await importMarked((file) => {
      customer(file, "7000000000002").email = "josé.ada@exämple.com";
      label(file, "Mail josé.ada@exämple.com");
      label(file, "Mail JOSÉ.ADA@EXÄMPLE.COM too");
    });
    expect(run.code).toBe(0);
    expect(run.text).not.toContain("exämple");
    expect(run.text).not.toContain("josé");
  });
});

describe("issue 35: the originals are found without their accents or dashes", () => {
  it("a name written without its accents, a code written without its dash", async () => {
    const run = await importMarked((file) => {
      customer(file, "7000000000004").firstName = "Markedzoë";
      label(file, "Thanks MARKEDZOE");
      label(file, "Till code LOYALMK7Q2X.");
    });
    expect(run.code).toBe(0);
    expect(run.text).not.toContain("markedzo");
    expect(run.text).not.toContain("mk7q2x");
  });
});

describe("issue 35, item 6: a customer's name in the program's texts", () => {
  it("a full name in a beacon's message is a leak: exit 1, the field named; written with --keep-personal-data", async () => {
    const change = (file: Json) => (file.beacons[0].message = "Happy birthday Markedada  Markedlovelace!");
    const run = await importMarked(change);
    expect(run.code).toBe(1);
    expect(run.text).toBeUndefined();
    expect(run.err).toContain("\n  - a name in beacons[0].message\n");
    expect(run.err).not.toMatch(/marked/i);
    expect((await importMarked(change, ["--keep-personal-data"])).code).toBe(0);
  });

  it("a first name alone in a message is a leak too, unless the program's names of things hold it", async () => {
    const alone = await importMarked((file) => (file.beacons[1].message = "Happy birthday, MARKEDADA!"));
    expect(alone.code).toBe(1);
    expect(alone.err).toContain("\n  - a name in beacons[1].message\n");
    const word = await importMarked((file) => {
      customer(file, "7000000000004").firstName = "Gold";
      file.beacons[1].message = "gold members: double stamps";
    });
    expect(word.code).toBe(0);
    expect(JSON.parse(readFileSync(word.out, "utf8")).beacons[1].message).toBe("gold members: double stamps");
  });
});
