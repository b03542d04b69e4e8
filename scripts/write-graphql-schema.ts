/**
 * Regenerates the committed GraphQL schema from the code (`npm run graphql-schema`):
 * graphql/schema.graphql, the SDL as graphql-js prints it. A test fails when the committed copy drifts.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { printedSchema } from "../src/graphql/schema.js";

const target = new URL("../graphql/schema.graphql", import.meta.url);
mkdirSync(new URL(".", target), { recursive: true });
writeFileSync(target, printedSchema());
console.log(`wrote ${target.pathname}`);
