/**
 * The one way a request carrying a shop's real credentials (verify, import) reaches the service
 * and its answer comes back: never a redirect followed (a 3xx is an answer of its own, refused by
 * the caller with where it pointed), never more of an answer read than `maxBytes`, never longer
 * than `timeoutMs` for the request and its body together. A failure is an `OutboundError` whose
 * message is a phrase the caller prefixes with the request it sent.
 * @module
 */
import { fetchFailure } from "./client-answers.js";

/** The most one answer may hold (docs/limits.md): a page of 1,000 customers is about 1 MiB. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** A request and the reading of its answer, together. */
export const OUTBOUND_TIMEOUT_MS = 30_000;

/** Why an answer could not be used: none came, a redirect, too large, or it broke off half-way. */
export type OutboundFailure = "no-answer" | "redirect" | "too-large" | "broke-off";

/** The target gave no answer the caller can use; `message` says why, in a phrase; `kind` lets the caller word it its own way. */
export class OutboundError extends Error {
  override readonly name = "OutboundError";
  constructor(
    message: string,
    readonly kind: OutboundFailure = "no-answer",
    /** For "no-answer", the reason alone (ECONNREFUSED, no answer within 30 s), without "no answer: ". */
    readonly reason: string = message,
  ) {
    super(message);
  }
}

export interface OutboundAnswer {
  status: number;
  headers: Headers;
  /** The body as UTF-8 text, at most `maxBytes` of it. */
  text: string;
  /** The bytes the body held, as received. */
  bytes: number;
}

export interface OutboundOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * Sends `init` to `url` with `redirect: "manual"`. A 3xx is refused here, naming where it pointed
 * (credentials and a write stay with the origin the user named); a `Content-Length` or a body over
 * `maxBytes` ends the read there, so memory stays flat whatever the target sends.
 */
export async function sendOutbound(fetchImpl: typeof fetch, url: string, init: RequestInit, options: OutboundOptions = {}): Promise<OutboundAnswer> {
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
  let res: Response;
  try {
    res = await fetchImpl(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason = fetchFailure(error, timeoutMs);
    throw new OutboundError(`no answer: ${reason}`, "no-answer", reason);
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => undefined);
    throw new OutboundError(redirectProblem(res.status, res.headers.get("location"), url), "redirect");
  }
  const declared = Number(res.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new OutboundError(tooLarge(maxBytes, `it declared ${declared} bytes`), "too-large");
  }
  return { status: res.status, headers: res.headers, ...(await readWithin(res, maxBytes, timeoutMs)) };
}

async function readWithin(res: Response, maxBytes: number, timeoutMs: number): Promise<{ text: string; bytes: number }> {
  if (res.body === null) return { text: "", bytes: 0 };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new OutboundError(tooLarge(maxBytes, "it went on past that"), "too-large");
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof OutboundError) throw error;
    throw new OutboundError(`the answer broke off: ${fetchFailure(error, timeoutMs)}`, "broke-off");
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), bytes };
}

const tooLarge = (maxBytes: number, why: string) =>
  `the answer is larger than ${maxBytes} bytes (${why}), the most loyalty-sim reads of one answer (docs/limits.md); nothing more was read`;

/**
 * Why a 3xx is refused, and where it pointed: scheme, host, port and path only (no user info or
 * query, which may hold tokens), control characters dropped so a hostile value cannot rewrite the
 * terminal, and shortened.
 */
export function redirectProblem(status: number, location: string | null, from: string): string {
  const to = location === null ? "nowhere (no Location)" : describeLocation(location, from);
  return `answered ${status}, a redirect to ${to}: loyalty-sim never follows a redirect with the shop's credentials (nor re-sends a write); give the origin that answers itself`;
}

export function describeLocation(location: string, from: string): string {
  let text: string;
  try {
    const url = new URL(location, from);
    text = `${url.protocol}//${url.host}${url.pathname}`;
    if (new URL(from).protocol === "https:" && url.protocol !== "https:") text += " (from https to plain http)";
  } catch {
    text = "an address that is not a URL";
  }
  // eslint-disable-next-line no-control-regex
  text = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
