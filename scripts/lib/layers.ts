/**
 * The layers of src/ as the code has them: dependency-cruiser reads every import, checks the rules of
 * .dependency-cruiser.cjs (layers point one way, no circle), and the folders' imports are drawn as
 * a Mermaid picture, one row per layer of scripts/layers.cjs.
 */
import { createRequire } from "node:module";
import { cruise } from "dependency-cruiser";

const require = createRequire(import.meta.url);
const config = require("../../.dependency-cruiser.cjs") as { forbidden: object[]; options: object };
const { LAYERS } = require("../layers.cjs") as { LAYERS: string[][] };

export const PICTURE_START = "<!-- layers: drawn by npm run layers from the code's imports -->";
export const PICTURE_END = "<!-- /layers -->";

/** The layer member (folder or loose file of src/) a module belongs to. */
function memberOf(path: string): string | undefined {
  const match = /^src\/([^/]+)(\/|$)/.exec(path);
  return match ? match[1] : undefined;
}

export interface Layers {
  /** The broken rules, one line each (`rule: from -> to`). */
  violations: string[];
  /** Each member's imports of other members, sorted. */
  imports: Map<string, string[]>;
}

export async function readLayers(): Promise<Layers> {
  const result = await cruise(["src"], { validate: true, ruleSet: { forbidden: config.forbidden }, ...config.options } as never);
  const output = result.output as unknown as {
    modules: { source: string; dependencies: { resolved: string }[] }[];
    summary: { violations: { rule: { name: string }; from: string; to: string }[] };
  };
  const imports = new Map<string, Set<string>>();
  for (const module of output.modules) {
    const from = memberOf(module.source);
    if (from === undefined) continue;
    const set = imports.get(from) ?? new Set<string>();
    imports.set(from, set);
    for (const { resolved } of module.dependencies) {
      const to = memberOf(resolved);
      if (to !== undefined && to !== from) set.add(to);
    }
  }
  return {
    violations: output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`),
    imports: new Map([...imports].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, [...v].sort()])),
  };
}

const id = (member: string) => member.replace(/\W/g, "_");

/** The picture, as a fenced Mermaid flowchart: the layers top to bottom, an arrow per import. */
export function layersPicture(imports: Map<string, string[]>): string {
  const lines = ["```mermaid", "flowchart TB"];
  LAYERS.forEach((layer, i) => {
    lines.push(`  subgraph layer${i + 1}[" "]`, "    direction LR");
    for (const member of layer) lines.push(`    ${id(member)}["${member}${member.endsWith(".ts") ? "" : "/"}"]`);
    lines.push("  end");
  });
  for (const [from, tos] of imports) for (const to of tos) lines.push(`  ${id(from)} --> ${id(to)}`);
  lines.push("```");
  return lines.join("\n");
}

/** `markdown` with the text between the markers replaced by the picture. */
export function withLayersPicture(markdown: string, imports: Map<string, string[]>): string {
  const start = markdown.indexOf(PICTURE_START);
  const end = markdown.indexOf(PICTURE_END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md must hold the markers ${PICTURE_START} and ${PICTURE_END}`);
  return `${markdown.slice(0, start + PICTURE_START.length)}\n${layersPicture(imports)}\n${markdown.slice(end)}`;
}
