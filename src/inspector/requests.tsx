/**
 * Page 1, Requests: the journal, newest first, with filters in the URL (a GET form) and rows that
 * inspector.js adds live (`rows?after=`). An entry's page is entry.tsx's, the Errors page errors.tsx's.
 * @module
 */
import type { JournalEntry } from "../control/control.schemas.js";
import { OPERATION_IDS } from "../contract/index.js";
import { isError, type Page } from "./context.js";
import { entryOutcomes } from "./coverage.js";
import { Layout, Problem } from "./layout.js";
import { errorLabel } from "./outcome.js";

/** Rows a list shows at most (the journal keeps more; filters find them). */
const SHOWN = 200;

const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx", "fault"] as const;

export interface Filters {
  status?: string;
  operation?: string;
  customer?: string;
  decided?: string;
  /** A coverage cell's outcome (`ok`, a code, `fault:<kind>`, `lostAfterCommit`), of `operation` when given. */
  outcome?: string;
  q?: string;
}

export function filtersOf(page: Page): Filters {
  const read = (name: string) => {
    const value = page.c.req.query(name)?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  return { status: read("status"), operation: read("operation"), customer: read("customer"), decided: read("decided"), outcome: read("outcome"), q: read("q") };
}

/** What the control API cannot filter on (status class, decided by a scenario) is filtered here. */
function keep(entry: JournalEntry, f: Filters): boolean {
  if (f.decided === "scenario" && entry.decidedBy !== "scenario") return false;
  if (f.outcome !== undefined && !entryOutcomes(entry).some(([op, outcome]) => outcome === f.outcome && (f.operation === undefined || op === f.operation))) return false;
  if (f.status === "fault") return entry.fault !== null;
  if (f.status !== undefined) return entry.status !== null && `${Math.floor(entry.status / 100)}xx` === f.status;
  return true;
}

async function entries(page: Page, f: Filters, after?: number) {
  const local = f.status !== undefined || f.decided !== undefined || f.outcome !== undefined;
  const answer = await page.get<{ requests: JournalEntry[] } | unknown>("/__sim/requests", {
    operation: f.operation,
    customerId: f.customer,
    q: f.q,
    ...(after !== undefined && { after: String(after) }),
    ...(!local && { limit: String(SHOWN) }),
  });
  if (isError(answer.body)) return { problem: { status: answer.status, ...answer.body.error } };
  const list = (answer.body as { requests: JournalEntry[] }).requests.filter((e) => keep(e, f)).slice(0, SHOWN);
  return { list };
}

const clockTime = (iso: string) => iso.slice(11, 19);

function Row(props: { page: Page; entry: JournalEntry }) {
  const { page, entry: e } = props;
  const outcome = e.fault ?? String(e.status);
  const error = errorLabel(e);
  // A GraphQL refusal is a 200 with its error inside: toned as the 4xx it stands for.
  const tone = e.fault !== null ? "fault" : e.status !== null && e.status >= 500 ? "s5" : (e.status !== null && e.status >= 400) || error !== "" ? "s4" : "s2";
  return (
    <tr data-id={String(e.id)} class={tone}>
      <td class="id" title={e.requestId === null ? "no response, no X-Request-Id" : `X-Request-Id ${e.requestId}`}>{e.id}</td>
      <td title={e.at}>{clockTime(e.at)}</td>
      <td>{e.method}</td>
      <td>{e.operation ?? ""}</td>
      <td class="path">
        <a href={page.href(`/requests/${e.id}`)}>{e.path}</a>
      </td>
      <td class="status">{outcome}</td>
      <td class="error">{error}</td>
      <td>{e.customerId !== null ? <a href={page.href(`/customers/${encodeURIComponent(e.customerId)}`)}>{e.customerId}</a> : ""}</td>
      <td>{e.scenario ? `scenario ${e.scenario.scenario} #${e.scenario.rule}` : e.decidedBy}</td>
      <td class="num">{e.durationMs.toFixed(1)} ms</td>
    </tr>
  );
}

export function Rows(props: { page: Page; list: JournalEntry[] }) {
  return <>{props.list.map((entry) => <Row page={props.page} entry={entry} />)}</>;
}

function FilterForm(props: { page: Page; f: Filters }) {
  const { page, f } = props;
  return (
    <form class="filters" method="get" action={page.href("/requests").split("?")[0]}>
      {page.shop !== undefined && <input type="hidden" name="shop" value={page.shop} />}
      {f.outcome !== undefined && <input type="hidden" name="outcome" value={f.outcome} />}
      <label>
        Status{" "}
        <select name="status">
          <option value="">any</option>
          {STATUS_CLASSES.map((s) => <option value={s} selected={f.status === s}>{s}</option>)}
        </select>
      </label>
      <label>
        Operation{" "}
        <select name="operation">
          <option value="">any</option>
          {OPERATION_IDS.map((o) => <option value={o} selected={f.operation === o}>{o}</option>)}
        </select>
      </label>
      <label>
        Customer <input name="customer" value={f.customer ?? ""} size={10} />
      </label>
      <label>
        <input type="checkbox" name="decided" value="scenario" checked={f.decided === "scenario"} /> decided by a scenario
      </label>
      <label>
        Search <input type="search" name="q" value={f.q ?? ""} placeholder="text in bodies, headers, request id" />
      </label>
      <button type="submit">Filter</button>
      <a href={page.href("/requests")}>clear</a>
    </form>
  );
}

export async function requestsPage(page: Page) {
  const f = filtersOf(page);
  const found = await entries(page, f);
  const newest = found.list?.[0]?.id ?? 0;
  const rowsUrl = page.href("/requests/rows", { ...f });
  return page.c.html(
    <Layout page={page} title="Requests" current="/requests">
      <FilterForm page={page} f={f} />
      {found.problem && <Problem {...found.problem} />}
      <p class="hint">Newest first, live while this page is open. Times are the shop's clock.</p>
      <table class="requests">
        <thead>
          <tr>
            <th>#</th><th>time</th><th>method</th><th>operation</th><th>path</th><th>status</th><th>error</th><th>customer</th><th>decided by</th><th>took</th>
          </tr>
        </thead>
        <tbody id="rows" data-live="journal" data-after={String(newest)} data-rows={rowsUrl}>
          <Rows page={page} list={found.list ?? []} />
        </tbody>
      </table>
    </Layout>,
  );
}

/** The rows newer than `after` that pass the filters (what inspector.js adds on a journal tick). */
export async function rowsFragment(page: Page) {
  const after = Number(page.c.req.query("after") ?? "0");
  const found = await entries(page, filtersOf(page), Number.isInteger(after) && after >= 0 ? after : 0);
  return page.c.html(<Rows page={page} list={found.list ?? []} />);
}
