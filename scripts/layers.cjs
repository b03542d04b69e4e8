/** The layers of src/, top to bottom: folders, and the few loose files, each in one layer. */
exports.LAYERS = [
  ["cli", "index.ts"],
  ["import", "verify"],
  ["simulator"],
  ["app"],
  ["inspector"],
  ["control"],
  ["api", "graphql", "scenarios", "coverage"],
  ["contract"],
  ["http"],
  ["persistence"],
  ["program"],
  ["engine"],
  ["store"],
  ["config.ts", "version.ts"],
  ["zod-issues.ts"],
];
