/**
 * The `--data` file's text, written again at every flush. A shop's ledger is most of it (500k
 * activities are about 70 MB of JSON) and only ever grows at its end: entries are appended and
 * never changed (see ShopStore.appendActivity). So the text of the entries already written is kept
 * and only new entries are serialised; everything else is serialised afresh. Serialising the whole
 * state each time stalled the event loop for 0.5-0.7 s per flush at 100k customers.
 * @module
 */
import type { ActivityRecord } from "./types.js";
import type { SavedState } from "./data-file.js";

/** The JSON text of a ledger's first `count` entries, without the brackets. */
interface LedgerText {
  count: number;
  text: string;
}

export class StateText {
  /** Keyed by the array itself: a reset or a new shop brings a new array, and starts over. The
   * store only ever appends to a ledger array (never removes or replaces an entry in it). */
  readonly #ledgers = new WeakMap<readonly ActivityRecord[], LedgerText>();

  /** The same document as `JSON.stringify(state)`, with each shop's `activities` written last. */
  stringify(state: SavedState): string {
    const { shops, ...top } = state;
    const shopTexts = shops.map(({ spec, data }) => {
      const { activities, ...rest } = data;
      // '{"spec":{..},"data":{..}}': the ledger goes in before the two closing braces.
      const head = JSON.stringify({ spec, data: rest });
      return `${head.slice(0, -2)},"activities":[${this.#ledger(activities)}]}}`;
    });
    return `${JSON.stringify(top).slice(0, -1)},"shops":[${shopTexts.join(",")}]}`;
  }

  #ledger(activities: readonly ActivityRecord[]): string {
    let kept = this.#ledgers.get(activities);
    if (kept === undefined) {
      kept = { count: 0, text: "" };
      this.#ledgers.set(activities, kept);
    }
    if (kept.count < activities.length) {
      const added = JSON.stringify(activities.slice(kept.count)).slice(1, -1);
      kept.text = kept.count === 0 ? added : `${kept.text},${added}`;
      kept.count = activities.length;
    }
    return kept.text;
  }
}
