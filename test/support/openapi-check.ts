/**
 * Checks response bodies against the committed OpenAPI document, so every test that calls the
 * app also proves the contract describes what the app really sent; and checks request input
 * against it, so a test can prove the document refuses what the server refuses.
 * @module
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";

type Operation = {
  parameters?: ({ $ref: string } | Parameter)[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Parameter = { name: string; in: string; schema: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { parameters?: Record<string, Parameter> } };

const doc = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as Doc;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...doc, $id: "openapi" });

const templates = Object.keys(doc.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");
const validatorOf = (ref: string): ValidateFunction => ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });

/** The operation's path template for a concrete path, if the document has one. */
export function templateOf(path: string): string | undefined {
  return templates.find((t) => t.regex.test(path))?.template;
}

function operationOf(method: string, template: string): Operation {
  const operation = doc.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`the document has no ${method} ${template}`);
  return operation;
}

/**
 * Throws when the body does not match the document's schema for this method, path and status.
 * Paths the document does not know must answer with the error envelope. `forced`: the request
 * carried a `Prefer` header, so the document's status ranges (`4XX`: answers only forcing gives)
 * count too, and a forced status comes with an empty body.
 */
export function assertMatchesContract(method: string, path: string, status: number, body: unknown, options: { forced?: boolean } = {}): void {
  const template = templateOf(path);
  const operation = template ? doc.paths[template]?.[method.toLowerCase()] : undefined;
  let ref: string;
  if (!operation) {
    ref = "openapi#/components/schemas/ErrorEnvelope";
  } else {
    const range = `${String(status)[0]}XX`;
    const key = String(status) in operation.responses ? String(status) : options.forced && range in operation.responses ? range : undefined;
    if (key === undefined) throw new Error(`${method} ${template} returned ${status}, which the OpenAPI document does not declare`);
    const response = operation.responses[key]!;
    if (!response.content || (options.forced && body === "")) {
      // A response declared without content (204) must have no body.
      if (body !== "") throw new Error(`${method} ${path} -> ${status} declares no body but sent ${JSON.stringify(body)}`);
      return;
    }
    ref = `openapi#/${pointer("paths", template!, method.toLowerCase(), "responses", key, "content", "application/json", "schema")}`;
  }
  const validate = validatorOf(ref);
  if (!validate(body)) {
    throw new Error(`${method} ${path} -> ${status} does not match the contract: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`);
  }
}

/** Whether the document's JSON request body schema of this operation admits `body`; its errors when not. */
export function checkRequestBody(method: string, template: string, body: unknown): { valid: boolean; errors: string } {
  if (!operationOf(method, template).requestBody?.content["application/json"]) throw new Error(`${method} ${template} takes no JSON body`);
  const validate = validatorOf(`openapi#/${pointer("paths", template, method.toLowerCase(), "requestBody", "content", "application/json", "schema")}`);
  const valid = validate(body) as boolean;
  return { valid, errors: valid ? "" : ajv.errorsText(validate.errors) };
}

/** The operation's parameters as the document lists them, components resolved. */
export function parametersOf(method: string, template: string): Parameter[] {
  return (operationOf(method, template).parameters ?? []).map((p) => {
    if (!("$ref" in p)) return p;
    const name = p.$ref.replace("#/components/parameters/", "");
    const found = doc.components.parameters?.[name];
    if (!found) throw new Error(`${p.$ref} names no parameter component`);
    return found;
  });
}

/**
 * Whether the document admits `value` for the parameter `name` (in `place`) of this operation. A
 * value the schema types as an integer is read as one only when it is written as one (`-`, digits).
 */
export function checkParameter(method: string, template: string, place: "query" | "header" | "path", name: string, value: string): boolean {
  const listed = operationOf(method, template).parameters ?? [];
  const index = parametersOf(method, template).findIndex((p) => p.in === place && p.name.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new Error(`${method} ${template} has no ${place} parameter ${name}`);
  const entry = listed[index]!;
  const at = "$ref" in entry ? `${entry.$ref.slice(2)}/schema` : pointer("paths", template, method.toLowerCase(), "parameters", String(index), "schema");
  const validate = validatorOf(`openapi#/${at}`);
  const schema = parametersOf(method, template)[index]!.schema;
  return validate(schema.type === "integer" && /^-?[0-9]+$/.test(value) ? Number(value) : value) as boolean;
}
