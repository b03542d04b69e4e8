/**
 * Bad input, generated. For every operation of the REST API, fast-check sends wrong types,
 * missing and extra fields, huge, negative and fractional numbers, unicode and very long strings,
 * bad ids and cursors, malformed JSON, JSON of the wrong shape, wrong content types and bodies
 * over the limit. Every answer must be
 * - the outcome the documentation decides for that input, computed by a small model of the shop
 *   (an exact status and code wherever the input decides it; the set of possible ones where only
 *   the shop's history does, as for earn-rule limits);
 * - a status and an error code the OpenAPI document lists for the operation, in the error envelope,
 *   and matching the document's schema (checked by `sim.call`); never a 5xx;
 * and afterwards a refused request has changed nothing, an accepted one has changed only what it
 * asked for, and every customer's balance is still the sum of their ledger.
 *
 * A failure prints fast-check's seed; replay the whole run with `FC_SEED=<seed>` (the state of the
 * shop builds up over a property's runs, so the seed, not the path, reproduces it). `FC_RUNS`
 * scales the number of runs.
 * @module
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ErrorCode } from "../../src/engine/errors.js";
import { MAX_STAMPS } from "../../src/engine/limits.js";
import { ERROR_CATALOG } from "../../src/http/errors.js";
import type { CustomerRecord } from "../../src/store/types.js";
import { assertMatchesContract } from "../support/openapi-check.js";
import { BASE, createTestSim, NOW, NOW_ISO, type CallResult, type TestSim } from "../support/sim.js";

const SEED = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
/** Runs per operation; the other properties scale with it. */
const RUNS = Number(process.env.FC_RUNS ?? 150);
const MAX = Number.MAX_SAFE_INTEGER;
const BODY_LIMIT = 1024 * 1024;
const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Fields of the platform that PATCH refuses by name (docs/api.md: name, email and phone). */
const NOT_WRITABLE = ["firstName", "lastName", "email", "phone", "first_name", "last_name"];

// ---------------------------------------------------------------------------------------------
// What the OpenAPI document promises: per operation, each status and the codes it may carry.

interface DocOp {
  method: string;
  path: string;
  statuses: Map<number, string[]>;
}
type OpenApi = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { description: string }> }>> };
const openapi = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8")) as OpenApi;
const documented = new Map<string, DocOp>();
for (const [path, methods] of Object.entries(openapi.paths)) {
  if (!path.startsWith(BASE)) continue;
  for (const [method, op] of Object.entries(methods)) {
    const statuses = new Map<number, string[]>();
    for (const [status, response] of Object.entries(op.responses)) {
      // A range (`4XX`) is what only forcing answers (the Prefer header): no request here forces one.
      if (!/^\d+$/.test(status)) continue;
      statuses.set(Number(status), [...response.description.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!));
    }
    documented.set(op.operationId, { method: method.toUpperCase(), path: path.slice(BASE.length), statuses });
  }
}

// ---------------------------------------------------------------------------------------------
// Generated requests. Ids and cursors are picks, resolved against the shop when the request is
// sent, so the same generated request can name a real record whatever the shop's state.

/**
 * A path parameter: a record of the shop (`escaped`: with every character percent-encoded), any
 * text (percent-encoded), or a malformed escape.
 */
type IdPick = { pick: number; escaped?: boolean } | { text: string } | { raw: string };
/** A query value: text, a real cursor or email of the shop, or a malformed escape. */
type QueryValue = string | { cursor: number } | { email: number } | { raw: string };
interface Body {
  text: string;
  /** Undefined: no Content-Type header (a client's fetch then sends text/plain). */
  type: string | undefined;
}
interface Req {
  ids: IdPick[];
  query: [string, QueryValue][];
  body?: Body | undefined;
}

/** A JSON literal written as is, for numbers JSON.stringify cannot write (1e400, -0, 1.0). */
class Literal {
  constructor(readonly text: string) {}
}
const literals = (...texts: string[]) => fc.constantFrom(...texts.map((t) => new Literal(t)));
const render = (v: unknown): string => (v instanceof Literal ? v.text : JSON.stringify(v) ?? "null");
const objectText = (entries: [string, unknown][]) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${render(v)}`).join(",")}}`;

const codePoints = (s: string) => [...s].length;
/** No lone surrogate: such text cannot be percent-encoded into a URL. */
const wellFormed = (s: string) => !/[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""));
const longText = fc
  .tuple(fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }), fc.integer({ min: 990, max: 10_000 }))
  .map(([s, n]) => s.repeat(Math.ceil(n / s.length)));
const unicodeText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", " ", "\u0000", "\u202e", "😀", "e\u0301", "👩‍👩‍👧", "\uD800", "\r\n"),
);
const hugeNumbers = fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 53), 2 ** 64, -(2 ** 64), 1e300, -1e300, Number.MAX_VALUE, Number.MIN_VALUE);
const oddLiterals = literals("1e400", "-1e400", "1.0", "-0", "1e2", "9007199254740993", "-9007199254740993", "0.1e1", "123456789012345678901234567890", "5E-324");
/** Values of every kind and size; whether one is valid for a field is for the oracle to say. */
const junk = fc.oneof(
  unicodeText,
  longText,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom("5", "1e3", "NaN", "Infinity", "-1", "0x10", "true", "null", "[]"),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.double(),
  hugeNumbers,
  oddLiterals,
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxKeys: 2 }),
);
/** Mostly values of the right kind (edge cases included), sometimes junk. */
const value = (...good: fc.Arbitrary<unknown>[]) => fc.oneof({ arbitrary: fc.oneof(...good), weight: 6 }, { arbitrary: junk, weight: 1 });

