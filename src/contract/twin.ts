/**
 * An operation's GraphQL twin: the root field that does what the REST operation does, each of its
 * arguments with its GraphQL type and where the REST request takes it, and the field's text in the
 * schema. A root field's arguments are turned into the REST operation's input (twin-request.ts),
 * so the two APIs check and run it the same way.
 * @module
 */
import type { ErrorCode } from "../engine/errors.js";

/** Codes a root field can end with: REST's, and GraphQL's own refusal of a tier change (spec A17). */
export type FieldCode = ErrorCode | "TIER_UPDATE_FAILED";

/** Where the REST operation takes one GraphQL argument. */
export interface ArgumentTwin {
  in: "path" | "query" | "body";
  /** The REST operation's name for it. */
  name: string;
  /** A program record's id: REST bodies take an integer, GraphQL any `ID` (one naming nothing is not found). */
  recordId?: true;
  /** A page cursor, in GraphQL's form here and REST's in the twin. */
  cursor?: true;
}

/** A root field's argument: its GraphQL type, and where REST takes it (each field of an input object, for one). */
export type TwinArgument =
  | { type: string; description?: string; to: ArgumentTwin }
  | { type: string; description?: string; fields: Readonly<Record<string, ArgumentTwin>> };

export interface GraphQLTwin {
  /** The root field's name; a query for a GET operation, else a mutation. */
  field: string;
  description: string;
  args: Readonly<Record<string, TwinArgument>>;
  /** The field's GraphQL type. */
  returns: string;
  /** GraphQL's own code for a refusal REST answers with another code. */
  codes?: Partial<Record<ErrorCode, FieldCode>>;
  /** A list answered whole: at most this many items, counted against an operation's cap on list items. */
  maxItems?: number;
}

/** An id in the REST path (`{name}`). */
export const pathId = (name: string) => ({ type: "ID!", to: { in: "path", name } }) as const;
export const query = (name: string, type: string, description?: string) => ({ type, ...(description !== undefined && { description }), to: { in: "query", name } }) as const;
export const cursor = (name: string, description: string) => ({ type: "String", description, to: { in: "query", name, cursor: true } }) as const;
export const body = (name: string, type: string, description?: string) => ({ type, ...(description !== undefined && { description }), to: { in: "body", name } }) as const;
/** A program record's id in the REST body (an integer there). */
export const recordId = (name: string) => ({ type: "ID!", to: { in: "body", name, recordId: true } }) as const;
/** An input object whose fields go into the REST body, by GraphQL field name to REST name. */
export function input(type: string, fields: Record<string, string>): TwinArgument {
  return { type, fields: Object.fromEntries(Object.entries(fields).map(([field, name]) => [field, { in: "body", name }])) };
}

/** Each argument's REST place, by argument path (`input.birthdayDay` for a field of an input object). */
export function argumentTwins(twin: GraphQLTwin): Record<string, ArgumentTwin> {
  const out: Record<string, ArgumentTwin> = {};
  for (const [name, arg] of Object.entries(twin.args)) {
    if ("to" in arg) out[name] = arg.to;
    else for (const [field, to] of Object.entries(arg.fields)) out[`${name}.${field}`] = to;
  }
  return out;
}

/** The root field as the SDL writes it: its description, then its arguments on one line, or one a line when any is described. */
export function rootFieldSDL(twin: GraphQLTwin): string {
  const args = Object.entries(twin.args);
  const described = args.some(([, arg]) => arg.description !== undefined);
  const list = described
    ? `(\n${args.map(([name, arg]) => `${arg.description !== undefined ? `    "${arg.description}"\n` : ""}    ${name}: ${arg.type}\n`).join("")}  )`
    : args.length > 0
      ? `(${args.map(([name, arg]) => `${name}: ${arg.type}`).join(", ")})`
      : "";
  return `  "${twin.description}"\n  ${twin.field}${list}: ${twin.returns}\n`;
}
