/** @module `loyalty-sim import`: production's program and customers as a fixture, personal data left behind. */
export { runImport, LeakError, ImportError, type ImportDeps, type ImportResult } from "./run.js";
export { SourceError } from "./client.js";
export { ImportUsageError, KEY_VAR, SECRET_VAR, SALT_VAR, type ImportOptions } from "./options.js";
