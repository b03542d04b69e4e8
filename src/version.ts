/** @module The package version, read once from package.json (one level above src/ and dist/). */
import { createRequire } from "node:module";

export const VERSION = (createRequire(import.meta.url)("../package.json") as { version: string }).version;
