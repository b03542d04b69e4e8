/**
 * The `--data` file's bytes, written again at every flush, as a list of UTF-8 chunks that are
 * kept between flushes where nothing in them changed:
 * - a shop's ledger is most of the file and only ever grows at its end: entries are appended and
 *   never changed (see ShopStore.appendActivity). The bytes of the entries already written are
 *   kept and only new entries are serialised;
 * - customers are kept in groups of GROUP_SIZE, each group's bytes with the store's change counter
 *   when they were made: a group is serialised again when one of its customers has a later
 *   version, or when it holds more or fewer customers;
 * - a shop's spec (its program, and the customers a fixture writes out, which can be many) never
 *   changes once the shop exists: its JSON text is made once;
 * - everything else (the program, codes, counters) is small and serialised afresh.
 * @module
 */
import type { ShopSpec } from "../engine/engine.js";
import type { ShopStore } from "../store/shop-store.js";
import type { ActivityRecord } from "../store/types.js";
import type { Snapshot } from "./saved-state.js";

/** Customers per group: small enough that a change re-serialises little, large enough that a flush writes few chunks. */
export const GROUP_SIZE = 1000;
/** New ledger bytes are merged into one chunk once they reach this size, so a long run writes few chunks. */
const SEAL_BYTES = 4 * 1024 * 1024;
const COMMA = Buffer.from(",");

/** A group of customers as last serialised: how many, the store's change counter then, and the bytes. */
interface CustomerGroup {
  count: number;
  writtenAt: number;
  bytes: Buffer;
}

/** A ledger's first `count` entries as bytes: large sealed chunks, then the newest ones. */
interface LedgerBytes {
  count: number;
  sealed: Buffer[];
  recent: Buffer[];
  recentBytes: number;
}

export class StateText {
  /** Keyed by the store and the ledger itself: a reset or a new shop brings new ones, and starts over. */
  readonly #groups = new WeakMap<ShopStore, CustomerGroup[]>();
  readonly #ledgers = new WeakMap<readonly ActivityRecord[], LedgerBytes>();
  readonly #specs = new WeakMap<ShopSpec, string>();

  /**
   * The document `JSON.stringify(state)` would write (with each shop's `customers` and
   * `activities` moved to the end of its `data`), as UTF-8 chunks to be written in order.
   */
  chunks(state: Snapshot): Buffer[] {
    const { shops, ...top } = state;
    const out: Buffer[] = [Buffer.from(`${openObject(JSON.stringify(top))}"shops":[`)];
    shops.forEach(({ spec, store }, i) => {
      const { customers: _customers, activities, ...rest } = store.data;
      let specText = this.#specs.get(spec);
      if (specText === undefined) this.#specs.set(spec, (specText = JSON.stringify(spec)));
      out.push(Buffer.from(`${i > 0 ? "," : ""}{"spec":${specText},"data":${openObject(JSON.stringify(rest))}"customers":[`));
      this.#customers(store, out);
      out.push(Buffer.from('],"activities":['));
      this.#ledger(activities, out);
      out.push(Buffer.from("]}}"));
    });
    out.push(Buffer.from("]}"));
    return out;
  }

  #customers(store: ShopStore, out: Buffer[]): void {
    const customers = store.data.customers;
    let groups = this.#groups.get(store);
    if (groups === undefined) this.#groups.set(store, (groups = []));
    const count = Math.ceil(customers.length / GROUP_SIZE);
    groups.length = Math.min(groups.length, count);
    for (let g = 0; g < count; g++) {
      const from = g * GROUP_SIZE;
      const to = Math.min(from + GROUP_SIZE, customers.length);
      let group = groups[g];
      if (group === undefined || group.count !== to - from || store.changedSince(from, to, group.writtenAt)) {
        group = { count: to - from, writtenAt: store.version, bytes: Buffer.from(JSON.stringify(customers.slice(from, to)).slice(1, -1)) };
        groups[g] = group;
      }
      if (g > 0) out.push(COMMA);
      out.push(group.bytes);
    }
  }

  #ledger(activities: readonly ActivityRecord[], out: Buffer[]): void {
    let kept = this.#ledgers.get(activities);
    if (kept === undefined || kept.count > activities.length) {
      kept = { count: 0, sealed: [], recent: [], recentBytes: 0 };
      this.#ledgers.set(activities, kept);
    }
    if (kept.count < activities.length) {
      const added = JSON.stringify(activities.slice(kept.count)).slice(1, -1);
      const bytes = Buffer.from(kept.count === 0 ? added : `,${added}`);
      kept.recent.push(bytes);
      kept.recentBytes += bytes.length;
      kept.count = activities.length;
      if (kept.recentBytes >= SEAL_BYTES) {
        kept.sealed.push(Buffer.concat(kept.recent));
        kept.recent = [];
        kept.recentBytes = 0;
      }
    }
    out.push(...kept.sealed, ...kept.recent);
  }
}

/** `{...}` left open for more members: `{"a":1` + `,` or, for `{}`, just `{`. */
function openObject(json: string): string {
  return json.length > 2 ? `${json.slice(0, -1)},` : "{";
}
