/** @module import's own failures (the source's are SourceError, client.ts). */

/** The fixture made from the source cannot be made or does not load: nothing is written. Exit code 1. */
export class ImportError extends Error {
  override readonly name = "ImportError";
}
