/**
 * graphql-js runs an operation the first time, graphql-jit's compiled function from the second
 * time for queries, graphql-js again where the two part (src/graphql/execute.ts). Clients must not
 * be able to tell: generated queries (every root field, real and unknown ids, wrong values,
 * partial selections, aliases, fragments, `@skip`/`@include`, `__typename`) give the same JSON
 * text, errors and their order included, on every run. Execution stays synchronous unless a field
 * waits. Replay a failure with `FC_SEED=<seed>`; `FC_RUNS` scales the runs.
 * @module
 */
import fc from "fast-check";
import { execute, getNamedType, GraphQLObjectType, parse, type ExecutionResult, type GraphQLField } from "graphql";
import { compileQuery, isCompiledQuery } from "graphql-jit";
import { describe, expect, it } from "vitest";
import { DocumentCache, executePrepared, JIT_OPTIONS, JSON_MEDIA, prepareOperation, schema, writeResult } from "../../src/graphql/index.js";
import { createTestSim } from "../support/sim.js";
import { call, documentOf } from "./generated-operations.js";
import { QUERY_FIELDS } from "../../src/contract/index.js";

const SEED = process.env.FC_SEED !== undefined ? Number(process.env.FC_SEED) : Math.floor(Math.random() * 2 ** 31);
const RUNS = Number(process.env.FC_RUNS ?? 150);

const sim = createTestSim({ customers: 12 });

/** How one object-typed field's selection is written: which leaves, and in what wrapping. */
interface Shape {
  /** Picks among the type's fields, by position (repeats allowed: a field selected twice). */
  picks: number[];
  typename: boolean;
  /** Plain, in an inline fragment, in a named fragment (spread), or under `@include`/`@skip` of a variable. */
  wrap: "plain" | "inline" | "named" | "include" | "skip";
}

const shape = fc.record({
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
  typename: fc.boolean(),
  wrap: fc.constantFrom<Shape["wrap"]>("plain", "plain", "inline", "named", "include", "skip"),
});

/** A selection of `field` in one of the shapes: leaves picked, nested objects selected whole or partly. */
function selectionWriter(shapes: Shape[], fragments: string[]) {
  let next = 0;
  const write = (field: GraphQLField<unknown, unknown>): string => {
    const named = getNamedType(field.type);
    if (!(named instanceof GraphQLObjectType)) return "";
    const s = shapes[next++ % shapes.length]!;
    const fields = Object.values(named.getFields());
    const picked = s.picks.map((p) => fields[p % fields.length]!);
    const inner = `${picked.map((f) => `${f.name} ${write(f)}`).join(" ")}${s.typename ? " __typename" : ""}`;
    switch (s.wrap) {
      case "plain":
        return `{ ${inner} }`;
      case "inline":
        return `{ ... on ${named.name} { ${inner} } }`;
      case "named": {
        const name = `F${fragments.length}`;
        fragments.push(`fragment ${name} on ${named.name} { ${inner} }`);
        return `{ ...${name} }`;
      }
      case "include":
      case "skip":
        return `{ ${fields[0]!.name} ... @${s.wrap}(if: $flag) { ${inner} } }`;
    }
  };
  return write;
}

const query = fc.record({
  calls: fc.array(call(QUERY_FIELDS), { minLength: 1, maxLength: 3 }),
  shapes: fc.array(shape, { minLength: 1, maxLength: 5 }),
  flag: fc.boolean(),
});

