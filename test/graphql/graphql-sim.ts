/**
 * GraphQL as users send it: `POST /graphql` through the app that `createTestSim` builds (the
 * gateway, the route, the journal), beside REST's `call` on the same simulator, so a test can
 * compare the two APIs on one shop. `gql` also gives what the journal recorded of the operation.
 * @module
 */
import { expect } from "vitest";
import type { JournalEntry } from "../../src/http/journal/record.js";
import type { TestSimOptions } from "../support/sim.js";
import { graphqlOverHttp } from "./http-sim.js";

export interface GqlInit {
  accept?: string;
  contentType?: string;
  operationName?: string | null;
  /** The body as sent, instead of `{ query, variables, operationName }`. */
  rawBody?: string;
  method?: string;
  /** Another shop's credentials than the default one's. */
  auth?: Record<string, string>;
  /** More headers (a `Prefer`, ...). */
  headers?: Record<string, string>;
}

export interface GqlResult {
  status: number;
  headers: Headers;
  // Tests read into bodies freely.
  body: any;
  /** The operation the journal recorded for this request: null when none ran, or when the request was not journaled (a GET). */
  graphql: JournalEntry["graphql"];
}

export function graphqlSim(options: TestSimOptions = {}) {
  const sim = graphqlOverHttp(options);
  /** The journal's newest entry id as last seen: each look reads only the entries since. */
  let seen = 0;
  const newestId = () => (seen = sim.journal.list({ after: seen, limit: 1 })[0]?.id ?? seen);

  async function gql(query: string, variables?: Record<string, unknown> | null, init: GqlInit = {}): Promise<GqlResult> {
    const before = newestId();
    const headers = { ...(init.contentType !== undefined && { "Content-Type": init.contentType }), ...(init.accept !== undefined && { Accept: init.accept }), ...init.headers };
    const res = await sim.post(query, variables, {
      headers,
      ...(init.auth && { auth: init.auth }),
      ...(init.operationName !== undefined && { operationName: init.operationName }),
      ...(init.rawBody !== undefined && { rawBody: init.rawBody }),
      ...(init.method !== undefined && { method: init.method }),
    });
    const entry = sim.journal.list({ after: before, limit: 1 })[0];
    return { ...res, graphql: entry?.graphql ?? null };
  }

  /** The REST view of one customer (the `data` of GET /customers/{id}). */
  const restCustomer = async (id: string) => (await sim.call("GET", `/customers/${id}`)).body.data;

  /** A seeded customer that is merged, and one that is removed. */
  const records = sim.shop.store.data.customers;
  const mergedCustomer = () => records.find((c) => c.mergedIntoCustomerId !== undefined)!.id;
  const removedCustomer = () => records.find((c) => c.excluded && c.mergedIntoCustomerId === undefined)!.id;

  return { ...sim, gql, restCustomer, mergedCustomer, removedCustomer };
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
