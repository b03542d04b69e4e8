/**
 * The layers of src/ point one way (the rules of .dependency-cruiser.cjs over every import), and
 * docs/architecture.md draws them as the code has them: `npm run layers` redraws the picture.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readLayers, withLayersPicture } from "../scripts/lib/layers.js";
import { ROOT } from "./support/cli.js";

describe("the layers of src/", () => {
  it("break no rule (no import from a layer above or a sibling, no circle), and the picture is the code's", async () => {
    const { violations, imports } = await readLayers();
    expect(violations).toEqual([]);
    const architecture = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    expect(architecture, "docs/architecture.md's picture is stale: run npm run layers").toBe(withLayersPicture(architecture, imports));
  });
});
