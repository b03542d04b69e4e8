/**
 * The fault kinds a scenario can answer with, in one table: what the server does with the request
 * and its socket, whether the client gets an HTTP response, and what each client raises. Every
 * place that handles faults reads it: the scenario schema's enum, the scenario gate
 * (`faultResponse`, `endConnection`), the journal's recorder (`faultResponse`), and the in-process
 * `fetch` and interception, which have no socket to break: the gate answers them a 599 marked with
 * `FAULT_HEADER`, and they raise what the row says a client meets (`faultOf`, `faultHolds`,
 * `connectionError`). test/scenarios/fault-kinds.test.ts holds each row to what real clients meet
 * on a real socket, in process and intercepted.
 * @module
 */
import type { Socket } from "node:net";
import { constants } from "node:os";

/** The clients whose errors the simulator reproduces: `fetch` (undici) and `node:http` (so axios, got...). */
export type ClientKind = "fetch" | "http";

/** A socket error as a client raises it (what a test of the client matches on). */
interface SocketErrorShape {
  name: string;
  message: string;
  code: string;
  syscall?: string;
  errno?: number;
}

/** How a connection ends before a byte of the answer, and what each client raises then. */
interface ConnectionEnd {
  /** What the server does to the socket. */
  end(socket: Socket): void;
  /** The socket error: `node:http` raises it as it is, `fetch` as the `cause` of `TypeError("fetch failed")`. */
  raises: Record<ClientKind, SocketErrorShape>;
}

const RESET_ERROR = { name: "Error", message: "read ECONNRESET", code: "ECONNRESET", syscall: "read", errno: -constants.errno.ECONNRESET };

export const CONNECTION_ENDS = {
  /** A TCP RST: both clients read ECONNRESET. */
  reset: { end: (socket) => socket.resetAndDestroy(), raises: { fetch: RESET_ERROR, http: RESET_ERROR } },
  /** A close with no byte sent (FIN). */
  close: {
    end: (socket) => socket.destroy(),
    raises: {
      fetch: { name: "SocketError", message: "other side closed", code: "UND_ERR_SOCKET" },
      http: { name: "Error", message: "socket hang up", code: "ECONNRESET" },
    },
  },
} as const satisfies Record<string, ConnectionEnd>;

/** A fault that is an HTTP response: the client gets it, and fails only on reading its body. */
interface FaultResponse {
  status: 200;
  type: string;
  body: string;
}

/**
 * One kind: `holds` answers nothing until the client gives up (it then meets its own error: its
 * signal's reason, its timeout) or the server shuts down; then either the connection ends as
 * `connection` says (no response: the journal's status is null) or the client gets `response`.
 */
type FaultKind = { holds: boolean } & (
  | { connection: keyof typeof CONNECTION_ENDS; response?: undefined }
  | { response: FaultResponse; connection?: undefined }
);

/** The table, in the order the scenario schema lists the kinds (its JSON Schema's enum). */
export const FAULT_KINDS = {
  /** The connection is reset before any response. */
  connection_reset: { holds: false, connection: "reset" },
  /** The connection closes without a byte of the response. */
  empty_response: { holds: false, connection: "close" },
  /** A 200 whose JSON body is cut off mid-way (half a customer): `res.json()` throws SyntaxError. */
  malformed_json: {
    holds: false,
    response: { status: 200, type: "application/json", body: '{"success":true,"data":{"id":"6677889900","firstName":"Ali' },
  },
  /** No answer until the client gives up; then the server closes the connection. */
  timeout: { holds: true, connection: "close" },
} as const satisfies Record<string, FaultKind>;

export type Fault = keyof typeof FAULT_KINDS;
export const FAULTS = Object.keys(FAULT_KINDS) as [Fault, ...Fault[]];

/** The kinds that leave the client without a response. */
export type ConnectionFault = { [K in Fault]: (typeof FAULT_KINDS)[K] extends { connection: string } ? K : never }[Fault];

/** The response a fault answers with; undefined when the client gets none (the journal's status is null then). */
export function faultResponse(kind: Fault): FaultResponse | undefined {
  const row: FaultKind = FAULT_KINDS[kind];
  return row.response;
}

/** Whether a fault holds the request until the client gives up. */
export function faultHolds(kind: Fault): boolean {
  return FAULT_KINDS[kind].holds;
}

/**
 * For a fault with no response: holds the request until `clientGone` aborts when its kind holds,
 * then ends the socket as its kind says (in process there is none: see `FAULT_HEADER`).
 */
export async function endConnection(kind: Fault, socket: Socket | undefined, clientGone: AbortSignal): Promise<void> {
  const row: FaultKind = FAULT_KINDS[kind];
  if (row.holds) {
    // Never answer: hold the request until the client (or the server's shutdown) gives up.
    await new Promise<void>((resolve) => (clientGone.aborted ? resolve() : clientGone.addEventListener("abort", () => resolve(), { once: true })));
  }
  if (socket && row.connection) CONNECTION_ENDS[row.connection].end(socket);
}

/** Marks a fault with no response on an in-process answer (a 599, having no socket to break); see `faultOf`. */
export const FAULT_HEADER = "x-loyalty-sim-fault";

/** The fault an in-process response stands for (the scenario gate marks it, having no socket to break). */
export function faultOf(response: Response): ConnectionFault | undefined {
  return (response.headers.get(FAULT_HEADER) ?? undefined) as ConnectionFault | undefined;
}

/** The error `client` raises when the connection ends as `kind` ends it (`fetch` wraps it in `TypeError("fetch failed")`). */
export function connectionError(kind: ConnectionFault, client: ClientKind): Error {
  const { name, message, ...fields } = CONNECTION_ENDS[FAULT_KINDS[kind].connection].raises[client];
  const socketError = Object.assign(new Error(message), fields);
  if (name !== "Error") socketError.name = name;
  return client === "fetch" ? new TypeError("fetch failed", { cause: socketError }) : socketError;
}