interface Field {
  name: string;
  required?: boolean;
  /** Fields of a group are mostly sent together (PATCH's birthday pair). */
  group?: string;
  /** The documented rule, on the value as the server parses it. */
  valid: (v: unknown) => boolean;
  gen: fc.Arbitrary<unknown>;
}
const isInt = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v);
const isText = (v: unknown) => typeof v === "string" && codePoints(v) <= 1000;
const textField = (name: string): Field => ({ name, valid: isText, gen: value(unicodeText, fc.string({ maxLength: 1000 }), fc.constantFrom("x".repeat(1000), "😀".repeat(1000))) });
const extremes = fc.constantFrom(MAX, -MAX, MAX - 1, 2 ** 52, -(2 ** 52));
/** An integer field: valid within [min, max] (and 2^53-1 either way); generated mostly in `near`, often at the edges. */
function intField(
  name: string,
  near: [number, number],
  rule: { min?: number; max?: number; not0?: boolean; required?: boolean; hot?: number[] } = {},
): Field {
  const { min = -MAX, max = MAX, not0 = false, required = false, hot = [] } = rule;
  const edges = [min - 1, min, max, max + 1, 0, -1, ...hot].filter((n) => Math.abs(n) <= MAX);
  return {
    name,
    required,
    valid: (v) => isInt(v) && v >= min && v <= max && !(not0 && v === 0),
    gen: value(
      fc.oneof(
        { arbitrary: fc.integer({ min: near[0], max: near[1] }), weight: 6 },
        { arbitrary: fc.constantFrom(...edges), weight: 2 },
        { arbitrary: extremes, weight: 1 },
      ),
    ),
  };
}
const boolField = (name: string): Field => ({ name, valid: (v) => typeof v === "boolean", gen: value(fc.boolean()) });

const KNOWN_EXTRA_KEYS = ["__proto__", "constructor", "toString", "id", "customerId", "stampBalance", "balance", "state", "vipTierId", "excluded", "stamps", ...NOT_WRITABLE];
const extraEntry = (fields: Field[]) =>
  fc.tuple(fc.oneof(fc.constantFrom(...KNOWN_EXTRA_KEYS, ...fields.map((f) => f.name)), fc.string({ unit: "grapheme", maxLength: 12 })), junk);

const JSON_TYPES = ["application/json", "application/json; charset=utf-8", "application/json;charset=UTF-8", "Application/JSON", "application/vnd.api+json"];
const OTHER_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "text/json", "application/jsonp", "text/html; charset=utf-8"];
const contentType = fc.oneof(
  { arbitrary: fc.constantFrom(...JSON_TYPES), weight: 18 },
  { arbitrary: fc.constantFrom(...OTHER_TYPES, undefined), weight: 1 },
);
const isJsonType = (type: string | undefined) => type !== undefined && JSON_TYPES.includes(type);

/** Ways to break JSON text; some leave it valid by chance, which the oracle sees. */
const MALFORMED = ["", " ", "{", "}", "nul", "NaN", "undefined", "{stamps: 5}", "{'stamps': 5}", '{"stamps": 5,}', "[1,]", '{"a" 1}', '{"a":1}garbage', "\u0000", "{}{}", '{"a":"\\x"}'];
const malform = (text: string) =>
  fc.oneof(
    fc.nat().map((n) => text.slice(0, n % Math.max(1, text.length))),
    fc.constantFrom("}", ",", "x", "{", "]", '"', "//").map((s) => text + s),
    fc.constant(text.replaceAll('"', "'")),
    fc.constant(text.replace(/"([^"]*)":/g, "$1:")),
    fc.constantFrom(...MALFORMED),
  );
const notAnObject = fc.oneof(
  fc.jsonValue().filter((v) => v === null || typeof v !== "object" || Array.isArray(v)),
  fc.constantFrom([], [{ stamps: 5 }], "{}", 0, true, null),
).map((v) => JSON.stringify(v));

/** A body for an operation with these fields: mostly a JSON object, sometimes broken. */
function bodyArb(fields: Field[]): fc.Arbitrary<Body> {
  const groups = [...new Set(fields.map((f) => f.group ?? f.name))];
  const sent = fc.tuple(
    fc.tuple(...groups.map((g) => fc.nat({ max: fields.some((f) => (f.group ?? f.name) === g && f.required) ? 9 : 2 }).map((n) => n > 0))),
    fc.tuple(...fields.map((f) => fc.option(f.gen, { nil: undefined, freq: 12 }))),
  );
  const entries = fc
    .tuple(sent, fc.array(extraEntry(fields), { maxLength: 2 }))
    .map(([[groupSent, values], extras]) => [
      ...fields.flatMap((f, i) => (groupSent[groups.indexOf(f.group ?? f.name)] && values[i] !== undefined ? [[f.name, values[i]] as [string, unknown]] : [])),
      ...extras,
    ]);
  const text = fc.oneof(
    { arbitrary: entries.map(objectText), weight: 24 },
    { arbitrary: entries.map(objectText).chain(malform), weight: 1 },
    { arbitrary: notAnObject, weight: 1 },
  );
  return fc.record({ text, type: contentType });
}

const MALFORMED_ESCAPES = ["%", "%zz", "abc%", "%%", "%E0%A4%A", "%C3%28", "%ED%A0%80", "1%2"];
const idText = fc
  .oneof(
    fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
    fc.integer({ min: -10, max: 1_000_000 }).map(String),
    fc.constantFrom("-1", "0", "1.0", " 1", "1 ", "0x1", "1e3", "9".repeat(40), "null", "undefined", "NaN", "%", "%2F", "../x", "\u0000", "101", "2", "203"),
    longText,
  )
  .filter((s) => s !== "." && s !== ".." && wellFormed(s));
const idPick: fc.Arbitrary<IdPick> = fc.oneof(
  { arbitrary: fc.record({ pick: fc.nat(), escaped: fc.nat({ max: 7 }).map((n) => n === 0) }), weight: 6 },
  { arbitrary: idText.map((text) => ({ text })), weight: 3 },
  { arbitrary: fc.constantFrom(...MALFORMED_ESCAPES).map((r) => ({ raw: r })), weight: 1 },
);

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const queryText = unicodeText.filter(wellFormed);
/** Mostly well-formed values, with the edge cases and junk around them. */
const mostly = <T>(good: fc.Arbitrary<T>, ...bad: fc.Arbitrary<QueryValue>[]) =>
  fc.oneof({ arbitrary: good as fc.Arbitrary<QueryValue>, weight: 2 * bad.length }, ...bad.map((arbitrary) => ({ arbitrary, weight: 1 })));
