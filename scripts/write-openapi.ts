/** Regenerates openapi/openapi.json from the code (`npm run openapi`). */
import { writeFileSync } from "node:fs";
import { serializeOpenApiDocument } from "../src/openapi-document.js";

const target = new URL("../openapi/openapi.json", import.meta.url);
writeFileSync(target, serializeOpenApiDocument());
console.log(`wrote ${target.pathname}`);
