/**
 * The journal's side of every API request: which operation it names (known from the route before
 * any gate runs, for scenarios), and what happened, written once the response (or fault) is known.
 * @module
 */
import type { Context } from "hono";
import type { AppEnv } from "../env.js";
import { faultResponse } from "../faults.js";
import { customerIdOf, type MountedRoute } from "../operation.js";
import { andThen } from "../maybe-promise.js";
import { bodyNotRead, bodyToKeep, rawRequestHeaders, requestHeader } from "../request-input.js";
import { gatheredHeader, gatheredHeaders, sentJsonText } from "../respond.js";
import { packFetchHeaders, packHeaderList, packHeaderRecord } from "./headers.js";
import type { Journal } from "./journal.js";
import type { GraphQLFacts, JournalRecord } from "./record.js";
import { packedNotes } from "./notes.js";

/** What the request log shows of a request. */
export interface RequestLogLine {
  method: string;
  path: string;
  status: number | null;
  fault: string | null;
  ms: number;
  scenario: string | null;
  requestId: string | null;
  /** For a GraphQL request that ran: its operation and each root field's error (set only then). */
  graphql?: GraphQLFacts;
}

/** When a request arrived: by the wall (its duration) and by its shop's clock (the journal). */
export interface Arrival {
  started: number;
  at: number;
}

export class RequestRecorder {
  constructor(
    private readonly journal: Journal,
    private readonly onRequest?: (line: RequestLogLine) => void,
    /** When the shop's current quota window ends (ms), if it has one. */
    private readonly quotaEnd?: (shopId: string) => number | undefined,
    /** The body limit: a body over it is journaled unread, whatever refused the request. */
    private readonly maxBodyBytes = Number.POSITIVE_INFINITY,
  ) {}

  /** Names the request's operation (`c.get("operation")`; none for a path no route has) and notes its arrival. */
  begin(c: Context<AppEnv>, route: MountedRoute | undefined): Arrival {
    if (route?.operationId !== undefined) c.set("operation", { operationId: route.operationId, template: route.template, params: c.req.param() });
    return { started: performance.now(), at: c.get("clock").now() };
  }

  /** Logs and journals the request once `c.res` (or a fault) has answered it. */
  finish(c: Context<AppEnv>, arrival: Arrival): void | Promise<void> {
    const fault = c.get("fault") ?? null;
    const status = fault && faultResponse(fault) === undefined ? null : c.res.status;
    const durationMs = Math.round((performance.now() - arrival.started) * 100) / 100;
    const decision = c.get("decision") ?? null;
    const graphql = c.get("graphql");
    this.onRequest?.({
      method: c.req.method,
      path: c.req.path,
      status,
      fault,
      ms: durationMs,
      scenario: decision ? `${decision.scenario}#${decision.rule}` : null,
      requestId: gatheredHeader(c, "X-Request-Id") ?? null,
      ...(graphql && { graphql }),
    });
    if (this.journal.capacity === 0) return;
    const operation = c.get("operation");
    const written = sentJsonText(c);
    const sentText = status === null ? "" : written;
    const raw = rawRequestHeaders(c);
    const shop = c.get("shop");
    const record: JournalRecord = {
      id: 0,
      at: arrival.at,
      // Set by the credentials check only when both headers were right.
      shopId: shop?.id ?? null,
      method: c.req.method,
      path: c.req.path,
      url: c.req.url,
      // A GraphQL request reads like the REST twin of its first root field.
      operation: graphql ? (graphql.fields[0]?.operation ?? null) : (operation?.operationId ?? null),
      customerId: graphql ? (graphql.fields[0]?.customerId ?? null) : (customerIdOf(operation) ?? null),
      requestHeaders: raw !== undefined ? packHeaderList(raw) : packFetchHeaders(c.req.raw.headers),
      requestText: "",
      requestType: requestHeader(c, "content-type") ?? null,
      status,
      fault,
      // sendJson's answers carry the gathered headers as they are; reading `res.headers` would
      // make the Node adapter rebuild them.
      responseHeaders: status === null ? null : written !== undefined ? packHeaderRecord(gatheredHeaders(c)!) : packFetchHeaders(c.res.headers),
      responseText: sentText ?? "",
      responseType: written !== undefined ? "application/json" : c.res.headers.get("Content-Type"),
      committed: c.get("committed") ?? null,
      durationMs,
      decidedBy: c.get("decidedBy") ?? "handler",
      scenario: decision,
      graphqlText: graphql ? JSON.stringify(graphql) : null,
      notes: packedNotes(c),
      quotaEnd: shop === undefined ? null : (this.quotaEnd?.(shop.id) ?? null),
    };
    // Responses written by the app leave their text behind (see http/respond.ts); only one made
    // elsewhere has to be cloned and read. A request body is read again from where the JSON check
    // or the validator left it, without waiting when it came with the request.
    const requestText = record.method !== "GET" && record.method !== "HEAD" ? andThen(bodyToKeep(c, this.maxBodyBytes), (text) => text ?? this.#notRead(c, record)) : "";
    if (typeof requestText === "string" && sentText !== undefined) {
      record.requestText = requestText;
      return this.journal.add(record);
    }
    return (async () => {
      record.requestText = await Promise.resolve(requestText).catch(() => "");
      if (sentText === undefined) record.responseText = await c.res.clone().text();
      this.journal.add(record);
    })();
  }

  /** What the journal keeps for a body left unread: a note in parentheses, as for a body too large to keep. */
  #notRead(c: Context<AppEnv>, record: JournalRecord): string {
    record.requestType = "text/plain";
    return `(body not read: ${bodyNotRead(c)})`;
  }
}
