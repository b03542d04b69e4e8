/**
 * What import leaves behind and what it refuses: a file that would still hold an original personal
 * value or code is not written (exit 1, the field named, never the value); --keep-personal-data
 * keeps the real values with a warning (codes are fakes all the same); --remap-ids replaces the
 * ids; no credential in the output, errors or file; a wrong usage is exit 2.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImportCli } from "../../src/cli/import.js";
import { fixedClock } from "../../src/engine/clock.js";
import { createSimulator } from "../../src/index.js";
import { dir, MARKED, startSource } from "../support/import.js";
import { NOW } from "../support/sim.js";

type Json = Record<string, any>;
let outs = 0;
const KEY = "live_key_9f8e7d6c5b4a";
const SECRET = "live_secret_0a1b2c3d4e5f";

/** The command as a user runs it (credentials from the environment), against `source`. */
async function cli(source: ReturnType<typeof startSource>, args: string[]) {
  const out = join(dir, `privacy-${outs++}.json`);
  const said = { out: "", err: "" };
  const io = { out: (t: string) => (said.out += t), err: (t: string) => (said.err += t), progress: (t: string) => (said.err += `${t}\n`) };
  const env = { LOYALTY_SIM_IMPORT_API_KEY: KEY, LOYALTY_SIM_IMPORT_API_SECRET: SECRET };
  const code = await runImportCli(["--from", source.credentials.from, "--out", out, "--salt", "a salt", "--customers", "all", ...args], env, io, source.deps);
  for (const secret of [KEY, SECRET, "a salt"]) expect(said.out + said.err).not.toContain(secret);
  return { code, ...said, out, stdout: said.out, file: existsSync(out) ? readFileSync(out, "utf8") : undefined };
}

const withCredentials = (change: (file: Json) => void = () => {}) =>
  startSource({
    change: (file) => {
      file.access = { ...file.access, apiKey: KEY, apiSecret: SECRET };
      change(file);
    },
  });

describe("issue 30: the leak check", () => {
  it("refuses to write a file in which an original email or code survived (here in a beacon's message, copied as written): exit 1, the field named, not the value", async () => {
    const source = withCredentials((file) => {
      file.beacons[0].message = "Questions? Write to marked.dee@personal.test";
      file.tiers[0].benefits = "Try the code LOYAL-MK7Q2X at the till.";
    });
    const run = await cli(source, []);
    expect(run.code).toBe(1);
    expect(run.file).toBeUndefined();
    expect(existsSync(run.out)).toBe(false);
    expect(run.stdout).toBe("");
    expect(run.err).toContain(`loyalty-sim import: refused to write ${run.out}: it would still hold original values (discount code, email), which must not leave production; nothing was written:\n  - a discount code in tiers[0].benefits\n  - an email in beacons[0].message\n`);
    expect(run.err).not.toContain("marked.dee");
    expect(run.err).not.toContain("MK7Q2X");
  });
});

describe("issue 30: names that are words of the program", () => {
  it("are replaced in the customer's record, and kept in the program's texts and the labels they make", async () => {
    const source = withCredentials((file) =>
      file.customers.push({ id: "7000000000005", firstName: "Stamps", lastName: "Gold", email: "s.gold@personal.test", stampBalance: 5, activities: [{ label: "Stamps adjusted by the shop", stampChange: 5, createdAt: "2026-10-14T09:00:00+00:00" }] }),
    );
    const run = await cli(source, []);
    expect(run.code).toBe(0);
    const file = JSON.parse(run.file!) as Json;
    const c = (file.customers as Json[]).find((x) => x.id === "7000000000005")!;
    expect([c.firstName === "Stamps", c.lastName === "Gold", c.activities[0].label]).toEqual([false, false, "Stamps adjusted by the shop"]);
    expect((file.tiers as Json[]).map((t) => t.name)).toEqual(["Bronze", "Silver", "Gold", "Platinum"]);
  });
});

