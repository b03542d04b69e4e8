/**
 * What runs around every route (see mount.ts): the gates app.ts lists, in that order, the journal
 * of API requests, and the headers every response carries. Gates are plain functions, not hono
 * middleware: a request nothing makes wait is answered without a promise.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import type { Arrival, RequestRecorder } from "./journal/recorder.js";
import type { MaybePromise } from "./maybe-promise.js";
import type { MountedRoute } from "./operation.js";
import { applyHeaders } from "./respond.js";

type C = Context<AppEnv>;

/** Answers the request, or lets it through (undefined). */
export type Gate = (c: C) => MaybePromise<Response | undefined>;

/** What answers once the gates let a request through: the route's input checks and handler. */
export type Inner = (c: C) => MaybePromise<Response>;

/** Runs the gateway around a route's inner answer (or the not-found answer, with no route). */
export type Wrap = (c: C, inner: Inner, route?: MountedRoute) => MaybePromise<Response>;

export interface GatewayOptions {
  /** Gates of every request, API or not, first. */
  everyRequest: Gate[];
  /** Gates of API requests, which are journaled. */
  api: Gate[];
  /** Gates of GraphQL requests (journaled too), whose route reads its own body and applies scenarios per root field. */
  graphql?: Gate[];
  /** Gates of every other request (control, docs). */
  other: Gate[];
  recorder: Pick<RequestRecorder, "begin" | "finish">;
  /** Answers an error a gate or a handler throws (on `route`, when a route matched). */
  onError: (error: unknown, c: C, route?: MountedRoute) => Response;
}

/** The first answer of `gates` from `i`, if any; a promise only once a gate returns one. */
function firstAnswer(c: C, gates: readonly Gate[], i = 0): MaybePromise<Response | undefined> {
  for (; i < gates.length; i++) {
    const answer = gates[i]!(c);
    if (answer instanceof Promise) return answer.then((res) => res ?? firstAnswer(c, gates, i + 1));
    if (answer) return answer;
  }
  return undefined;
}

export function createGateway(options: GatewayOptions): { api: Wrap; graphql: Wrap; other: Wrap } {
  const { everyRequest, recorder, onError } = options;
  const other = [...everyRequest, ...options.other];

  /** `gates` then `inner`, a thrown error or a rejection answered by `onError`. */
  const answer = (c: C, gates: readonly Gate[], inner: Inner, route: MountedRoute | undefined): MaybePromise<Response> => {
    let res: MaybePromise<Response>;
    try {
      const early = firstAnswer(c, gates);
      res = early === undefined ? inner(c) : early instanceof Promise ? early.then((found) => found ?? inner(c)) : early;
    } catch (error) {
      return onError(error, c, route);
    }
    return res instanceof Promise ? res.catch((error: unknown) => onError(error, c, route)) : res;
  };
  /** The response, with the headers gathered on the way (request id, CORS, quota) on it. */
  const send = (c: C, res: Response): Response => {
    // Hono's `c.res = ` copies a response it replaces into a new one: it is set once only.
    c.res = res;
    applyHeaders(c);
    return c.res;
  };
  /** The answer, or the one a gate asked to send instead once the handler's was made (`replaceAnswer`). */
  const replaced = (c: C, res: Response, route: MountedRoute | undefined): MaybePromise<Response> => {
    const replace = c.get("replaceAnswer");
    return replace === undefined ? res : answer(c, [], () => replace(res), route);
  };
  const journaled = (c: C, res: Response, arrival: Arrival): MaybePromise<Response> => {
    send(c, res);
    const recorded = recorder.finish(c, arrival);
    return recorded instanceof Promise ? recorded.then(() => c.res) : c.res;
  };
  /** After the every-request gates: the API's `gates` and the route, journaled. */
  const apiInner = (c: C, gates: readonly Gate[], inner: Inner, route: MountedRoute | undefined): MaybePromise<Response> => {
    const arrival = recorder.begin(c, route);
    const answered = answer(c, gates, inner, route);
    const res = answered instanceof Promise ? answered.then((r) => replaced(c, r, route)) : replaced(c, answered, route);
    return res instanceof Promise ? res.then((r) => journaled(c, r, arrival)) : journaled(c, res, arrival);
  };

  /** An API request's wrap: the every-request gates, then `gates` and the route, journaled. */
  const journaledWrap = (gates: readonly Gate[]): Wrap => (c, inner, route) => {
    // A CORS preflight is answered by an every-request gate, before (and without) the API's.
    let early: MaybePromise<Response | undefined>;
    try {
      early = firstAnswer(c, everyRequest);
    } catch (error) {
      early = onError(error, c);
    }
    if (early instanceof Promise) {
      return early.then(
        (res) => (res ? send(c, res) : apiInner(c, gates, inner, route)),
        (error: unknown) => send(c, onError(error, c)),
      );
    }
    return early ? send(c, early) : apiInner(c, gates, inner, route);
  };

  return {
    api: journaledWrap(options.api),
    graphql: journaledWrap(options.graphql ?? []),
    other: (c, inner, route) => {
      const res = answer(c, other, inner, route);
      return res instanceof Promise ? res.then((r) => send(c, r)) : send(c, res);
    },
  };
}
