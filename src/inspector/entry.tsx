/** @module An entry of the journal: what was sent and answered, the why panel, and copies as cURL and as a scenario rule. */
import { stringify } from "yaml";
import type { JournalEntry } from "../control/control.schemas.js";
import { graphqlOutcome } from "../control/graphql-failures.js";
import type { WhyTrace } from "../control/why.schemas.js";
import { ERROR_CODES } from "../engine/errors.js";
import { isError, type Page } from "./context.js";
import { Copyable, Json, Layout, Problem } from "./layout.js";
import { WhyPanel } from "./why.js";

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

const isErrorCode = (code: string | undefined): code is string => code !== undefined && (ERROR_CODES as readonly string[]).includes(code);

/** Rules for a GraphQL entry: one per field that failed, on that field of GraphQL alone (a REST twin's requests are left alone). */
function graphqlRules(entry: JournalEntry): object[] {
  const failed = (graphqlOutcome(entry)?.failed ?? []).filter((f) => isErrorCode(f.code));
  const first = entry.graphql!.fields[0];
  const matchOf = (field: string, customerId: string | null) => ({ api: "graphql", graphql: { field }, ...(customerId !== null && { customerId }) });
  if (failed.length > 0) return failed.map((f) => ({ match: matchOf(f.field, f.customerId), respond: { error: f.code, message: f.message } }));
  return first ? [{ match: matchOf(first.field, first.customerId), respond: { status: entry.status ?? 200, body: entry.responseBody ?? {} } }] : [];
}

/** A scenario whose rules answer this entry's request as it was answered. */
function scenarioOf(entry: JournalEntry): string {
  const name = { name: `replay-request-${entry.id}`, description: `Answers as request ${entry.id} was answered` };
  if (entry.graphql !== null) return stringify({ ...name, rules: graphqlRules(entry) });
  const match: Record<string, unknown> = entry.operation ? { operation: entry.operation } : { method: entry.method, path: entry.path };
  if (entry.customerId !== null) match.customerId = entry.customerId;
  const body = entry.responseBody as { error?: { code?: string; message?: string } } | null;
  const code = body?.error?.code;
  const respond = isErrorCode(code) ? { error: code, ...(body?.error?.message && { message: body.error.message }) } : { status: entry.status ?? 200, body: entry.responseBody ?? {} };
  return stringify({ ...name, rules: [{ match, respond }] });
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
