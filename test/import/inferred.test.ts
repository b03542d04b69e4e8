/**
 * What production does not show, inferred where the data shows it (the code prefix from issued
 * codes, expiry from `stampsExpireAt`), else the simulator's default: each listed in the file's
 * `assumptions` and in the command's output, and what the imported simulator then does.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runImport } from "../../src/import/index.js";
import { runImportCli } from "../../src/cli/import.js";
import { dir, startSource } from "../support/import.js";

type Json = Record<string, any>;
let outs = 0;

async function assumptionsOf(change: (file: Json) => void): Promise<Record<string, { value: unknown; why: string }>> {
  const source = startSource({ change });
  const out = join(dir, `inferred-${outs++}.json`);
  await runImport({ ...source.credentials, out, customers: "all", salt: "s" }, source.deps);
  const file = JSON.parse(readFileSync(out, "utf8")) as Json;
  return Object.fromEntries((file.assumptions as Json[]).map((a) => [a.path, { value: a.value, why: a.why }]));
}

const prefixed = (prefix: string) => (file: Json) => {
  file.shop.codePrefix = prefix;
  for (const c of file.customers) for (const code of c.rewardCodes ?? []) code.code = code.code.replace(/^LOYAL-/, `${prefix}-`);
};

describe("issue 30: what import infers, and what it assumes", () => {
  it("reads the code prefix from the codes issued, and rolling expiry from stampsExpireAt", async () => {
    const found = await assumptionsOf(prefixed("CRUMB-26"));
    expect(found["shop.codePrefix"]).toEqual({ value: "CRUMB-26", why: expect.stringMatching(/^\d+ of the \d+ issued codes read start with it$/) });
    expect(found["shop.expiry"]).toEqual({ value: { mode: "rolling", days: 365 }, why: expect.stringMatching(/^stampsExpireAt of each of the \d+ customers showing it is 365 days after their last earn or spend$/) });
  });

  it("reads fixed expiry when stampsExpireAt lies a whole number of days after an earning of each", async () => {
    const found = await assumptionsOf((file) => (file.shop.expiry = { mode: "fixed", days: 200 }));
    expect(found["shop.expiry"]!.value).toEqual({ mode: "fixed", days: 200 });
  });

  it("reads expiry off when customers with stamps show no stampsExpireAt", async () => {
    const found = await assumptionsOf((file) => (file.shop.expiry = { mode: "off" }));
    expect(found["shop.expiry"]).toEqual({ value: { mode: "off" }, why: expect.stringMatching(/^none of the \d+ customers read with stamps shows stampsExpireAt$/) });
  });

  it("lists what it could not read, with the simulator's default: limits, labels, variable bounds, rewards GET /rewards leaves out", async () => {
    const found = await assumptionsOf(() => {});
    expect(Object.keys(found)).toEqual([
      "shop.stampBrandingSingular",
      "shop.manualAdjustmentLabel",
      "shop.codePrefix",
      "shop.expiry",
      "rewards[6].tierId",
      "rewards[7].tierId",
      "rewards[8]",
      "rewards[5].minAmount/maxAmount",
      "earnRules[0].limit",
      "earnRules[1].limit",
      "earnRules[2].limit",
      "earnRules[3].limit",
      "earnRules[4].limit",
      "earnRules[5].limit",
      "earnRules[6].limit",
    ]);
    // Its id is not shown anywhere (a code names its reward by name): the next after the highest.
    expect(found["rewards[8]"]!.value).toEqual({ id: 110, name: "Free cookie at the counter", price: 8, exchangeType: "stamps", posOnly: true });
  });

  it("prints each assumption in the command's output", async () => {
    const source = startSource();
    const out = join(dir, `inferred-${outs++}.json`);
    const said = { out: "", err: "" };
    const code = await runImportCli(["--from", source.credentials.from, "--out", out, "--salt", "s", "--customers", "all"], { LOYALTY_SIM_IMPORT_API_KEY: source.credentials.apiKey, LOYALTY_SIM_IMPORT_API_SECRET: source.credentials.apiSecret }, { out: (t) => (said.out += t), err: (t) => (said.err += t), progress: () => {} }, source.deps);
    expect([code, said.err]).toEqual([0, ""]);
    const file = JSON.parse(readFileSync(out, "utf8")) as Json;
    for (const a of file.assumptions as Json[]) expect(said.out).toContain(`  ${a.path} = ${JSON.stringify(a.value)}: ${a.why}\n`);
  });
});
