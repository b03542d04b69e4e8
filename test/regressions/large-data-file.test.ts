/**
 * Regression (issue 17, case 5): six 100k-customer shops wrote a 605 MB `--data` file and the next
 * start failed with "Cannot create a string longer than 0x1fffffe8 characters": the file was read
 * as one string. It is now read in pieces of at most `maxPieceBytes`; with a small limit the same
 * mechanism is checked here on a small file: no string parsed is longer than a piece (plus its
 * two brackets), and the state read is the state written.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config.js";
import { buildSimulator } from "../../src/simulator/simulator.js";
import { readDataFile } from "../../src/persistence/data-file.js";

const dir = mkdtempSync(join(tmpdir(), "loyalty-sim-large-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A file as the server writes it, with three shops and every kind of record. */
const file = await (async () => {
  const path = join(dir, "state.json");
  const sim = buildSimulator(parseConfig({ customers: 40, seed: 3, data: path }));
  for (const id of ["2", "3"]) sim.engine.addShop({ ...sim.engine.spec("1")!, id, seed: Number(id), customers: 25, access: { ...sim.engine.spec("1")!.access, apiKey: `key_${id}` } });
  await sim.dataFile!.flush();
  return path;
})();

describe("a data file larger than a piece", () => {
  it.each([
    [4096, 1000],
    [512, 64],
    [1, 7],
  ])("read in pieces of %d bytes (blocks of %d) is the state written, and no longer string is parsed", (maxPieceBytes, blockBytes) => {
    expect(statSync(file).size).toBeGreaterThan(20 * maxPieceBytes);
    const parse = vi.spyOn(JSON, "parse");
    const state = readDataFile(file, { maxPieceBytes, blockBytes });
    const texts = parse.mock.calls.map(([text]) => text);
    parse.mockRestore();
    expect(texts.length).toBeGreaterThan(statSync(file).size / Math.max(maxPieceBytes, 200) / 2);
    // Longer than a piece only as a single value no piece could split (a long string or number).
    const single = (v: unknown) => typeof v !== "object" || v === null;
    for (const text of texts.filter((t) => t.length > maxPieceBytes + 2)) {
      const value = JSON.parse(text) as unknown;
      expect(single(value) || Object.values(value as object).length === 1 && single(Object.values(value as object)[0]), text).toBe(true);
    }
    expect(state).toStrictEqual(JSON.parse(readFileSync(file, "utf8")));
  });

  it("then serves it as the server that wrote it did", () => {
    const state = readDataFile(file, { maxPieceBytes: 300, blockBytes: 100 })!;
    expect(state.shops.map((s) => [s.spec.id, s.data.customers.length])).toEqual([
      ["1", 40],
      ["2", 25],
      ["3", 25],
    ]);
  });
});
