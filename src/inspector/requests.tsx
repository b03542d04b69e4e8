/**
 * Page 1, Requests: the journal, newest first, with filters in the URL (a GET form), rows that
 * inspector.js adds live (`rows?after=`), an entry's detail, and the errors summary.
 * @module
 */
import { stringify } from "yaml";
import type { JournalEntry } from "../control/control.schemas.js";
import type { WhyTrace } from "../control/why.schemas.js";
import { ERROR_CODES } from "../engine/errors.js";
import { OPERATION_IDS } from "../contract/index.js";
import { isError, type Page } from "./context.js";
import { Copyable, Json, Layout, Problem } from "./layout.js";
import { WhyPanel } from "./why.js";

/** Rows a list shows at most (the journal keeps more; filters find them). */
const SHOWN = 200;

const STATUS_CLASSES = ["2xx", "3xx", "4xx", "5xx", "fault"] as const;

export interface Filters {
  status?: string;
  operation?: string;
  customer?: string;
  decided?: string;
  q?: string;
}

export function filtersOf(page: Page): Filters {
  const read = (name: string) => {
    const value = page.c.req.query(name)?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  return { status: read("status"), operation: read("operation"), customer: read("customer"), decided: read("decided"), q: read("q") };
}

/** What the control API cannot filter on (status class, decided by a scenario) is filtered here. */
function keep(entry: JournalEntry, f: Filters): boolean {
  if (f.decided === "scenario" && entry.decidedBy !== "scenario") return false;
  if (f.status === "fault") return entry.fault !== null;
  if (f.status !== undefined) return entry.status !== null && `${Math.floor(entry.status / 100)}xx` === f.status;
  return true;
}

async function entries(page: Page, f: Filters, after?: number) {
  const local = f.status !== undefined || f.decided !== undefined;
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

const errorCode = (entry: JournalEntry): string | undefined => {
  const body = entry.responseBody as { error?: { code?: unknown } } | null;
  return typeof body?.error?.code === "string" ? body.error.code : undefined;
};

const clockTime = (iso: string) => iso.slice(11, 19);

function Row(props: { page: Page; entry: JournalEntry }) {
  const { page, entry: e } = props;
  const outcome = e.fault ?? String(e.status);
  const tone = e.fault !== null ? "fault" : e.status !== null && e.status >= 500 ? "s5" : e.status !== null && e.status >= 400 ? "s4" : "s2";
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
      <td>{errorCode(e) ?? ""}</td>
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

/** Error code x operation, over the journal. */
export async function errorsPage(page: Page) {
  const answer = await page.get<{ requests: JournalEntry[] }>("/__sim/requests");
  const counts = new Map<string, Map<string, number>>();
  const operations = new Set<string>();
  for (const e of isError(answer.body) ? [] : answer.body.requests) {
    const code = errorCode(e) ?? (e.fault !== null ? `fault ${e.fault}` : undefined);
    if (code === undefined) continue;
    const op = e.operation ?? e.path;
    operations.add(op);
    const row = counts.get(code) ?? new Map<string, number>();
    counts.set(code, row.set(op, (row.get(op) ?? 0) + 1));
  }
  const ops = [...operations].sort();
  return page.c.html(
    <Layout page={page} title="Errors" current="/errors">
      {counts.size === 0 ? (
        <p>No error in the journal.</p>
      ) : (
        <table class="errors">
          <thead>
            <tr><th>code</th>{ops.map((op) => <th>{op}</th>)}</tr>
          </thead>
          <tbody>
            {[...counts].sort(([a], [b]) => a.localeCompare(b)).map(([code, row]) => (
              <tr>
                <th>{code}</th>
                {ops.map((op) => <td class="num">{row.get(op) !== undefined ? <a href={page.href("/requests", { q: code.startsWith("fault ") ? undefined : code, operation: OPERATION_IDS.includes(op as never) ? op : undefined })}>{row.get(op)}</a> : ""}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>,
  );
}

const CURL_SETS = new Set(["host", "content-length", "connection", "accept-encoding", "user-agent"]);

const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;

function curlOf(entry: JournalEntry, origin: string, secret: string | undefined): string {
  const query = new URLSearchParams(entry.query as Record<string, string>).toString();
  const parts = [`curl -X ${entry.method} ${quote(`${origin}${entry.path}${query ? `?${query}` : ""}`)}`];
  for (const [name, value] of Object.entries(entry.requestHeaders ?? {})) {
    // What curl sets itself.
    if (CURL_SETS.has(name)) continue;
    parts.push(`-H ${quote(`${name}: ${name === "x-api-secret" && secret !== undefined ? secret : value}`)}`);
  }
  if (entry.requestBody !== null && entry.requestBody !== undefined) parts.push(`--data-raw ${quote(typeof entry.requestBody === "string" ? entry.requestBody : JSON.stringify(entry.requestBody))}`);
  return parts.join(" \\\n  ");
}

/** A scenario whose one rule answers this entry's request as it was answered. */
function scenarioOf(entry: JournalEntry): string {
  const match: Record<string, unknown> = entry.operation ? { operation: entry.operation } : { method: entry.method, path: entry.path };
  if (entry.customerId !== null) match.customerId = entry.customerId;
  const body = entry.responseBody as { error?: { code?: string; message?: string } } | null;
  const code = body?.error?.code;
  const respond = code !== undefined && (ERROR_CODES as readonly string[]).includes(code) ? { error: code, ...(body?.error?.message && { message: body.error.message }) } : { status: entry.status ?? 200, body: entry.responseBody ?? {} };
  return stringify({ name: `replay-request-${entry.id}`, description: `Answers as request ${entry.id} was answered`, rules: [{ match, respond }] });
}

export async function requestDetail(page: Page, id: string) {
  const [entry, why, shops] = await Promise.all([
    page.get<JournalEntry>(`/__sim/requests/${encodeURIComponent(id)}`),
    page.get<WhyTrace>(`/__sim/requests/${encodeURIComponent(id)}/why`),
    page.get<{ shops: { apiKey: string; apiSecret: string }[] }>("/__sim/shops"),
  ]);
  if (isError(entry.body)) {
    return page.c.html(
      <Layout page={page} title={`Request ${id}`} current="/requests">
        <Problem status={entry.status} message={entry.body.error.message} />
      </Layout>,
      entry.status === 404 ? 404 : 400,
    );
  }
  const e = entry.body;
  const key = e.requestHeaders?.["x-api-key"];
  const secret = isError(shops.body) ? undefined : shops.body.shops.find((s) => s.apiKey === key)?.apiSecret;
  const origin = new URL(page.c.req.url).origin;
  return page.c.html(
    <Layout page={page} title={`Request ${e.id}${e.requestId === null ? "" : ` · X-Request-Id ${e.requestId}`}`} current="/requests">
      <p class="summary">
        {e.method} {e.path} ·{" "}
        {e.fault !== null ? `fault ${e.fault}` : `status ${e.status}`} · {e.operation ?? "no operation"} · at {e.at} · {e.durationMs.toFixed(1)} ms
        {e.customerId !== null && <> · customer <a href={page.href(`/customers/${encodeURIComponent(e.customerId)}`)}>{e.customerId}</a></>}
      </p>
      {isError(why.body) ? <Problem status={why.status} message={why.body.error.message} /> : <WhyPanel why={why.body} />}
      <div class="columns">
        <section>
          <h2>Request</h2>
          <Json value={e.requestHeaders} id="request-headers" />
          {Object.keys(e.query ?? {}).length > 0 && <Json value={e.query} id="request-query" />}
          <Json value={e.requestBody} id="request-body" />
        </section>
        <section>
          <h2>Response</h2>
          <Json value={e.responseHeaders} id="response-headers" />
          <Json value={e.responseBody} id="response-body" />
        </section>
      </div>
      <h2>Copy</h2>
      <Copyable id="curl" label="Copy as cURL" text={curlOf(e, origin, secret)} />
      <Copyable id="scenario-yaml" label="Copy as a scenario rule" text={scenarioOf(e)} />
    </Layout>,
  );
}
