/**
 * A write storm against a running CLI: loops awarding 1 stamp round-robin until the server goes
 * away or the storm is stopped, counting what was sent and what was acknowledged.
 * @module
 */

/** The default shop's credentials, as the CLI seeds them. */
export const HEADERS = { "X-Api-Key": "sim_key", "X-Api-Secret": "sim_secret", "Content-Type": "application/json" };

export interface Storm {
  /** Awards answered 200, and awards sent, per customer id. */
  acked: Map<string, number>;
  sent: Map<string, number>;
  /** Answers other than 200 (there must be none). */
  unexpected: string[];
  /** Ends the loops after their current request. */
  stop(): void;
  done: Promise<void>;
}

/** `inFlight` loops awarding 1 stamp round-robin over `ids` until the server goes away (or `stop()`). */
export function storm(origin: string, ids: string[], inFlight = 8): Storm {
  const acked = new Map(ids.map((id) => [id, 0]));
  const sent = new Map(ids.map((id) => [id, 0]));
  const unexpected: string[] = [];
  let next = 0;
  let over = false;
  const worker = async () => {
    while (!over) {
      const id = ids[next++ % ids.length]!;
      sent.set(id, sent.get(id)! + 1);
      try {
        const res = await fetch(`${origin}/rest_api/v1/customers/${id}/stamps/award`, { method: "POST", headers: HEADERS, body: JSON.stringify({ stamps: 1 }) });
        const text = await res.text();
        if (res.status === 200) acked.set(id, acked.get(id)! + 1);
        else unexpected.push(`${res.status} ${text}`);
      } catch {
        over = true; // the server is gone
      }
    }
  };
  return { acked, sent, unexpected, stop: () => void (over = true), done: Promise.all(Array.from({ length: inFlight }, worker)).then(() => undefined) };
}

export const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