describe("graphql-jit and graphql-js answer alike", () => {
  it("a generated query gives the same JSON text from both, errors and their order included (property)", async () => {
    await fc.assert(
      fc.asyncProperty(query, async ({ calls, shapes, flag }) => {
        const fragments: string[] = [];
        const { query: text, variables } = documentOf({ type: "query", calls }, sim.shop, selectionWriter(shapes, fragments));
        // `$flag` is declared beside the generated variables when a selection uses it.
        const usesFlag = [text, ...fragments].some((t) => t.includes("$flag"));
        const withFlag = usesFlag ? text.replace(/^query( \((.*?)\))? \{/, (_, __, declared) => `query (${declared ? `${declared}, ` : ""}$flag: Boolean!) {`) : text;
        const document = parse([withFlag, ...fragments].join("\n"));
        const values = usesFlag ? { ...variables, flag } : variables;
        const prepared = prepareOperation(document, null, values);
        // Refused before execution (variables that do not coerce, lists too long): no executor runs.
        fc.pre(prepared.prepared !== undefined);
        // Stamps that expired by now leave when their customer is read: settle them first.
        for (const c of sim.shop.store.data.customers) sim.shop.getCustomer(c.id);
        const context = { shop: sim.shop };
        const byGraphqlJs = await execute({ schema, document, contextValue: context, variableValues: values });
        const compiled = compileQuery(schema, document, undefined, JIT_OPTIONS);
        if (!isCompiledQuery(compiled)) throw new Error(`graphql-jit did not compile ${withFlag}: ${JSON.stringify(compiled)}`);
        // As the client reads them: the body `writeResult` sends.
        const sent = (result: ExecutionResult) => writeResult(prepared.prepared!, JSON_MEDIA, result).body;
        // graphql-jit's own answer, where it is used: no field failed, no directive.
        const byJit = await compiled.query(undefined, context, values);
        if (byJit.errors === undefined && !usesFlag) expect(sent(byJit), withFlag).toBe(sent(byGraphqlJs));
        // What the simulator answers on the first, second and third run of the document.
        const cache = new DocumentCache();
        for (let run = 0; run < 3; run++) {
          const again = prepareOperation(document, null, values, cache).prepared!;
          expect(sent(await executePrepared(again, context)), withFlag).toBe(sent(byGraphqlJs));
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe("which executor runs an operation", () => {
  const customer = () => sim.shop.store.data.customers[0]!.id;

  it("a query runs on graphql-js once, then as its compiled function; the answer is the same", async () => {
    const cache = new DocumentCache();
    const text = `query ($id: ID!) { customer(id: $id) { id stampBalance } }`;
    const document = cache.compile(text).document!;
    const runs = [];
    for (let i = 0; i < 3; i++) {
      const { prepared } = prepareOperation(document, null, { id: customer() }, cache);
      runs.push({ result: JSON.stringify(await executePrepared(prepared!, { shop: sim.shop })), compiled: prepared!.plan.compiled });
    }
    expect(runs.map((r) => r.compiled === undefined)).toStrictEqual([true, false, false]);
    expect(runs[1]!.compiled).not.toBeNull();
    expect(new Set(runs.map((r) => r.result)).size).toBe(1);
  });

  it("a mutation always runs on graphql-js: after a failed non-null mutation the next ones do not run", async () => {
    const cache = new DocumentCache();
    const document = cache.compile(`mutation ($id: ID!) { a: awardStamps(customerId: "0", stamps: 1) { stampBalance } b: awardStamps(customerId: $id, stamps: 1) { stampBalance } }`).document!;
    for (let i = 0; i < 3; i++) {
      const before = sim.shop.getCustomer(customer()).value.stampBalance;
      const { prepared } = prepareOperation(document, null, { id: customer() }, cache);
      const result = await executePrepared(prepared!, { shop: sim.shop });
      expect(result.data).toBeNull();
      expect(prepared!.plan.compiled).toBeNull();
      expect(prepared!.plan.runs).toBe(0);
      expect(sim.shop.getCustomer(customer()).value.stampBalance).toBe(before);
    }
  });

  it("answers are synchronous unless a field waits", async () => {
    const cache = new DocumentCache();
    const { prepared } = prepareOperation(cache.compile("{ shop { currency } }").document!, null, null, cache);
    const now = executePrepared(prepared!, { shop: sim.shop });
    expect(now).not.toBeInstanceOf(Promise);
    const waits: number[] = [];
    const wait = (ms: number) => (waits.push(ms), Promise.resolve());
    const later = executePrepared(prepared!, { shop: sim.shop, forced: new Map([["shop", { delayMs: 250 }]]), wait });
    expect(later).toBeInstanceOf(Promise);
    expect(JSON.parse(writeResult(prepared!, JSON_MEDIA, await later).body)).toStrictEqual({ data: { shop: { currency: "USD" } } });
    expect(waits).toEqual([250]);
  });

  it("an operation without variables is prepared once; one with variables, for each request", () => {
    const cache = new DocumentCache();
    const plain = cache.compile(`{ shop { currency } }`).document!;
    // Variables sent with it are unused, and not kept with it either.
    const kept = prepareOperation(plain, null, { unused: "x".repeat(1000) }, cache).prepared!;
    expect(prepareOperation(plain, null, null, cache).prepared).toBe(kept);
    expect(kept.variables).toStrictEqual({});
    const withVariables = cache.compile(`query ($id: ID!) { customer(id: $id) { id } }`).document!;
    const first = prepareOperation(withVariables, null, { id: "1" }, cache).prepared!;
    const second = prepareOperation(withVariables, null, { id: "2" }, cache).prepared!;
    expect([first.rootFields[0]!.args, second.rootFields[0]!.args]).toStrictEqual([{ id: "1" }, { id: "2" }]);
    expect(second.plan).toBe(first.plan);
  });
});
