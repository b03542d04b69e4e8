/**
 * `loyalty-sim verify`: the same checks run against any target (production, a simulator on a
 * port, or one started in process) to measure where it and the simulator's contract differ.
 * @module
 */
export { verify, type VerifyDeps, type VerifyResult } from "./run.js";
export { parseVerifyOptions, VerifyUsageError, REPORT_FORMATS, type VerifyOptions, type ReportFormat } from "./options.js";
export { TargetError, REQUEST_BUDGET, MAX_PER_SECOND } from "./client.js";
export { ReadOnlyViolation } from "./read-only.js";
export { CHECKS, type Basis, type Check } from "./checks/index.js";
export { textReport, renderReport, redact, safeReport, exitCodeOf, type Report, type CheckReport, type Status } from "./report/index.js";
