/**
 * The journal as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/): what
 * browsers' developer tools, proxies and API tools import. Entries oldest first; the simulator's
 * own facts ride in custom fields (`_id`, `_api`, `_decidedBy`, `_scenario`, `_fault`).
 * @module
 */
import type { JournalEntry } from "../http/journal/record.js";
import { VERSION } from "../version.js";

interface HarNameValue {
  name: string;
  value: string;
}

const pairs = (record: Record<string, string>): HarNameValue[] => Object.entries(record).map(([name, value]) => ({ name, value }));

/** A journal body as HAR text: JSON written out again, a string as it is, none as "". */
function bodyText(body: unknown): string {
  if (body === null || body === undefined) return "";
  return typeof body === "string" ? body : JSON.stringify(body);
}

const STATUS_TEXT: Record<number, string> = { 200: "OK", 201: "Created", 204: "No Content", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 413: "Payload Too Large", 422: "Unprocessable Entity", 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable" };

function entry(e: JournalEntry, origin: string) {
  const url = new URL(e.path, origin);
  for (const [name, value] of Object.entries(e.query)) url.searchParams.set(name, value);
  const requestText = bodyText(e.requestBody);
  const responseText = bodyText(e.responseBody);
  const requestType = e.requestHeaders["content-type"];
  const responseType = e.responseHeaders?.["content-type"] ?? "";
  return {
    startedDateTime: e.at,
    time: e.durationMs,
    request: {
      method: e.method,
      url: url.href,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: pairs(e.requestHeaders),
      queryString: pairs(e.query),
      ...(requestText !== "" && { postData: { mimeType: requestType ?? "application/octet-stream", text: requestText } }),
      headersSize: -1,
      bodySize: requestText === "" ? 0 : Buffer.byteLength(requestText),
    },
    response: {
      // A fault left the client without a response: HAR writes that as status 0.
      status: e.status ?? 0,
      statusText: e.status === null ? "" : (STATUS_TEXT[e.status] ?? ""),
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: pairs(e.responseHeaders ?? {}),
      content: { size: Buffer.byteLength(responseText), mimeType: responseType, text: responseText },
      redirectURL: "",
      headersSize: -1,
      bodySize: e.status === null ? -1 : Buffer.byteLength(responseText),
    },
    cache: {},
    timings: { send: 0, wait: e.durationMs, receive: 0 },
    _id: e.id,
    _api: e.api,
    _decidedBy: e.decidedBy,
    _scenario: e.scenario,
    _fault: e.fault,
  };
}

/** A HAR 1.2 log of `entries` (given newest first, as the journal lists them), for requests made to `origin`. */
export function harLog(entries: JournalEntry[], origin: string) {
  return {
    log: {
      version: "1.2",
      creator: { name: "loyalty-sim", version: VERSION },
      entries: entries.toReversed().map((e) => entry(e, origin)),
    },
  };
}
