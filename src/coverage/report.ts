/**
 * The coverage report (`GET /__sim/coverage`): each operation's cells with their counts, the
 * outcomes never met, the summary, and the duplicate writes; made from one shop's counters or
 * the sum of several.
 * @module
 */
import { OPERATION_IDS } from "../contract/index.js";
import { CATALOGUE, OUTCOMES, type Outcome } from "./catalogue.js";

/** One cell: how many requests ended so, how many of them a rule or `Prefer` forced, and by which API. */
export interface CoverageCell {
  outcome: string;
  count: number;
  forced: number;
  rest: number;
  graphql: number;
}

export interface OperationCoverage {
  /** The operation's catalogue, in order, then any other outcome it met (forced, say), which the summary does not count. */
  cells: CoverageCell[];
  /** The catalogue's outcomes no request met. */
  missing: string[];
}

/** A write sent again, body and all, by the client whose first one committed and lost its answer. */
export interface DuplicateWrite {
  operation: string;
  customerId: string | null;
  /** The `X-Request-Id` of the write that committed and lost its answer. */
  first: string;
  /** The `X-Request-Id` of the repeat, which wrote again. */
  repeat: string;
  /** Whether the repeat carried an `Idempotency-Key` header. */
  idempotencyKey: boolean;
}

export interface CoverageReport {
  /** The shop's id, or `all`. */
  shop: string;
  summary: { cells: number; covered: number; percent: number };
  operations: Record<string, OperationCoverage>;
  duplicateWrites: DuplicateWrite[];
}

/** Four counters a cell: REST natural, REST forced, GraphQL natural, GraphQL forced. */
export const PER_CELL = 4;
export const ROW = OUTCOMES.length * PER_CELL;
/** The counters of one shop: operations x outcomes x PER_CELL. */
export const COUNTERS_SIZE = OPERATION_IDS.length * ROW;

/** The report of `counts` (one shop's, or a sum) and `duplicates`. */
export function coverageReport(shop: string, counts: Uint32Array, duplicates: DuplicateWrite[]): CoverageReport {
  let cells = 0;
  let covered = 0;
  const operations: Record<string, OperationCoverage> = {};
  OPERATION_IDS.forEach((id, op) => {
    const catalogue = CATALOGUE.get(id)!;
    const cellOf = (outcome: Outcome, o: number): CoverageCell => {
      const at = op * ROW + o * PER_CELL;
      const [restNatural, restForced, graphqlNatural, graphqlForced] = [counts[at]!, counts[at + 1]!, counts[at + 2]!, counts[at + 3]!];
      const rest = restNatural + restForced;
      const graphql = graphqlNatural + graphqlForced;
      return { outcome, count: rest + graphql, forced: restForced + graphqlForced, rest, graphql };
    };
    const own = catalogue.map((outcome) => cellOf(outcome, OUTCOMES.indexOf(outcome)));
    const others = OUTCOMES.flatMap((outcome, o) => (catalogue.includes(outcome) ? [] : [cellOf(outcome, o)])).filter((cell) => cell.count > 0);
    const missing = own.filter((cell) => cell.count === 0).map((cell) => cell.outcome);
    cells += own.length;
    covered += own.length - missing.length;
    operations[id] = { cells: [...own, ...others], missing };
  });
  const percent = cells === 0 ? 0 : Math.round((covered / cells) * 1000) / 10;
  return { shop, summary: { cells, covered, percent }, operations, duplicateWrites: duplicates };
}
