/**
 * The journal's side of every API request: its arrival, and what happened, read from the request's
 * record (exchange.ts) once the response (or fault) is known, and written to the journal and the
 * request log.
 * @module
 */
import type { Exchange } from "../exchange.js";
import { faultResponse } from "../faults.js";
import { customerIdOf } from "../operation.js";
import { bodyLeftToRead, bodyToRead, rawRequestHeaders, readDeclaredBody, readStreamWithin, requestHeader } from "../request-input.js";
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

export class RequestRecorder {
  constructor(
    private readonly journal: Journal,
    private readonly onRequest?: (line: RequestLogLine) => void,
    /** When the shop's current quota window ends (ms), if it has one. */
    private readonly quotaEnd?: (shopId: string) => number | undefined,
    /** The body limit: a body over it is journaled unread, whatever refused the request. */
    private readonly maxBodyBytes = Number.POSITIVE_INFINITY,
    /** Told of every answered request, whatever the journal keeps (the coverage counters). */
    private readonly tally?: (exchange: Exchange, status: number | null) => void,
  ) {}

  /** Notes the request's arrival: it is journaled once answered. */
  begin(exchange: Exchange): void {
    exchange.arrival = { started: performance.now(), at: exchange.clock.now() };
  }

  /**
   * Whether journaling `res` waits: for a request body left unread (the request was answered
   * before the body limit's step read it), or for the text of a response not written by the app.
   */
  waits(exchange: Exchange, res: Response): boolean {
    if (this.journal.capacity === 0) return false;
    return bodyLeftToRead(exchange) || (exchange.sentText === undefined && this.#status(exchange, res) !== null);
  }

  /** Logs and journals the request once `res` (or a fault) has answered it, when nothing is left to read (`waits`). */
  finish(exchange: Exchange, res: Response): void {
    const record = this.#record(exchange, res);
    if (record) this.journal.add(record);
  }

  /** `finish`, once what is left to read is read: the request body, no further than the limit, and a response's text. */
  async finishLater(exchange: Exchange, res: Response): Promise<void> {
    const record = this.#record(exchange, res);
    if (!record) return;
    if (bodyLeftToRead(exchange)) {
      // As the body limit reads it; a body that fails to arrive is kept as "" (`#requestText`).
      const way = bodyToRead(exchange, this.maxBodyBytes);
      if (way === "declared") await readDeclaredBody(exchange)?.catch(() => undefined);
      if (way === "stream") await readStreamWithin(exchange, this.maxBodyBytes).catch(() => undefined);
      record.requestText = this.#requestText(exchange, record);
    }
    if (record.status !== null && exchange.sentText === undefined) record.responseText = await res.clone().text();
    this.journal.add(record);
  }

  /** The status the client got: none when a fault left it without a response. */
  #status(exchange: Exchange, res: Response): number | null {
    const { fault } = exchange;
    return fault !== undefined && faultResponse(fault) === undefined ? null : res.status;
  }

  /** Logs the request; its journal entry as far as known now, unless the journal keeps none. */
  #record(exchange: Exchange, res: Response): JournalRecord | undefined {
    const { c, arrival, graphql, decision = null, shop } = exchange;
    const fault = exchange.fault ?? null;
    const status = this.#status(exchange, res);
    const durationMs = Math.round((performance.now() - arrival!.started) * 100) / 100;
    this.tally?.(exchange, status);
    this.onRequest?.({
      method: c.req.method,
      path: c.req.path,
      status,
      fault,
      ms: durationMs,
      scenario: decision ? `${decision.scenario}#${decision.rule}` : null,
      requestId: exchange.headers["X-Request-Id"] ?? null,
      ...(graphql && { graphql }),
    });
    if (this.journal.capacity === 0) return undefined;
    const written = exchange.sentText;
    const raw = rawRequestHeaders(c);
    const record: JournalRecord = {
      id: 0,
      at: arrival!.at,
      // Set by the credentials check only when both headers were right.
      shopId: shop?.id ?? null,
      method: c.req.method,
      path: c.req.path,
      url: c.req.url,
      // A GraphQL request reads like the REST twin of its first root field.
      operation: graphql ? (graphql.fields[0]?.operation ?? null) : (exchange.route?.operationId ?? null),
      customerId: graphql ? (graphql.fields[0]?.customerId ?? null) : (customerIdOf(exchange) ?? null),
      requestHeaders: raw !== undefined ? packHeaderList(raw) : packFetchHeaders(c.req.raw.headers),
      requestText: "",
      requestType: requestHeader(c, "content-type") ?? null,
      status,
      fault,
      // sendJson's answers carry the gathered headers as they are; reading `res.headers` would
      // make the Node adapter rebuild them.
      responseHeaders: status === null ? null : written !== undefined ? packHeaderRecord(exchange.headers) : packFetchHeaders(res.headers),
      responseText: status === null ? "" : (written ?? ""),
      responseType: written !== undefined ? "application/json" : res.headers.get("Content-Type"),
      committed: exchange.committed ?? null,
      durationMs,
      decidedBy: exchange.decidedBy ?? "handler",
      scenario: decision,
      graphqlText: graphql ? JSON.stringify(graphql) : null,
      notes: packedNotes(exchange),
      quotaEnd: shop === undefined ? null : (this.quotaEnd?.(shop.id) ?? null),
    };
    // Responses written by the app leave their text behind (see http/respond.ts); only one made
    // elsewhere has to be cloned and read (`finishLater`). So does a body the request was answered before reading.
    if (record.method !== "GET" && record.method !== "HEAD" && !bodyLeftToRead(exchange)) record.requestText = this.#requestText(exchange, record);
    return record;
  }

  /** The body as kept; for a body left unread, a note in parentheses, as for a body too large to keep. */
  #requestText(exchange: Exchange, record: JournalRecord): string {
    if (exchange.body !== undefined) return exchange.body;
    if (exchange.bodyNotRead === undefined) return "";
    record.requestType = "text/plain";
    return `(body not read: ${exchange.bodyNotRead})`;
  }
}
