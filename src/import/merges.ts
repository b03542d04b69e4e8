/**
 * A merged customer points at the one it was merged into: that one is read too, so the reference
 * holds in the file; and so is the one it was merged into, and so on. The source drives this walk,
 * so each id is followed once, a chain that comes back on itself stops the import, and so does one
 * that goes on past MAX_MERGE_DEPTH customers not listed (their records only are read by then).
 * @module
 */
import type { z } from "@hono/zod-openapi";
import { SourceError, type PoliteReader } from "./client.js";

/** Customers read, one after another, along one chain of merges before the import gives up on it. */
export const MAX_MERGE_DEPTH = 10;

interface Merged {
  id: string;
  mergedIntoCustomerId?: string | undefined;
}

/**
 * The customers `listed` were merged into, directly or along a chain, that are not listed: their
 * records, read with `readRecord`, in the order first met.
 */
export async function mergeTargets<C extends Merged>(reader: PoliteReader, listed: readonly C[], readRecord: (id: string) => Promise<C>): Promise<C[]> {
  const known = new Map<string, C>(listed.map((c) => [c.id, c]));
  /** Ids whose chain was followed to its end. */
  const ended = new Set<string>();
  const targets: C[] = [];
  for (const start of listed) {
    const chain: string[] = [];
    // A chain may run through every customer listed: its members are looked up, not searched.
    const inChain = new Set<string>();
    let at: C = start;
    let read = 0;
    while (!ended.has(at.id)) {
      chain.push(at.id);
      inChain.add(at.id);
      const into = at.mergedIntoCustomerId;
      if (into === undefined) break;
      if (into === at.id) throw new SourceError(`customer ${into} was merged into itself: the source's merges go round; nothing was written`);
      if (inChain.has(into)) throw new SourceError(`${described(chain)}, who was merged back into customer ${into}: the source's merges go round; nothing was written`);
      let next = known.get(into);
      if (next === undefined) {
        if (++read > MAX_MERGE_DEPTH) {
          throw new SourceError(`customer ${start.id} was merged into a customer who was merged into another, more than ${MAX_MERGE_DEPTH} deep: the source's merges never end, so the import stopped after ${reader.sent} requests; nothing was written`);
        }
        next = await readRecord(into);
        if (next.id !== into) throw new SourceError(`asked for customer ${into}, whom customer ${at.id} was merged into, the source answered customer ${next.id}; nothing was written`);
        known.set(into, next);
        targets.push(next);
      }
      at = next;
    }
    for (const id of chain) ended.add(id);
  }
  return targets;
}

/** `customer A was merged into customer B, who was merged into customer C`, long chains shortened. */
function described(chain: readonly string[]): string {
  const shown = chain.length > 4 ? [...chain.slice(0, 2), "...", ...chain.slice(-1)] : chain;
  return `customer ${shown[0]} was merged into ${shown.slice(1).map((id) => (id === "..." ? "..." : `customer ${id}`)).join(", who was merged into ")}`;
}
