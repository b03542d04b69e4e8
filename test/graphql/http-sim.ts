/**
 * GraphQL over the simulator's real route: `POST /graphql` through the app (the gateway, the
 * journal), beside REST's `call` on the same simulator.
 * @module
 */
import { AUTH, createTestSim, type TestSimOptions } from "../support/sim.js";

export interface PostInit {
  headers?: Record<string, string>;
  /** Send no credentials (default: the default shop's). */
  auth?: false | Record<string, string>;
  operationName?: string | null;
  /** The body as sent, instead of `{ query, variables, operationName }`. */
  rawBody?: string;
  /** POST unless given; a GET or HEAD is sent without a body. */
  method?: string;
}

export interface HttpResult {
  status: number;
  headers: Headers;
  // Tests read into bodies freely.
  body: any;
}

export function graphqlOverHttp(options: TestSimOptions = {}) {
  const sim = createTestSim(options);

  async function post(query: string, variables?: Record<string, unknown> | null, init: PostInit = {}): Promise<HttpResult> {
    const auth = init.auth === false ? {} : (init.auth ?? AUTH);
    const headers = { "Content-Type": "application/json", ...auth, ...init.headers };
    const method = init.method ?? "POST";
    const body = init.rawBody ?? JSON.stringify({ query, ...(variables !== undefined && { variables }), ...(init.operationName !== undefined && { operationName: init.operationName }) });
    const res = await sim.app.request("/graphql", { method, headers, ...(method !== "GET" && method !== "HEAD" && { body }) });
    const text = await res.text();
    const parsed = text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    // Other 5xx are forced (a scenario's status, a Prefer header); a bug is a 500 or a resolver's INTERNAL_ERROR.
    if (res.status === 500 || sim.bugs.length > 0) throw new Error(`POST /graphql -> ${res.status}: ${text} ${String(sim.bugs[0])}`);
    return { status: res.status, headers: res.headers, body: parsed };
  }

  /** A customer's balance and ledger as REST reads them. */
  const balance = async (id: string) => (await sim.call("GET", `/customers/${id}`)).body.data.stampBalance as number;

  return { ...sim, post, balance };
}

/** The `X-RateLimit-*` headers of an answer (null when absent). */
export const quotaOf = (res: { headers: Headers }) => [res.headers.get("x-ratelimit-limit"), res.headers.get("x-ratelimit-remaining")];
