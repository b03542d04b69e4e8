/**
 * Checks response bodies against the committed OpenAPI document, so every test that calls the
 * app also proves the contract describes what the app really sent.
 * @module
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>> };

const doc = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...doc, $id: "openapi" });

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** The operation's path template for a concrete path, if the document has one. */
export function templateOf(path: string): string | undefined {
  return templates.find((t) => t.regex.test(path))?.template;
}

/**
 * Throws when the body does not match the document's schema for this method, path and status.
 * Paths the document does not know must answer with the error envelope.
 */
export function assertMatchesContract(method: string, path: string, status: number, body: unknown): void {
  const template = templateOf(path);
  const operation = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
  let ref: string;
  if (!operation) {
    ref = "openapi#/components/schemas/ErrorEnvelope";
  } else {
    const response = operation.responses[String(status)];
    if (!response) throw new Error(`${method} ${template} returned ${status}, which the OpenAPI document does not declare`);
    if (!response.content) {
      // A response declared without content (204) must have no body.
      if (body !== "") throw new Error(`${method} ${path} -> ${status} declares no body but sent ${JSON.stringify(body)}`);
      return;
    }
    ref = `openapi#/${pointer("paths", template!, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")}`;
  }
  const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  if (!validate(body)) {
    throw new Error(`${method} ${path} -> ${status} does not match the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }
}
