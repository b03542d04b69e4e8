/** @module A request verify sends, and the exchange the checks read: the request with its answer. */

/** What verify asks of the target: a path below its origin, with the query already in it. */
export interface VerifyRequest {
  method: "GET" | "POST" | "PATCH";
  /** E.g. `/rest_api/v1/customers?limit=2`. */
  path: string;
  /** A JSON body. */
  body?: unknown;
  /** Sent with a secret that cannot be the shop's, to see the 401. */
  wrongSecret?: boolean;
}

/** A request and its answer, as the checks read it. */
export interface Exchange {
  /** `METHOD /path?query`: how reports name the request. */
  request: string;
  method: VerifyRequest["method"];
  path: string;
  wrongSecret: boolean;
  /** How many times it was sent, when more than once (each 429 before it was waited out and sent again). */
  tries?: number;
  status: number;
  /** The headers the checks read, by lower-case name (absent ones left out). */
  headers: Record<string, string>;
  /** The parsed JSON, or the text when the answer is not JSON. */
  body: unknown;
}
