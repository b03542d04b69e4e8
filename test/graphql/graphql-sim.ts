/**
 * The GraphQL API in process, beside the REST app of `createTestSim` over the same engine: `gql`
 * runs a request through the transport-agnostic GraphQL steps on a shop, `call` is REST's, so a
 * test can compare the two APIs on one shop.
 * @module
 */
import { expect } from "vitest";
import { DocumentCache, handleGraphQLRequest, type FieldDecision, type GraphQLHttpResponse } from "../../src/graphql/index.js";
import type { ShopEngine } from "../../src/engine/shop-engine.js";
import { createTestSim, type TestSimOptions } from "../support/sim.js";

export interface GqlInit {
  accept?: string;
  contentType?: string;
  operationName?: string | null;
  /** The body as sent, instead of `{ query, variables, operationName }`. */
  rawBody?: string;
  method?: string;
  /** Another shop than the default one. */
  shop?: ShopEngine;
  forced?: ReadonlyMap<string, FieldDecision>;
}

export interface GqlResult {
  status: number;
  headers: Record<string, string>;
  // Tests read into bodies freely.
  body: any;
  graphql: GraphQLHttpResponse["graphql"];
}

export function graphqlSim(options: TestSimOptions = {}) {
  const sim = createTestSim(options);
  const cache = new DocumentCache();

  async function gql(query: string, variables?: Record<string, unknown> | null, init: GqlInit = {}): Promise<GqlResult> {
    const bodyText = init.rawBody ?? JSON.stringify({ query, ...(variables !== undefined && { variables }), ...(init.operationName !== undefined && { operationName: init.operationName }) });
    const context = { shop: init.shop ?? sim.shop, onBug: (e: unknown) => sim.bugs.push(e), ...(init.forced && { forced: init.forced }) };
    const request = { method: init.method ?? "POST", contentType: init.contentType ?? "application/json", accept: init.accept, bodyText };
    const res = await handleGraphQLRequest(request, context, cache);
    if (sim.bugs.length > 0) throw new Error(`a resolver failed: ${String(sim.bugs[0])}`);
    return { status: res.status, headers: res.headers, body: JSON.parse(res.body), graphql: res.graphql };
  }

  /** The REST view of one customer (the `data` of GET /customers/{id}). */
  const restCustomer = async (id: string) => (await sim.call("GET", `/customers/${id}`)).body.data;

  /** A seeded customer that is merged, and one that is removed. */
  const records = sim.shop.store.data.customers;
  const mergedCustomer = () => records.find((c) => c.mergedIntoCustomerId !== undefined)!.id;
  const removedCustomer = () => records.find((c) => c.excluded && c.mergedIntoCustomerId === undefined)!.id;

  return { ...sim, gql, cache, restCustomer, mergedCustomer, removedCustomer };
}

export type GraphqlSim = ReturnType<typeof graphqlSim>;

/** The errors of a result, as the acceptance checks compare them: message and path only. */
export function errorsOf(res: GqlResult): { message: string; path?: (string | number)[] }[] {
  return (res.body.errors ?? []).map((e: { message: string; path?: (string | number)[] }) => ({ message: e.message, ...(e.path && { path: e.path }) }));
}

/** A field error's exact shape: data as given, one error with this code at this path. */
export function expectFieldError(res: GqlResult, data: unknown, code: string, path: (string | number)[]): void {
  expect(res.status).toBe(200);
  expect(res.body.data).toStrictEqual(data);
  expect(errorsOf(res)).toStrictEqual([{ message: code, path }]);
}

/** A request error: no `data` key, the messages given. */
export function expectRequestError(res: GqlResult, status: number, messages: string[]): void {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body)).toEqual(["errors"]);
  expect(res.body.errors.map((e: { message: string }) => e.message)).toStrictEqual(messages);
  expect(res.graphql).toBeNull();
}

/** base64 of `{"id":<id>}`, GraphQL's cursor form. */
export const graphqlCursor = (id: string) => Buffer.from(`{"id":${id}}`).toString("base64");
