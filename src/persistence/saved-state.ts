/**
 * What a `--data` file holds, and what the simulator hands the data file to write: each shop's
 * spec and store, whose customer versions tell which groups of customers changed since a flush.
 * @module
 */
import type { ShopSpec } from "../engine/engine.js";
import type { ShopStore } from "../store/shop-store.js";
import type { ShopData } from "../store/types.js";

export const DATA_FORMAT = "loyalty-sim-state";
/** Bump when the saved shape changes; older files are then refused with a clear message. */
export const DATA_VERSION = 1;

/** The file as read. */
export interface SavedState {
  format: typeof DATA_FORMAT;
  version: number;
  savedAt: string;
  shops: { spec: ShopSpec; data: ShopData }[];
}

export interface ShopSnapshot {
  spec: ShopSpec;
  store: ShopStore;
}

/** The file as written: the stores themselves, whose data is written. */
export interface Snapshot extends Omit<SavedState, "shops"> {
  shops: readonly ShopSnapshot[];
}

/** The simulator's shops as the data file sees them (the engine, handed in by whoever builds both). */
export interface ShopStates {
  /** Every shop as it stands now, in order. */
  snapshot(): readonly ShopSnapshot[];
  /** Takes the shops of the file, read at start. */
  restore(shops: readonly ShopSnapshot[]): void;
}
