/**
 * Writes sent again after their answer was lost: each write that committed and lost its answer
 * is remembered by a digest of who sent it, the operation, the customer and the body; a later
 * write of the same digest that wrote again is a duplicate write. Both lists are bounded.
 * @module
 */
import { createHash } from "node:crypto";
import type { Exchange } from "../http/exchange.js";
import { requestHeader } from "../http/request-input.js";
import type { DuplicateWrite } from "./report.js";

/** Lost writes a shop remembers (the oldest is forgotten first), and duplicate writes it lists. */
export const DUPLICATE_LIMITS = { lostWrites: 1000, duplicates: 1000, requestIdChars: 128 } as const;

/** JSON text with its object keys sorted, so a body sent again with its keys in another order or spaced otherwise is the same body. */
function canonical(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
      value !== null && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : value,
    );
  } catch {
    return text;
  }
}

/**
 * The client, as a user would tell one: the same credential (API key) and the same
 * `User-Agent`. Not its address: a retry may come on a new connection, and the socket of an answer
 * lost to a reset has none left to read.
 */
function clientOf(exchange: Exchange): string {
  const { c } = exchange;
  return `${requestHeader(c, "x-api-key") ?? ""}\n${requestHeader(c, "user-agent") ?? ""}`;
}

export class WriteMemory {
  /** Digest -> the request id of the write that lost its answer, oldest first. */
  readonly #lost = new Map<string, string>();
  readonly duplicates: DuplicateWrite[] = [];

  /** Whether a write can be a repeat: some write of this shop lost its answer. */
  get watching(): boolean {
    return this.#lost.size > 0;
  }

  /**
   * A write that wrote (`lost`: and lost its answer): listed when it repeats one that lost its
   * answer; remembered when it lost its own. `target` tells apart what the body does not (the
   * REST path, with its ids; the GraphQL root field's response key).
   */
  wrote(exchange: Exchange, operation: string, customerId: string | null, target: string, lost: boolean): void {
    const digest = createHash("sha256")
      .update([clientOf(exchange), operation, customerId ?? "", target, canonical(exchange.body ?? "")].join("\0"))
      .digest("base64url");
    const requestId = (exchange.headers["X-Request-Id"] ?? "").slice(0, DUPLICATE_LIMITS.requestIdChars);
    const first = this.#lost.get(digest);
    if (first !== undefined && this.duplicates.length < DUPLICATE_LIMITS.duplicates) {
      this.duplicates.push({ operation, customerId, first, repeat: requestId, idempotencyKey: requestHeader(exchange.c, "idempotency-key") !== undefined });
    }
    if (!lost || first !== undefined) return;
    if (this.#lost.size >= DUPLICATE_LIMITS.lostWrites) this.#lost.delete(this.#lost.keys().next().value!);
    this.#lost.set(digest, requestId);
  }
}
