/**
 * The way every request takes: the gateway makes its record (exchange.ts), runs its steps in order
 * (the gates app.ts lists, then the route's input checks and its handler) until one answers, sends
 * that answer with the headers gathered on the way, and journals the API's requests. Steps are
 * plain functions, not hono middleware: a request nothing makes wait is answered without a promise.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "./env.js";
import { Exchange, type ErrorWriter } from "./exchange.js";
import { writeEnvelope } from "./errors.js";
import { answerInstead } from "./forced.js";
import type { RequestRecorder } from "./journal/recorder.js";
import type { MountedRoute } from "./operation.js";
import { withGatheredHeaders } from "./respond.js";

/**
 * One step of a request's way: it answers (a Response), lets the request through to the next
 * (undefined), or waits first (an async step: reading the body, a delay) and then does either.
 * A route's handler is its last step, which always answers.
 */
export type Step = (exchange: Exchange) => Response | undefined | Promise<Response | undefined>;

/** What hono runs for a route: its one handler. */
export type RouteHandler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** A side of the gateway (the API, GraphQL, the rest): its gates in front of each route's own steps. */
export interface Side {
  /** The hono handler of a route (`undefined`: the answer to a path no route has), whose own steps follow the side's gates. */
  handler(route: MountedRoute | undefined, steps: readonly Step[]): RouteHandler;
}

export interface GatewayOptions {
  /** Gates of every request, API or not, first. */
  everyRequest: Step[];
  /** Gates of API requests, which are journaled. */
  api: Step[];
  /** GraphQL requests (journaled too): their gates, and how their refusals are written. */
  graphql: { gates: Step[]; writeError: ErrorWriter };
  /** Gates of every other request (control, docs). */
  other: Step[];
  recorder: Pick<RequestRecorder, "begin" | "waits" | "finish" | "finishLater">;
  /** Answers an error a step throws. */
  onError: (error: unknown, exchange: Exchange) => Response;
}

export function createGateway(options: GatewayOptions): { api: Side; graphql: Side; other: Side } {
  const { everyRequest, recorder, onError } = options;
  // After the every-request gates: a CORS preflight they answer is not journaled.
  const journaled: Step = (exchange) => void recorder.begin(exchange);

  /**
   * Runs `steps` from `i` until one answers, then sends that answer. This is the one place that
   * tells a step's answer from a promise of one: while no step waits, the request is answered
   * without a promise, which the Node adapter writes out at once; from the first step that waits,
   * the rest run once it is done.
   */
  function run(exchange: Exchange, steps: readonly Step[], i: number): Response | Promise<Response> {
    for (; i < steps.length; i++) {
      let answer: ReturnType<Step>;
      try {
        answer = steps[i]!(exchange);
      } catch (error) {
        return send(exchange, onError(error, exchange));
      }
      if (answer instanceof Promise) {
        const next = i + 1;
        return answer.then(
          (res) => (res === undefined ? run(exchange, steps, next) : send(exchange, res)),
          (error: unknown) => send(exchange, onError(error, exchange)),
        );
      }
      if (answer !== undefined) return send(exchange, answer);
    }
    return send(exchange, onError(new Error(`${exchange.c.req.method} ${exchange.c.req.path}: no step answered`), exchange));
  }

  /** The answer (or the one to give instead, once the handler has answered: `exchange.instead`), with the gathered headers, journaled. */
  function send(exchange: Exchange, res: Response): Response | Promise<Response> {
    if (exchange.instead !== undefined) {
      return answerInstead(exchange, res).then(
        (instead) => send(exchange, instead),
        (error: unknown) => send(exchange, onError(error, exchange)),
      );
    }
    withGatheredHeaders(exchange, res);
    if (exchange.arrival === undefined) return res;
    if (!recorder.waits(exchange, res)) {
      recorder.finish(exchange, res);
      return res;
    }
    return recorder.finishLater(exchange, res).then(() => res);
  }

  const side = (gates: readonly Step[], writeError: ErrorWriter): Side => ({
    handler: (route, own) => {
      const steps = [...everyRequest, ...gates, ...own];
      return (c) => run(new Exchange(c, route, writeError), steps, 0);
    },
  });
  return {
    api: side([journaled, ...options.api], writeEnvelope),
    graphql: side([journaled, ...options.graphql.gates], options.graphql.writeError),
    other: side(options.other, writeEnvelope),
  };
}
