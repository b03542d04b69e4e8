/**
 * Every check and every step, in the order they run: the read checks (the default), then the
 * write checks (`--allow-writes`). Ids are stable across releases.
 * @module
 */
import type { Step } from "../plan.js";
import { activityChecks, activitySteps, activityWalk } from "./activities.js";
import type { Check } from "./check.js";
import { customerChecks, customerSteps, customerWalk } from "./customers.js";
import { envelopeChecks } from "./envelope.js";
import { errorChecks, errorSteps } from "./errors.js";
import { graphqlChecks, graphqlStep } from "./graphql.js";
import { cursorsCheck } from "./pagination.js";
import { programChecks, programSteps } from "./program.js";
import { codeChecks } from "./writes/codes.js";
import { customerWriteChecks } from "./writes/customer.js";
import { stampChecks } from "./writes/stamps.js";
import { precheck, writeSteps } from "./writes/steps.js";

export type { Basis, Check } from "./check.js";

export const READ_STEPS: readonly Step[] = [...programSteps, ...customerSteps, ...activitySteps, graphqlStep, ...errorSteps];

/** The steps of a run: a write run first checks its customer may be written, and writes after the reads. */
export function stepsOf(writes: boolean): Step[] {
  return writes ? [precheck, ...READ_STEPS, ...writeSteps] : [...READ_STEPS];
}

export const CHECKS: readonly Check[] = [
  ...envelopeChecks,
  ...programChecks,
  ...customerChecks,
  ...activityChecks,
  cursorsCheck("read.pagination.cursors", [customerWalk[0], activityWalk[0]], [...customerWalk.slice(1), ...activityWalk.slice(1)]),
  ...errorChecks,
  ...graphqlChecks,
  ...stampChecks,
  ...codeChecks,
  ...customerWriteChecks,
];