const QUERY = {
  limit: mostly(
    fc.integer({ min: 1, max: 1000 }).map(String),
    fc.constantFrom("0", "-1", "1001", "1.5", "abc", "", "1e3", " 7", "0x10", "Infinity", "NaN", "9007199254740993", "1000", "1"),
    fc.integer({ min: -2, max: 1002 }).map(String),
    fc.double().map(String),
    queryText,
  ),
  cursor: mostly<QueryValue>(
    fc.nat().map((cursor) => ({ cursor })),
    fc.bigInt({ min: 0n, max: 10n ** 22n }).map((n) => b64(`id:${n}`)),
    fc.nat({ max: 3000 }).map((n) => b64(`id:${n}`)),
    fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => b64(`id:${s}`)),
    fc.constantFrom(b64("id:"), b64("foo"), b64("id:-1"), b64("id:1.5"), b64(" id:1"), "aWQ6MTAx", "aWQ6MTAx=", "aWQ6MTAx\n", "aWQ6MT-x", "!!!", ""),
    fc.base64String({ maxLength: 40 }),
    fc.uint8Array({ maxLength: 30 }).map((b) => Buffer.from(b).toString("base64url")),
    queryText,
    longText,
  ),
  flag: mostly(fc.constantFrom("0", "1", "true", "false"), fc.constantFrom("TRUE", "yes", "", "2", " true", "1.0", "on"), queryText),
  email: mostly<QueryValue>(
    fc.nat().map((email) => ({ email })),
    fc.emailAddress(),
    queryText,
    fc.integer({ min: 300, max: 340 }).map((n) => "é".repeat(n)),
    longText,
  ),
};
type QueryKey = "limit" | "after" | "before" | "hasCount" | "email" | "available";
const queryValueArb: Record<QueryKey, fc.Arbitrary<QueryValue>> = {
  limit: QUERY.limit,
  after: QUERY.cursor,
  before: QUERY.cursor,
  hasCount: QUERY.flag,
  available: QUERY.flag,
  email: QUERY.email,
};
const ALL_QUERY_KEYS = Object.keys(queryValueArb) as QueryKey[];
/** The documented rules of each query parameter, on its decoded text (cursors: see cursorCheck). */
const QUERY_RULES: Record<QueryKey, (v: string) => boolean> = {
  // Read as a number, as a query string carries it: "1e3" and " 7" are integers too.
  limit: (v) => /^[0-9]+$/.test(v) && Number(v) >= 1 && Number(v) <= 1000,
  hasCount: (v) => ["0", "1", "true", "false"].includes(v),
  available: (v) => ["0", "1", "true", "false"].includes(v),
  email: (v) => codePoints(v) <= 320,
  after: () => true,
  before: () => true,
};
/** Query parameters: the operation's own (each sometimes, sometimes twice) and unknown ones. */
function queryArb(keys: QueryKey[]): fc.Arbitrary<[string, QueryValue][]> {
  const own = (keys.length > 0 ? keys : ALL_QUERY_KEYS).map((key) =>
    fc
      .tuple(fc.option(queryValueArb[key], { nil: undefined, freq: 2 }), fc.oneof({ arbitrary: fc.constant(undefined), weight: 9 }, { arbitrary: queryValueArb[key], weight: 1 }))
      .map(([first, again]) => (first === undefined ? [] : again === undefined ? [first] : [first, again]).map((v): [string, QueryValue] => [key, v])),
  );
  const unknown = fc.tuple(
    fc.string({ unit: "grapheme", maxLength: 10 }).filter((k) => !(ALL_QUERY_KEYS as string[]).includes(k) && wellFormed(k)),
    fc.oneof<fc.Arbitrary<QueryValue>[]>(queryText, fc.constantFrom(...MALFORMED_ESCAPES).map((r) => ({ raw: r }))),
  );
  return fc.tuple(fc.tuple(...own), fc.array(unknown, { maxLength: 2 })).map(([lists, extras]) => [...lists.flat(), ...extras]);
}

// ---------------------------------------------------------------------------------------------
// The operations, with the model of what each answers to valid input.

type Outcome = "OK" | ErrorCode;
interface Expectation {
  outcomes: Outcome[];
  /** For VALIDATION_ERROR: the `in:path` entries the answer may name; it must name one of them. */
  culprits?: string[];
  /** The exact error envelope, where the input decides it. */
  error?: { message: string; details?: { in: string; path: string; message: string | RegExp }[] };
}
const is = (...outcomes: Outcome[]): Expectation => ({ outcomes });
const invalid = (...culprits: string[]): Expectation => ({ outcomes: ["VALIDATION_ERROR"], culprits });

type IdKind = "customer" | "code" | "tier" | "reward" | "rule";
const NOT_FOUND: Record<IdKind, ErrorCode> = {
  customer: "CUSTOMER_NOT_FOUND",
  code: "REWARD_CODE_NOT_FOUND",
  tier: "TIER_NOT_FOUND",
  reward: "REWARD_NOT_FOUND",
  rule: "EARN_RULE_NOT_FOUND",
};

/** What a model sees: the shop before the request and the request as the server reads it. */
interface Ctx {
  sim: TestSim;
  ids: string[];
  body: Record<string, unknown>;
  query: Map<string, string>;
  /** The customer named by the path, before the request (a copy), and how many codes they had. */
  customer: CustomerRecord | undefined;
  codes: number;
}

interface Op {
  id: string;
  method: "GET" | "POST" | "PATCH";
  path: string;
  ids?: IdKind[];
  /** Query parameters the operation documents (others are ignored). */
  query?: QueryKey[];
  /** Body fields; "none": the operation reads no body (but may be sent one). */
  body?: Field[] | "none";
  /** Culprits across fields (PATCH's birthday pair and platform fields). */
  cross?: (body: Record<string, unknown>) => string[];
  /** The answer to valid input. */
  model: (ctx: Ctx) => Expectation;
  /** After a success: what must have changed, and nothing else. */
  after?: (ctx: Ctx, res: CallResult) => void;
}

