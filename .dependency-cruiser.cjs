/**
 * The rules that keep the layers of src/ (scripts/layers.cjs) pointing one way: a folder (or a
 * loose file) imports only from the layers below its own, never a sibling of its own layer, and no
 * module takes part in a circle. `npm run layers` checks them and draws the picture in
 * docs/architecture.md; `test/layers.test.ts` fails on a broken rule or a stale picture.
 */
const { LAYERS } = require("./scripts/layers.cjs");

const escape = (name) => name.replace(/[.]/g, "\\.");
/** A path pattern for a folder or a loose file of src/. */
const place = (name) => (name.endsWith(".ts") ? `^src/${escape(name)}$` : `^src/${escape(name)}/`);

const layerRules = LAYERS.flatMap((layer, i) =>
  layer.flatMap((name) => {
    const above = LAYERS.slice(0, i).flat();
    const siblings = layer.filter((other) => other !== name);
    const forbidden = [...above, ...siblings];
    // A rule with no paths to forbid would match every import.
    if (forbidden.length === 0) return [];
    return {
      name: `layer:${name}`,
      comment: `${name} imports only from the layers below it (see scripts/layers.cjs)`,
      severity: "error",
      from: { path: place(name) },
      to: { path: forbidden.map(place) },
    };
  }),
);

module.exports = {
  forbidden: [
    { name: "no-circular", comment: "modules that import each other in a loop", severity: "error", from: {}, to: { circular: true } },
    {
      name: "not-in-a-layer",
      comment: "every file of src/ belongs to a layer: add its folder to scripts/layers.cjs",
      severity: "error",
      from: { path: "^src/", pathNot: LAYERS.flat().map(place) },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"], extensions: [".ts", ".tsx", ".js"] },
  },
};