describe("issue 30: import's privacy options", () => {
  it("--keep-personal-data keeps names, emails and birthdays, warns, and still replaces every code", async () => {
    const run = await cli(withCredentials(), ["--keep-personal-data"]);
    expect(run.code).toBe(0);
    const ada = (JSON.parse(run.file!).customers as Json[]).find((c) => c.id === "7000000000001")!;
    expect([ada.firstName, ada.lastName, ada.email, ada.dateOfBirth]).toEqual(["Markedada", "Markedlovelace", "marked.ada@personal.test", "10-12"]);
    for (const code of MARKED.codes) expect(run.file).not.toContain(code);
    expect(run.err).toContain(`loyalty-sim import: warning: ${run.out} holds the customers' real names, emails and birthdays (--keep-personal-data): keep it private, out of version control, CI artifacts and logs\n`);
  });

  it("--remap-ids replaces each customer id by a fake of as many digits, references included; the file loads", async () => {
    const source = withCredentials();
    const ids: string[] = (await source.get("/customers?limit=1000")).data.map((c: Json) => c.id);
    const run = await cli(source, ["--remap-ids"]);
    expect(run.code).toBe(0);
    const customers = JSON.parse(run.file!).customers as Json[];
    for (const id of ids) expect(run.file).not.toContain(id);
    expect(customers.map((c) => c.id.length)).toEqual(ids.map((id) => id.length));
    const [ada, cy] = [customers[0]!, customers[2]!];
    expect(cy.mergedIntoCustomerId).toBe(ada.id);
    const sim = createSimulator({ fixtures: run.out, customers: 0, logLevel: "silent", newClock: () => fixedClock(NOW) });
    expect(sim.engine.defaultShop().store.customerCount).toBe(ids.length);
  });

  it("says when no salt was given: the fakes will differ next time", async () => {
    const source = withCredentials();
    const out = join(dir, `privacy-${outs++}.json`);
    let err = "";
    const code = await runImportCli(["--from", source.credentials.from, "--out", out, "--api-key", KEY, "--api-secret", SECRET, "--customers", "2"], {}, { out: () => {}, err: (t) => (err += t), progress: () => {} }, source.deps);
    expect(code).toBe(0);
    expect(err).toBe("loyalty-sim import: no --salt (LOYALTY_SIM_IMPORT_SALT) was given, so a random one made the fakes: the next import gives other ones; give a salt to keep them stable\n");
  });
});

describe("issue 30: import's errors", () => {
  it("names refused credentials without echoing them: exit 1, nothing written", async () => {
    const source = startSource();
    const run = await cli(source, []);
    expect(run.code).toBe(1);
    expect(run.file).toBeUndefined();
    expect(run.err).toBe("loyalty-sim import: GET /rest_api/v1/shop was answered 401 UNAUTHORIZED: the source refused the credentials; check --api-key and --api-secret\n");
  });

  it.each([
    [["--customers", "some"], "--customers: must be a number of customers (0 for none) or all\n"],
    [["--activities", "0"], "--activities: must be at least 1\n"],
    [["--from", "https://user:pw@loyalty.example"], "--from: holds credentials: give them in --api-key and --api-secret, never in the URL\n"],
    [["--from", "ftp://loyalty.example"], "--from: give the service's origin (scheme, host and port), such as https://stamp.appydesign.io, or its API base (.../rest_api/v1)\n"],
    [["--frm", "x"], "Unknown option '--frm': did you mean --from?\n"],
  ])("refuses %j: exit 2", async (args, problem) => {
    let err = "";
    const code = await runImportCli(["--from", "https://loyalty.example", "--out", join(dir, "never.json"), "--api-key", KEY, "--api-secret", SECRET, ...args], {}, { out: () => {}, err: (t) => (err += t), progress: () => {} });
    expect(code).toBe(2);
    expect(err).toBe(`loyalty-sim import: ${problem}Run loyalty-sim import --help for the options.\n`);
    expect(err).not.toContain("pw@");
    expect(existsSync(join(dir, "never.json"))).toBe(false);
  });

  it("names a missing --out and credentials, with their variables", async () => {
    let err = "";
    const code = await runImportCli(["--from", "https://loyalty.example"], {}, { out: () => {}, err: (t) => (err += t), progress: () => {} });
    expect(code).toBe(2);
    expect(err).toBe("loyalty-sim import: --out: is required: the fixture file to write\n--api-key: is required (or set LOYALTY_SIM_IMPORT_API_KEY)\n--api-secret: is required (or set LOYALTY_SIM_IMPORT_API_SECRET)\nRun loyalty-sim import --help for the options.\n");
  });
});