/** A read of one program record by id: found, or the record kind's not-found code. */
function catalogueRead(id: string, path: string, kind: IdKind, list: (p: ReturnType<typeof program>) => { id: number }[], notFound: ErrorCode): Op {
  return { id, method: "GET", path, ids: [kind], model: (ctx) => (list(program(ctx)).some((r) => String(r.id) === ctx.ids[0]) ? is("OK") : is(notFound)) };
}

const store = (ctx: Ctx) => ctx.sim.shop.store;
const program = (ctx: Ctx) => store(ctx).data.program;
const refused = (c: CustomerRecord) => c.excluded || c.mergedIntoCustomerId !== undefined;
const current = (ctx: Ctx) => store(ctx).customer(ctx.customer!.id)!;
const codeOf = (ctx: Ctx, codeId: string) => {
  const code = /^\d{1,15}$/.test(codeId) ? store(ctx).code(Number(codeId)) : undefined;
  return code?.customerId === ctx.customer?.id ? code : undefined;
};
/** The customer must exist; then the rest of the model decides. */
const withCustomer = (rest: (ctx: Ctx, c: CustomerRecord) => Expectation) => (ctx: Ctx) =>
  ctx.customer ? rest(ctx, ctx.customer) : is("CUSTOMER_NOT_FOUND");
type Reward = ReturnType<typeof program>["rewards"][number];
const bodyReward = (ctx: Ctx) => program(ctx).rewards.find((r) => r.id === ctx.body.reward_product_id);
/** Redeeming and granting: the customer, then the reward the body names, then a customer who may get one. */
const withReward = (rest: (ctx: Ctx, c: CustomerRecord, reward: Reward) => Expectation) =>
  withCustomer((ctx, c) => {
    const reward = bodyReward(ctx);
    if (!reward) return is("REWARD_NOT_FOUND");
    if (refused(c)) return is("ACTIVITY_NOT_AWARDED");
    return rest(ctx, c, reward);
  });
/** The customer got exactly one new reward code. */
const codeIssued = (ctx: Ctx) => expect(store(ctx).codesOf(ctx.customer!.id).length).toBe(ctx.codes + 1);
/** The balance moved by this much, and the answer says so. */
const balanceMoved = (by: (ctx: Ctx) => number) => (ctx: Ctx, res: CallResult) => {
  expect(current(ctx).balance).toBe(ctx.customer!.balance + by(ctx));
  if ("stampBalance" in res.body.data) expect(res.body.data.stampBalance).toBe(current(ctx).balance);
};

/** Cursor rules of the two paged lists, checked by the engine once the query is well-formed. */
function cursorCheck(ctx: Ctx, names: (id: string) => boolean): Expectation {
  if (ctx.query.has("after") && ctx.query.has("before")) return invalid("query:before", "query:after");
  for (const param of ["after", "before"]) {
    const cursor = ctx.query.get(param);
    if (cursor === undefined) continue;
    const id = /^[A-Za-z0-9+/]+={0,2}$/.test(cursor) && cursor.length % 4 === 0 ? /^id:(\d{1,20})$/.exec(Buffer.from(cursor, "base64").toString("utf8"))?.[1] : undefined;
    if (id === undefined || !names(id)) return invalid(`query:${param}`);
  }
  return is("OK");
}

function variableCost(reward: { exchangeType: string; minAmount?: number; maxAmount?: number }, amount: unknown): Expectation | undefined {
  if (amount === undefined) return invalid("body:variable_amount");
  if ((amount as number) < (reward.minAmount ?? 1) || (amount as number) > (reward.maxAmount ?? MAX_STAMPS)) return invalid("body:variable_amount");
  return undefined;
}

const comments = [textField("comment"), textField("internal_comment")];
const rewardFields = [intField("reward_product_id", [99, 111], { min: 1, required: true }), intField("variable_amount", [1, 110], { min: 1, max: MAX_STAMPS })];
const PAGE: QueryKey[] = ["limit", "after", "before", "hasCount"];

