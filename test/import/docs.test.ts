/** docs/import.md against the code: its example of customers written by hand loads, its options table is the command's. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IMPORT_HELP } from "../../src/cli/import.js";
import { createSimulator } from "../../src/index.js";
import { defaultFixturePath } from "../../src/program/load.js";
import { ROOT } from "../support/cli.js";
import { writeFixture } from "../support/import.js";

const page = readFileSync(join(ROOT, "docs/import.md"), "utf8");

describe("docs/import.md", () => {
  it("has an example of customers written by hand that loads with the bundled program", async () => {
    const example = /## Customers written by hand[\s\S]*?```json\n([\s\S]*?)```/.exec(page)![1]!;
    const file = { ...JSON.parse(readFileSync(defaultFixturePath(), "utf8")), ...JSON.parse(`{${example}}`) };
    const sim = createSimulator({ fixtures: writeFixture(file), customers: 0, logLevel: "silent" });
    const get = async (path: string) => ((await (await sim.fetch(`${sim.baseUrl}${path}`, { headers: { "X-Api-Key": sim.apiKey, "X-Api-Secret": sim.apiSecret } })).json()) as { data: any }).data;
    expect((await get("/customers/1001")).stampBalance).toBe(9);
    expect((await get("/customers/1001/reward-codes")).map((c: { code: string }) => c.code)).toEqual(["LOYAL-ADA001"]);
  });

  it("lists the options --help lists, in its order", () => {
    const documented = [...page.matchAll(/^\| `(--[a-z-]+)/gm)].map((m) => m[1]);
    const helped = [...IMPORT_HELP.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]).filter((flag) => flag !== "--help");
    expect(documented).toEqual(helped);
  });
});
