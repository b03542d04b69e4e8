/**
 * What a client sees when the simulator breaks the connection instead of answering, as undici's
 * `fetch` and `node:http` raise it: one mapping for the in-process `fetch` and for interception.
 * @module
 */
import { constants } from "node:os";
import { FAULT_HEADER } from "../scenarios/gate.js";

/** A fault that leaves the client without a response (`malformed_json` is a 200, not one of these). */
export type ConnectionFault = "connection_reset" | "empty_response" | "timeout";

/** `fetch` wraps the socket's error in `TypeError("fetch failed")`; `node:http` (and axios) raise it as it is. */
export type ClientKind = "fetch" | "http";

/** The fault an in-process response stands for (the app marks it, having no socket to break). */
export function faultOf(response: Response): ConnectionFault | undefined {
  return (response.headers.get(FAULT_HEADER) ?? undefined) as ConnectionFault | undefined;
}

/** The error of a reset connection, or of one closed before a byte of the answer. */
export function connectionError(fault: "connection_reset" | "empty_response", client: ClientKind): Error {
  const socketError =
    fault === "connection_reset"
      ? Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", errno: -constants.errno.ECONNRESET, syscall: "read" })
      : client === "http"
        ? Object.assign(new Error("socket hang up"), { code: "ECONNRESET" })
        : Object.assign(new Error("other side closed"), { name: "SocketError", code: "UND_ERR_SOCKET" });
  return client === "fetch" ? new TypeError("fetch failed", { cause: socketError }) : socketError;
}