const ops: Op[] = [
  {
    id: "listCustomers",
    method: "GET",
    path: "/customers",
    query: [...PAGE, "email"],
    model: (ctx) => cursorCheck(ctx, (id) => store(ctx).customer(id) !== undefined),
  },
  { id: "getCustomer", method: "GET", path: "/customers/{id}", ids: ["customer"], model: withCustomer(() => is("OK")) },
  {
    id: "updateCustomer",
    method: "PATCH",
    path: "/customers/{id}",
    ids: ["customer"],
    body: [
      // Short months and their last days, so the day-of-month rule is met often.
      { ...intField("birthday_month", [1, 12], { min: 1, max: 12, hot: [2, 2, 4, 6, 9, 11] }), group: "birthday" },
      { ...intField("birthday_day", [1, 31], { min: 1, max: 31, hot: [29, 30, 30, 31, 31] }), group: "birthday" },
      boolField("excluded"),
    ],
    cross: (b) => [
      ...(Object.hasOwn(b, "birthday_month") !== Object.hasOwn(b, "birthday_day") ? ["body:birthday_month", "body:birthday_day"] : []),
      ...NOT_WRITABLE.filter((k) => Object.hasOwn(b, k)).map((k) => `body:${k}`),
    ],
    model: withCustomer((ctx) => {
      const { birthday_month: m, birthday_day: d } = ctx.body as { birthday_month?: number; birthday_day?: number };
      return m !== undefined && d! > DAYS_IN_MONTH[m - 1]! ? invalid("body:birthday_day") : is("OK");
    }),
    after: (ctx) => {
      const { birthday_month: m, birthday_day: d, excluded } = ctx.body as { birthday_month?: number; birthday_day?: number; excluded?: boolean };
      const before = ctx.customer!;
      const dob = m === undefined ? before.dateOfBirth : `${String(d).padStart(2, "0")}-${String(m).padStart(2, "0")}`;
      let expected: CustomerRecord = structuredClone({ ...before, ...(dob !== undefined && { dateOfBirth: dob }) });
      // Removing pauses expiry from now; re-including shifts every expiry clock by the pause.
      if (excluded === true && !before.excluded) Object.assign(expected, { excluded: true, excludedAt: NOW });
      if (excluded === false && before.excluded) {
        const paused = before.excludedAt === undefined ? 0 : Math.max(0, NOW - before.excludedAt);
        const { excludedAt: _paused, ...included } = expected;
        Object.assign(included, { excluded: false, lots: expected.lots.map((lot) => ({ ...lot, expiresAt: lot.expiresAt + paused })) });
        if (expected.lastMovementAt !== undefined) Object.assign(included, { lastMovementAt: expected.lastMovementAt + paused });
        expected = included;
      }
      expect(current(ctx)).toStrictEqual(expected);
    },
  },
  {
    id: "setCustomerTier",
    method: "POST",
    path: "/customers/{id}/tier",
    ids: ["customer"],
    body: [intField("tier_id", [0, 5], { min: 1, required: true }), boolField("trigger_rewards"), ...comments],
    model: withCustomer((ctx, c) => {
      if (!program(ctx).tiers.some((t) => t.id === ctx.body.tier_id)) return is("TIER_NOT_FOUND");
      return refused(c) ? is("ACTIVITY_NOT_AWARDED") : is("OK");
    }),
    after: (ctx, res) => {
      expect(current(ctx).vipTierId).toBe(ctx.body.tier_id);
      const granted = ctx.body.trigger_rewards === true ? program(ctx).tiers.find((t) => t.id === ctx.body.tier_id)!.rewardIds.length : 0;
      expect(store(ctx).codesOf(ctx.customer!.id).length - ctx.codes).toBe(granted);
      balanceMoved(() => 0)(ctx, res);
    },
  },
  {
    id: "awardStamps",
    method: "POST",
    path: "/customers/{id}/stamps/award",
    ids: ["customer"],
    body: [intField("stamps", [1, 100], { min: 1, max: MAX_STAMPS, required: true }), ...comments],
    model: withCustomer((ctx, c) => {
      if (refused(c)) return is("ACTIVITY_NOT_AWARDED");
      return c.balance + (ctx.body.stamps as number) > MAX_STAMPS ? invalid("body:stamps") : is("OK");
    }),
    after: balanceMoved((ctx) => ctx.body.stamps as number),
  },
  {
    id: "adjustStamps",
    method: "POST",
    path: "/customers/{id}/stamps/adjust",
    ids: ["customer"],
    body: [intField("stamps", [-100, 100], { min: -MAX_STAMPS, max: MAX_STAMPS, not0: true, required: true }), ...comments],
    model: withCustomer((ctx, c) => {
      if (refused(c)) return is("ACTIVITY_NOT_AWARDED");
      const balance = c.balance + (ctx.body.stamps as number);
      return balance < 0 ? is("INSUFFICIENT_STAMPS") : balance > MAX_STAMPS ? invalid("body:stamps") : is("OK");
    }),
    after: balanceMoved((ctx) => ctx.body.stamps as number),
  },
  {
    id: "processEarnRule",
    method: "POST",
    path: "/customers/{id}/activities",
    ids: ["customer"],
    body: [intField("earn_rule_id", [199, 209], { min: 1, required: true })],
    model: withCustomer((ctx, c) => {
      if (!program(ctx).earnRules.some((r) => r.id === ctx.body.earn_rule_id)) return is("EARN_RULE_NOT_FOUND");
      if (refused(c)) return is("ACTIVITY_NOT_AWARDED");
      // Whether the rule's limit allows it depends on the customer's history.
      return c.balance > MAX_STAMPS - 10_000 ? { outcomes: ["OK", "ACTIVITY_NOT_AWARDED", "VALIDATION_ERROR"], culprits: ["body:earn_rule_id"] } : is("OK", "ACTIVITY_NOT_AWARDED");
    }),
    after: (ctx, res) => balanceMoved(() => res.body.data.stampChange as number)(ctx, res),
  },
  {
    id: "listActivities",
    method: "GET",
    path: "/customers/{id}/activities",
    ids: ["customer"],
    query: PAGE,
    model: withCustomer((ctx, c) => cursorCheck(ctx, (id) => store(ctx).activityPosition(Number(id))?.customerId === c.id)),
  },
  {
    id: "redeemReward",
    method: "POST",
    path: "/customers/{id}/redemptions",
    ids: ["customer"],
    body: rewardFields,
    model: withReward((ctx, c, reward) => {
      if (reward.tierId !== undefined) {
        const milestone = (id: number | undefined) => program(ctx).tiers.find((t) => t.id === id)?.milestone ?? -1;
        if (milestone(c.vipTierId) < milestone(reward.tierId)) return is("REWARD_NOT_FOUND");
      }
      const cost = reward.exchangeType === "variable" ? ctx.body.variable_amount : reward.price;
      const bad = reward.exchangeType === "variable" ? variableCost(reward, cost) : undefined;
      return bad ?? (c.balance < (cost as number) ? is("INSUFFICIENT_STAMPS") : is("OK"));
    }),
    after: (ctx, res) => {
      const reward = bodyReward(ctx)!;
      balanceMoved(() => -(reward.exchangeType === "variable" ? (ctx.body.variable_amount as number) : reward.price))(ctx, res);
      codeIssued(ctx);
    },
  },
  {
    id: "grantReward",
    method: "POST",
    path: "/customers/{id}/reward-grants",
    ids: ["customer"],
    body: rewardFields,
    model: withReward((ctx, _c, reward) => {
      const amount = ctx.body.variable_amount;
      return (reward.exchangeType === "variable" && amount !== undefined && variableCost(reward, amount)) || is("OK");
    }),
    after: (ctx, res) => {
      balanceMoved(() => 0)(ctx, res);
      codeIssued(ctx);
    },
  },
  { id: "listRewardCodes", method: "GET", path: "/customers/{id}/reward-codes", ids: ["customer"], query: ["available"], model: withCustomer(() => is("OK")) },
  {
    id: "useRewardCode",
    method: "POST",
    path: "/customers/{id}/reward-codes/{codeId}/use",
    ids: ["customer", "code"],
    body: "none",
    model: withCustomer((ctx) => (codeOf(ctx, ctx.ids[1]!) ? is("OK") : is("REWARD_CODE_NOT_FOUND"))),
    after: (ctx, res) => {
      balanceMoved(() => 0)(ctx, res);
      expect(codeOf(ctx, ctx.ids[1]!)!.used).toBe(true);
    },
  },
  {
    id: "voidRewardCode",
    method: "POST",
    path: "/customers/{id}/reward-codes/{codeId}/void",
    ids: ["customer", "code"],
    body: "none",
    model: withCustomer((ctx, c) => {
      const code = codeOf(ctx, ctx.ids[1]!);
      if (!code) return is("REWARD_CODE_NOT_FOUND");
      if (code.used || code.voided) return is("VOID_FAILED");
      if (refused(c)) return is("ACTIVITY_NOT_AWARDED");
      return c.balance + code.cost > MAX_STAMPS ? invalid("path:codeId") : is("OK");
    }),
    after: (ctx, res) => {
      const code = codeOf(ctx, ctx.ids[1]!)!;
      balanceMoved(() => code.cost)(ctx, res);
      expect(code).toMatchObject({ used: true, voided: true });
    },
  },
  { id: "listRewards", method: "GET", path: "/rewards", model: () => is("OK") },
  catalogueRead("getReward", "/rewards/{id}", "reward", (p) => p.rewards, "REWARD_NOT_FOUND"),
  { id: "listTiers", method: "GET", path: "/tiers", model: () => is("OK") },
  catalogueRead("getTier", "/tiers/{id}", "tier", (p) => p.tiers, "TIER_NOT_FOUND"),
  { id: "listEarnRules", method: "GET", path: "/earn-rules", model: () => is("OK") },
  catalogueRead("getEarnRule", "/earn-rules/{id}", "rule", (p) => p.earnRules, "EARN_RULE_NOT_FOUND"),
  { id: "getShop", method: "GET", path: "/shop", model: () => is("OK") },
  { id: "listBeacons", method: "GET", path: "/beacons", model: () => is("OK") },
];

