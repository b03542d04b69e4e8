/**
 * Scenario fields that need more than a type: bodies that can be written out again. Each is
 * refused when the scenario is added (422 naming the field), never found out on every matching request.
 * @module
 */
import { z } from "zod";
import { TOO_DEEP, valueTooDeep } from "../http/json-depth.js";

type Check = (value: unknown, ctx: z.RefinementCtx) => void;

/** `schema`, with `check` run first on the value as written. */
const checkedFirst = <S extends z.ZodType>(check: Check, schema: S) =>
  z.preprocess((value, ctx) => {
    check(value, ctx);
    return value;
  }, schema);

const boundedDepth: Check = (value, ctx) => {
  if (valueTooDeep(value)) ctx.addIssue({ code: "custom", message: TOO_DEEP, input: value });
};

/** Any JSON value, at most MAX_JSON_DEPTH deep. */
export const jsonValue = () => checkedFirst(boundedDepth, z.unknown());

/** An object to match partially, at most MAX_JSON_DEPTH deep. */
export const matchObject = () => checkedFirst(boundedDepth, z.record(z.string(), z.unknown()));
