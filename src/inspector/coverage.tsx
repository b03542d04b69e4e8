/**
 * Page 7, Coverage: the duplicate writes on top, then each operation's outcomes as a grid (tested,
 * tested only when forced, untested; blank where the operation has no such outcome), each met
 * cell a link to the journal's requests that ended so, while the journal still has them.
 * @module
 */
import type { JournalEntry } from "../control/control.schemas.js";
import { CATALOGUE, OPERATION_INDEX, OUTCOMES, outcomeOf, WRITES, type Outcome } from "../coverage/catalogue.js";
import type { CoverageCell, CoverageReport } from "../coverage/report.js";
import { isError, type Page } from "./context.js";
import { Layout, Problem } from "./layout.js";

/** The outcomes some operation has, in the catalogue's order: the grid's columns. */
const COLUMNS = OUTCOMES.filter((outcome) => [...CATALOGUE.values()].some((cells) => cells.includes(outcome)));

const errorCodeOf = (body: unknown): string | undefined => {
  const error = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === "string" ? error.code : undefined;
};

/**
 * The (operation, outcome) pairs a journal entry counted in, as the counters count them: a REST
 * request once, a GraphQL request once per root field that ran (none when refused before its
 * operation was known).
 */
export function entryOutcomes(e: JournalEntry): [string, Outcome][] {
  const forced = e.decidedBy === "scenario" || e.decidedBy === "prefer";
  const committedStatus = e.committed?.status;
  const writes = (op: string) => WRITES[OPERATION_INDEX.get(op) ?? -1] ?? false;
  if (e.api === "rest") {
    if (e.operation === null) return [];
    const outcome = outcomeOf({ write: writes(e.operation), code: errorCodeOf(e.responseBody), fault: e.fault, committedStatus, forced, status: e.status });
    return outcome === undefined ? [] : [[e.operation, outcome]];
  }
  const whole = e.committed !== null || e.fault !== null;
  return (e.graphql?.fields ?? []).flatMap((field): [string, Outcome][] => {
    const outcome = whole
      ? outcomeOf({ write: writes(field.operation), code: undefined, fault: e.fault, committedStatus, committedOk: field.error === null, forced, status: e.status })
      : field.error === "NOT_RUN"
        ? undefined
        : outcomeOf({ write: writes(field.operation), code: field.error ?? undefined, fault: undefined, committedStatus: undefined, forced: false, status: e.status });
    return outcome === undefined ? [] : [[field.operation, outcome]];
  });
}

function Cell(props: { page: Page; operation: string; cell: CoverageCell | undefined }) {
  const { page, operation, cell } = props;
  if (cell === undefined) return <td class="na"></td>;
  const state = cell.count === 0 ? "untested" : cell.count === cell.forced ? "forced" : "tested";
  const title = `${operation} ${cell.outcome}: ${state === "forced" ? "tested only when forced" : state}; ${cell.count} (${cell.forced} forced; REST ${cell.rest}, GraphQL ${cell.graphql})`;
  return (
    <td class={`cell ${state}`} title={title} data-outcome={cell.outcome}>
      {cell.count === 0 ? "·" : <a href={page.href("/requests", { operation, outcome: cell.outcome })}>{cell.count}</a>}
    </td>
  );
}

function Grid(props: { page: Page; report: CoverageReport }) {
  const { page, report } = props;
  return (
    <table class="coverage">
      <thead>
        <tr><th>operation</th><th class="num">met</th>{COLUMNS.map((outcome) => <th class="outcome-name">{outcome}</th>)}</tr>
      </thead>
      <tbody>
        {Object.entries(report.operations).map(([operation, { cells, missing }]) => {
          const own = CATALOGUE.get(operation as never) ?? [];
          return (
            <tr data-operation={operation}>
              <th>{operation}</th>
              <td class="num">{`${own.length - missing.length}/${own.length}`}</td>
              {COLUMNS.map((outcome) => <Cell page={page} operation={operation} cell={own.includes(outcome) ? cells.find((c) => c.outcome === outcome) : undefined} />)}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Duplicates(props: { page: Page; report: CoverageReport }) {
  const { page, report } = props;
  if (report.duplicateWrites.length === 0) return <p class="hint">No duplicate write: no write was sent again after its answer was lost.</p>;
  return (
    <div class="problem duplicates" role="alert">
      <strong>{report.duplicateWrites.length} duplicate write{report.duplicateWrites.length === 1 ? "" : "s"}</strong>: a write whose answer was lost after it committed, sent again, same body, by the same client.
      <table>
        <thead>
          <tr><th>operation</th><th>customer</th><th>lost answer</th><th>repeat</th><th>Idempotency-Key</th></tr>
        </thead>
        <tbody>
          {report.duplicateWrites.map((d) => (
            <tr>
              <td>{d.operation}</td>
              <td>{d.customerId !== null ? <a href={page.href(`/customers/${encodeURIComponent(d.customerId)}`)}>{d.customerId}</a> : ""}</td>
              <td><code>{d.first}</code></td>
              <td><a href={page.href("/requests", { q: d.repeat })}><code>{d.repeat}</code></a></td>
              <td>{d.idempotencyKey ? "yes" : "no"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export async function coveragePage(page: Page) {
  const answer = await page.get<CoverageReport>("/__sim/coverage");
  return page.c.html(
    <Layout page={page} title="Coverage" current="/coverage">
      {isError(answer.body) ? (
        <Problem status={answer.status} message={answer.body.error.message} details={answer.body.error.details} />
      ) : (
        <>
          <Duplicates page={page} report={answer.body} />
          <p class="summary">
            <strong>{`${answer.body.summary.covered} of ${answer.body.summary.cells} cells (${answer.body.summary.percent}%)`}</strong> met by this shop's requests since its last reset.{" "}
            <span class="legend"><span class="cell tested">tested</span> <span class="cell forced">tested only when forced</span> <span class="cell untested">untested</span></span>
          </p>
          <Grid page={page} report={answer.body} />
        </>
      )}
    </Layout>
  );
}