/** Any body an operation without one may be sent: mostly none. */
const strayBody = fc.option(fc.record({ text: fc.oneof(fc.constant(""), notAnObject, fc.constantFrom(...MALFORMED), fc.json()), type: contentType }), { nil: undefined, freq: 2 });

function requestArb(op: Op): fc.Arbitrary<Req> {
  const body = op.body === undefined ? fc.constant(undefined) : op.body === "none" ? strayBody : bodyArb(op.body);
  return fc.record({ ids: fc.tuple(...(op.ids ?? []).map(() => idPick)), query: queryArb(op.query ?? []), body });
}

// ---------------------------------------------------------------------------------------------
// The runner: resolve, predict, send, check.

/** A fresh shop with codes to use and void. */
function newSim(): TestSim {
  const sim = createTestSim({ customers: 20 });
  for (const c of sim.shop.store.data.customers.slice(0, 12)) {
    if (refused(c)) continue;
    sim.shop.awardStamps(c.id, { stamps: 60 });
    sim.shop.redeemReward(c.id, 103);
    sim.shop.redeemReward(c.id, 106, 7);
    sim.shop.grantReward(c.id, 101);
  }
  settle(sim);
  return sim;
}

/** Reads every customer, so stamps that expired by now leave before the next request. */
function settle(sim: TestSim): void {
  for (const c of sim.shop.store.data.customers) sim.shop.getCustomer(c.id);
}

/** Everything a request could change. */
function fingerprint(sim: TestSim): string {
  const { data, version } = sim.shop.store;
  return JSON.stringify([version, data.customers, data.activities.length, data.nextActivityId, data.nextCodeId, data.codes.map((c) => [c.used, c.voided])]);
}

interface Sent {
  url: string;
  /** Path parameters as the server decodes them; undefined: a malformed escape. */
  ids: (string | undefined)[];
  /** Query parameters as the server decodes them (it keeps a malformed escape as sent). */
  query: [string, string][];
}

function resolve(sim: TestSim, op: Op, req: Req): Sent {
  const { customers, codes, program: p } = sim.shop.store.data;
  const ids: (string | undefined)[] = [];
  const segments: string[] = [];
  (op.ids ?? []).forEach((kind, i) => {
    const pick = req.ids[i]!;
    let id: string | undefined;
    if ("pick" in pick) {
      const n = pick.pick;
      const own = sim.shop.store.codesOf(ids[0] ?? "");
      const from: readonly { id: number | string }[] =
        kind === "customer" ? customers : kind === "code" ? (n % 2 === 0 && own.length > 0 ? own : codes) : kind === "tier" ? p.tiers : kind === "reward" ? p.rewards : p.earnRules;
      id = String(from[Math.floor(n / 2) % from.length]!.id);
    } else if ("text" in pick) id = pick.text;
    ids.push(id);
    const escapeAll = (text: string) => [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
    segments.push("raw" in pick ? pick.raw : "escaped" in pick && pick.escaped ? escapeAll(id!) : encodeURIComponent(id!));
  });
  let i = 0;
  const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]!);
  const query = req.query.map(([key, v]): [string, string] => {
    if (typeof v === "string") return [key, v];
    if ("raw" in v) return [key, v.raw];
    if ("email" in v) return [key, customers[v.email % customers.length]!.email];
    // Even: a record of the list; odd: any activity of the shop (another customer's, mostly).
    const own = op.id === "listActivities" ? sim.shop.store.activitiesOf(ids[0] ?? "") : customers;
    const list: readonly { id: number | string }[] = v.cursor % 2 === 0 && own.length > 0 ? own : sim.shop.store.data.activities;
    return [key, b64(`id:${list[Math.floor(v.cursor / 2) % list.length]!.id}`)];
  });
  const qs = req.query.map(([key, v], j) => `${encodeURIComponent(key)}=${typeof v === "object" && "raw" in v ? v.raw : encodeURIComponent(query[j]![1])}`);
  return { url: qs.length > 0 ? `${path}?${qs.join("&")}` : path, ids, query };
}

