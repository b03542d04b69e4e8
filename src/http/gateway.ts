/**
 * The one middleware in front of every request. Hono runs each middleware as an async layer of
 * its own (a closure, a promise and a dispatch each: six empty layers measured at about a third
 * of hono's throughput), so what production checks before an API handler is written as plain
 * functions, gates, run here in order: each either answers the request or lets it through, and
 * stays synchronous unless it has to wait (for a body, a delay).
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.js";
import type { RequestRecorder } from "./recording.js";
import { applyHeaders } from "./respond.js";

/** Answers the request, or lets it through (undefined). */
export type Gate = (c: Context<AppEnv>) => Response | undefined | Promise<Response | undefined>;

/** The first answer of `gates`, in order; a promise only once a gate returns one. */
export function runGates(c: Context<AppEnv>, gates: readonly Gate[], from = 0): Response | undefined | Promise<Response | undefined> {
  for (let i = from; i < gates.length; i++) {
    const answer = gates[i]!(c);
    if (answer instanceof Promise) return answer.then((res) => res ?? runGates(c, gates, i + 1));
    if (answer) return answer;
  }
  return undefined;
}

export interface GatewayOptions {
  /** Gates of every request, API or not (request ids, CORS). */
  everyRequest: Gate[];
  /** Requests at or below this path are API requests: journaled, and checked by `apiGates`. */
  apiBase: string;
  recorder: Pick<RequestRecorder, "begin" | "finish">;
  apiGates: Gate[];
  /** Answers an error a gate throws, as the app's error handler does for handlers. */
  onError: (error: unknown, c: Context<AppEnv>) => Response | Promise<Response>;
}

export function gateway(options: GatewayOptions): MiddlewareHandler<AppEnv> {
  const { everyRequest, apiBase, recorder, apiGates, onError } = options;
  const isApi = (path: string) => path.startsWith(apiBase) && (path.length === apiBase.length || path[apiBase.length] === "/");
  return async (c, next) => {
    let answer = runGates(c, everyRequest);
    if (answer instanceof Promise) answer = await answer;
    if (answer) c.res = answer;
    else if (!isApi(c.req.path)) await next();
    else {
      const arrival = recorder.begin(c);
      try {
        answer = runGates(c, apiGates);
        if (answer instanceof Promise) answer = await answer;
      } catch (error) {
        answer = await onError(error, c);
      }
      // A handler's own errors never reach here: hono answers them with the app's error handler.
      if (answer) c.res = answer;
      else await next();
      const recorded = recorder.finish(c, arrival);
      if (recorded) await recorded;
    }
    applyHeaders(c);
  };
}
