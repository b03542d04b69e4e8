/**
 * The outcome catalogue: for each operation of the contract, the outcomes production documents
 * for it (its cells), and the one rule that names the outcome of an answer, which the counters
 * (from a request's record) and the inspector (from a journal entry) both apply.
 * @module
 */
import { OPERATION_IDS, OPERATIONS, type OperationId } from "../contract/index.js";
import type { Operation } from "../contract/operation.js";
import { ERROR_CODES, type ErrorCode } from "../engine/errors.js";
import { FAULTS, type Fault } from "../http/faults.js";

/** `ok`, an error code, `fault:<kind>`, or `lostAfterCommit` (a write's answer replaced after it committed). */
export type Outcome = "ok" | ErrorCode | `fault:${Fault}` | "lostAfterCommit";

const FAULT_OUTCOMES = FAULTS.map((kind) => `fault:${kind}` as const);

/** Every outcome any operation can meet, in a fixed order: the counters' columns. */
export const OUTCOMES: readonly Outcome[] = ["ok", ...ERROR_CODES, ...FAULT_OUTCOMES, "lostAfterCommit"];

/** An outcome's column in `OUTCOMES`. */
export const OUTCOME_INDEX: ReadonlyMap<string, number> = new Map(OUTCOMES.map((outcome, i) => [outcome, i]));

/** An operation's row, in the spec's order. */
export const OPERATION_INDEX: ReadonlyMap<string, number> = new Map(OPERATION_IDS.map((id, i) => [id, i]));

/** The answers every operation can get, whatever it does. */
const CROSS_CUTTING: readonly ErrorCode[] = ["UNAUTHORIZED", "RATE_LIMITED"];

export const isWrite = (op: Pick<Operation, "method">): boolean => op.method !== "get";

/**
 * The cells of one operation: success, each error code it documents, the cross-cutting answers
 * (`VALIDATION_ERROR` only when it takes input; `INTERNAL_ERROR` as a forced 500), the network
 * faults, and for a write `lostAfterCommit`.
 */
function cellsOf(op: Operation): Outcome[] {
  const takesInput = op.params !== undefined || op.query !== undefined || op.body !== undefined;
  const codes = new Set<ErrorCode>([...(op.errors ?? []), ...CROSS_CUTTING, ...(takesInput ? (["VALIDATION_ERROR"] as const) : []), "INTERNAL_ERROR"]);
  // In the catalogue's order of codes, so every operation's cells read alike.
  return ["ok", ...ERROR_CODES.filter((code) => codes.has(code)), ...FAULT_OUTCOMES, ...(isWrite(op) ? (["lostAfterCommit"] as const) : [])];
}

/** Each operation's cells, in the spec's order of operations. */
export const CATALOGUE: ReadonlyMap<OperationId, readonly Outcome[]> = new Map(OPERATION_IDS.map((id) => [id, cellsOf(OPERATIONS[id] as Operation)]));

/** Whether the operation of this id writes (its `lostAfterCommit` cell, its duplicate writes). */
export const WRITES: readonly boolean[] = OPERATION_IDS.map((id) => isWrite(OPERATIONS[id]));

/** What an answer was, as far as its outcome goes. */
export interface AnswerFacts {
  /** The operation writes. */
  write: boolean;
  /** The error code the client got, if the answer was an error envelope (or a GraphQL field error). */
  code: string | undefined;
  /** The fault that answered, if any. */
  fault: string | null | undefined;
  /** The handler's status when a rule's answer replaced it after it ran (`commit`). */
  committedStatus: number | undefined;
  /** The handler's answer succeeded (for GraphQL: the field did not fail), when it was replaced. */
  committedOk?: boolean;
  /** Decided by a scenario rule or `Prefer` (a raw status with no code is no outcome of the catalogue). */
  forced: boolean;
  /** The HTTP status the client got; null when a fault left it none. */
  status: number | null;
}

const isCode = (code: string): code is ErrorCode => OUTCOME_INDEX.has(code) && code !== "ok" && code !== "lostAfterCommit" && !code.startsWith("fault:");

/**
 * The outcome of one answer; undefined for an answer no cell holds (a rule's raw status with no
 * error code). A write whose handler committed and whose answer a rule then replaced (a fault or
 * another answer) is `lostAfterCommit`, whatever replaced it.
 */
export function outcomeOf(a: AnswerFacts): Outcome | undefined {
  if (a.committedStatus !== undefined && a.write && (a.committedOk ?? a.committedStatus < 300)) return "lostAfterCommit";
  if (a.fault) return OUTCOME_INDEX.has(`fault:${a.fault}`) ? (`fault:${a.fault}` as Outcome) : undefined;
  if (a.code !== undefined) return isCode(a.code) ? a.code : "INTERNAL_ERROR";
  if (a.forced || a.status === null) return undefined;
  return a.status < 400 ? "ok" : undefined;
}