const parse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    // What the server reads: the text as UTF-8 (a lone surrogate arrives as U+FFFD).
    return { ok: true, value: JSON.parse(Buffer.from(text, "utf8").toString("utf8")) };
  } catch {
    return { ok: false };
  }
};
const NOT_JSON_TYPE = { message: "Request body must be JSON", details: [{ in: "header", path: "Content-Type", message: /^must be application\/json/ }] };

/** What the documentation says the answer to this request is, on the shop as it is now. */
function predict(sim: TestSim, op: Op, sent: Sent, body: Body | undefined): { expectation: Expectation; ctx?: Ctx } {
  // A body that is not JSON is refused before anything reads it.
  if (body && body.text.length > 0 && !isJsonType(body.type)) return { expectation: { ...invalid("header:Content-Type"), error: NOT_JSON_TYPE } };

  const culprits: string[] = [];
  const query = new Map<string, string>();
  for (const key of op.query ?? []) {
    const values = sent.query.filter(([k]) => k === key).map(([, v]) => v);
    if (values.length === 0) continue;
    // Sent twice, a parameter is a list, not a value.
    if (values.length === 1 && QUERY_RULES[key](values[0]!)) query.set(key, values[0]!);
    else culprits.push(`query:${key}`);
  }
  let parsed: Record<string, unknown> = {};
  let bodyError: Expectation["error"];
  if (Array.isArray(op.body)) {
    const fields = op.body;
    const result = body && isJsonType(body.type) ? parse(body.text) : undefined;
    if (!body || !isJsonType(body.type)) {
      culprits.push("header:Content-Type");
      bodyError = NOT_JSON_TYPE;
    } else if (!result!.ok) {
      culprits.push("body:(root)");
      bodyError = { message: "Request body is not valid JSON", details: [{ in: "body", path: "(root)", message: "is not valid JSON" }] };
    } else if (result!.value === null || typeof result!.value !== "object" || Array.isArray(result!.value)) {
      culprits.push("body:(root)");
      bodyError = { message: "Request validation failed", details: [{ in: "body", path: "(root)", message: /^Invalid input: expected object, received / }] };
    } else {
      parsed = result!.value as Record<string, unknown>;
      for (const f of fields) {
        const present = Object.hasOwn(parsed, f.name);
        if (present ? !f.valid(parsed[f.name]) : f.required) culprits.push(`body:${f.name}`);
      }
      culprits.push(...(op.cross?.(parsed) ?? []));
    }
  }
  if (culprits.length > 0) {
    const only = culprits.length === 1 && bodyError ? { error: bodyError } : {};
    return { expectation: { ...invalid(...culprits), ...only } };
  }

  // A path parameter with a malformed escape names no record (or is refused as invalid).
  if (sent.ids.some((id) => id === undefined)) {
    return { expectation: is("VALIDATION_ERROR", ...(op.ids ?? []).map((k) => NOT_FOUND[k])) };
  }
  const ids = sent.ids as string[];
  const found = op.ids?.[0] === "customer" ? sim.shop.store.customer(ids[0]!) : undefined;
  const ctx: Ctx = { sim, ids, body: parsed, query, customer: found && structuredClone(found), codes: found ? sim.shop.store.codesOf(found.id).length : 0 };
  return { expectation: op.model(ctx), ctx };
}

const outcomeOf = (res: CallResult): Outcome => (res.status === 200 ? "OK" : res.body.error.code);

/** The answer is documented for the operation, in the envelope, and the one predicted. */
function checkAnswer(op: Op, res: CallResult, expectation: Expectation): void {
  const doc = documented.get(op.id)!;
  expect([...doc.statuses.keys()], `status ${res.status} is not documented for ${op.id}`).toContain(res.status);
  expect(res.status).toBeLessThan(500);
  if (res.status === 200) {
    expect(res.body).toMatchObject({ success: true, timestamp: NOW_ISO });
  } else {
    const { code, statusCode, details } = res.body.error as { code: ErrorCode; statusCode: number; details?: { in: string; path: string }[] };
    expect(res.body).toMatchObject({ success: false, timestamp: NOW_ISO });
    expect(statusCode).toBe(res.status);
    expect(ERROR_CATALOG[code]?.status, `${code} is not in the error catalog with status ${res.status}`).toBe(res.status);
    expect(doc.statuses.get(res.status), `${code} is not documented for ${op.id}`).toContain(code);
    if (code === "VALIDATION_ERROR") {
      expect(details ?? [], "a VALIDATION_ERROR names its fields").not.toHaveLength(0);
      if (expectation.culprits) {
        const named = details!.map((d) => `${d.in}:${d.path}`);
        expect(named.filter((n) => !expectation.culprits!.includes(n)), `named fields that were fine (culprits: ${expectation.culprits})`).toEqual([]);
      }
      if (expectation.error) {
        const { message, details: exact } = expectation.error;
        expect(res.body.error).toStrictEqual({
          message,
          code,
          statusCode,
          details: exact!.map((d) => ({ ...d, message: typeof d.message === "string" ? d.message : expect.stringMatching(d.message) })),
        });
      }
    } else {
      expect(details).toBeUndefined();
    }
  }
  expect(expectation.outcomes, `answered ${res.status} ${JSON.stringify(res.body.error ?? "")}`).toContain(outcomeOf(res));
}

