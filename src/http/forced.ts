/**
 * Answers that something other than the handler decided (`ForcedAnswer`, exchange.ts): a
 * documented error, a raw response, or a fault, which answers as its kind says (faults.ts). Sent at
 * once, or, when a request's record holds one as `instead`, in place of the handler's answer once
 * the handler has answered and committed (the gateway sends it then).
 * @module
 */
import type { StatusCode } from "hono/utils/http-status";
import { sendError } from "./errors.js";
import type { Exchange, ForcedAnswer } from "./exchange.js";
import { endConnection, FAULT_HEADER, faultResponse, type Fault } from "./faults.js";
import { clientSignal } from "./request-input.js";
import { sendJson, takeSentJson } from "./respond.js";

export async function sendForced(exchange: Exchange, forced: ForcedAnswer): Promise<Response> {
  if ("fault" in forced) return sendFault(exchange, forced.fault);
  if ("error" in forced) {
    if (forced.headers) Object.assign(exchange.headers, forced.headers);
    return sendError(exchange, forced.error);
  }
  const status = forced.status as StatusCode;
  if (forced.body === undefined) return exchange.c.body(null, status, { ...forced.headers });
  return sendJson(exchange, forced.body, status, { ...forced.headers });
}

/** Answers as the fault's kind says (faults.ts): its response, or the connection ended without one. */
async function sendFault(exchange: Exchange, kind: Fault): Promise<Response> {
  const { c } = exchange;
  exchange.fault = kind;
  const response = faultResponse(kind);
  if (response) return c.body(response.body, response.status, { "Content-Type": response.type });
  await endConnection(kind, c.env?.incoming?.socket, clientSignal(exchange));
  return c.body(null, 599 as StatusCode, { [FAULT_HEADER]: kind });
}

/**
 * `exchange.instead` in place of `handlers`, the handler's answer, which is kept for the journal
 * whatever it was (an error committed nothing).
 */
export async function answerInstead(exchange: Exchange, handlers: Response): Promise<Response> {
  const forced = exchange.instead!;
  exchange.instead = undefined;
  const written = takeSentJson(exchange);
  const type = written !== undefined ? "application/json" : handlers.headers.get("Content-Type");
  exchange.committed = { status: handlers.status, text: written ?? (await handlers.text()), type };
  // The client gets the rule's answer, not the handler's refusal (if it was one).
  exchange.errorCode = undefined;
  return sendForced(exchange, forced);
}
