/**
 * `npm run layers`: checks that the layers of src/ point one way (.dependency-cruiser.cjs), prints
 * each layer's imports, and draws the picture in docs/architecture.md. Exits 1 on a broken rule.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { readLayers, withLayersPicture } from "./lib/layers.js";

const { LAYERS } = createRequire(import.meta.url)("./layers.cjs") as { LAYERS: string[][] };
const { violations, imports } = await readLayers();
for (const [i, layer] of LAYERS.entries()) {
  for (const member of layer) console.log(`${String(i + 1).padStart(2)}  ${member.padEnd(14)} -> ${(imports.get(member) ?? []).join(", ") || "(nothing of src/)"}`);
}
if (violations.length > 0) {
  console.error(`\n${violations.length} broken rule(s):\n${violations.map((v) => `  ${v}`).join("\n")}`);
  process.exit(1);
}
const target = new URL("../docs/architecture.md", import.meta.url);
writeFileSync(target, withLayersPicture(readFileSync(target, "utf8"), imports));
console.log(`\nno broken rule; drew the picture in ${target.pathname}`);