/** Sends one generated request and checks everything about its answer and its effect. */
async function exercise(sim: TestSim, op: Op, req: Req): Promise<Outcome> {
  const sent = resolve(sim, op, req);
  const { expectation, ctx } = predict(sim, op, sent, req.body);
  const before = fingerprint(sim);
  const others = () => JSON.stringify(sim.shop.store.data.customers.filter((c) => c.id !== ctx?.customer?.id));
  const othersBefore = others();
  const headers: Record<string, string> = req.body?.type === undefined ? {} : { "Content-Type": req.body.type };
  sim.limiter.clear(); // a new hour for every request: the runs would spend the quota
  const res = await sim.call(op.method, sent.url, req.body ? { rawBody: req.body.text, headers } : {});
  checkAnswer(op, res, expectation);
  expect([res.headers.get("X-RateLimit-Limit"), res.headers.get("X-RateLimit-Remaining")]).toEqual(["1000", "999"]);
  if (res.status !== 200 || op.method === "GET") {
    const after = fingerprint(sim);
    if (after !== before) expect(JSON.parse(after), `a ${res.status} to ${op.method} changed the shop`).toStrictEqual(JSON.parse(before));
  } else {
    if (ctx && op.after) op.after(ctx, res);
    expect(others(), "a change to one customer touched others").toBe(othersBefore);
    settle(sim);
    expect(sim.shop.ledgerMismatches()).toEqual([]);
  }
  expect(sim.bugs).toEqual([]);
  return outcomeOf(res);
}

const assertOptions = (numRuns: number) => ({ seed: SEED, numRuns });

describe(`bad input on every operation (FC_SEED=${SEED})`, () => {
  it("the table covers exactly the API's operations, as the OpenAPI document declares them", () => {
    expect(ops.map((op) => op.id).sort()).toEqual([...documented.keys()].sort());
    for (const op of ops) expect({ method: op.method, path: op.path }).toEqual({ method: documented.get(op.id)!.method, path: documented.get(op.id)!.path });
  });

  it("the checks can fail: an undocumented status or code, a code of another status, an unexpected outcome or field", () => {
    const op = (id: string) => ops.find((o) => o.id === id)!;
    const answer = (code: ErrorCode, status: number = ERROR_CATALOG[code].status, details?: unknown[]): CallResult => ({
      status,
      headers: new Headers(),
      body: { success: false, error: { message: "x", code, statusCode: status, ...(details && { details }) }, timestamp: NOW_ISO },
    });
    expect(() => assertMatchesContract("GET", `${BASE}/shop`, 404, answer("CUSTOMER_NOT_FOUND").body)).toThrow(/does not declare/);
    expect(() => checkAnswer(op("getShop"), answer("CUSTOMER_NOT_FOUND"), is("OK"))).toThrow(/status 404 is not documented/);
    expect(() => checkAnswer(op("awardStamps"), answer("TIER_NOT_FOUND"), is("TIER_NOT_FOUND"))).toThrow(/not documented for awardStamps/);
    expect(() => checkAnswer(op("awardStamps"), answer("CUSTOMER_NOT_FOUND", 422), is("CUSTOMER_NOT_FOUND"))).toThrow(/error catalog/);
    expect(() => checkAnswer(op("adjustStamps"), answer("INSUFFICIENT_STAMPS"), is("ACTIVITY_NOT_AWARDED"))).toThrow(/answered 422/);
    const comment = answer("VALIDATION_ERROR", 422, [{ in: "body", path: "comment", message: "x" }]);
    expect(() => checkAnswer(op("awardStamps"), comment, invalid("body:stamps"))).toThrow(/named fields that were fine/);
    expect(() => checkAnswer(op("awardStamps"), answer("VALIDATION_ERROR"), invalid("body:stamps"))).toThrow(/names its fields/);
  });

  it.each(ops.map((op) => [op.id, op] as const))("%s: every generated request gets its documented answer", async (_, op) => {
    const sim = newSim();
    const program = JSON.stringify(sim.shop.store.data.program);
    const seen = new Set<Outcome>();
    await fc.assert(
      fc.asyncProperty(requestArb(op), async (req) => {
        seen.add(await exercise(sim, op, req));
      }),
      assertOptions(op.ids || op.query || op.body ? RUNS : Math.ceil(RUNS / 4)),
    );
    expect(sim.shop.ledgerMismatches()).toEqual([]);
    expect(JSON.stringify(sim.shop.store.data.program)).toBe(program);
    // Not a tautology: the runs reached both sides.
    if (op.ids || op.query || Array.isArray(op.body)) expect([...seen].length, `outcomes seen: ${[...seen]}`).toBeGreaterThan(1);
  });

  it("every operation, interleaved on one shop: state built by one request meets bad input in the next", async () => {
    const anyRequest = fc.oneof(...ops.map((op) => requestArb(op).map((req) => ({ op: op.id, req }))));
    await fc.assert(
      fc.asyncProperty(fc.array(anyRequest, { minLength: 5, maxLength: 30 }), async (steps) => {
        const sim = newSim();
        for (const { op, req } of steps) await exercise(sim, ops.find((o) => o.id === op)!, req);
        expect(sim.shop.ledgerMismatches()).toEqual([]);
      }),
      assertOptions(Math.ceil(RUNS / 6)),
    );
  });

  const withBody = ops.filter((op) => op.method !== "GET");
  it.each(withBody.map((op) => [op.id, op] as const))("%s: a body over 1 MiB is 413 PAYLOAD_TOO_LARGE, whatever it holds, and changes nothing", async (_, op) => {
    const sim = newSim();
    const oversized = fc.record({
      req: requestArb(op),
      over: fc.integer({ min: 1, max: 4096 }),
      pad: fc.constantFrom("x", "é", "😀", " "),
      shape: fc.constantFrom("comment", "raw"),
      type: fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES),
    });
    await fc.assert(
      fc.asyncProperty(oversized, async ({ req, over, pad, shape, type }) => {
        const filler = pad.repeat(Math.ceil((BODY_LIMIT + over) / Buffer.byteLength(pad)));
        const text = shape === "comment" ? objectText([["stamps", 1], ["comment", filler]]) : filler;
        const sent = resolve(sim, op, req);
        const before = fingerprint(sim);
        sim.limiter.clear();
        const res = await sim.call(op.method, sent.url, { rawBody: text, headers: { "Content-Type": type } });
        checkAnswer(op, res, {
          outcomes: ["PAYLOAD_TOO_LARGE"],
        });
        expect(res.body.error.message).toBe(`Request body is larger than ${BODY_LIMIT} bytes`);
        expect(fingerprint(sim)).toBe(before);
        expect(sim.bugs).toEqual([]);
      }),
      assertOptions(3),
    );
  });
});
