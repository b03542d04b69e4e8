/**
 * verify's options, validated by one schema; a problem names the flag (`--customer: ...`) and is a
 * usage error (exit code 2).
 * @module
 */
import { z } from "@hono/zod-openapi";
import { API_BASE } from "../http/base.js";
import { RECORD_ID } from "../engine/pagination.js";
import { optionLines } from "../zod-issues.js";

/** A wrong usage: a bad option, or a waiver file that does not read. Exit code 2. */
export class VerifyUsageError extends Error {
  override readonly name = "VerifyUsageError";
}

export const REPORT_FORMATS = ["json", "junit", "markdown"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The flag of each option, as errors name them. */
const FLAGS: Record<string, string> = {
  target: "--target",
  apiKey: "--api-key",
  apiSecret: "--api-secret",
  allowWrites: "--allow-writes",
  customer: "--customer",
  plan: "--plan",
  reports: "--report",
  waivers: "--waivers",
};

const TARGET_HELP = "give self, or the service's origin (scheme, host and port) such as https://stamp.appydesign.io: verify adds the API paths";

/** `self`, or the origin of a URL that names no more than an origin (its API base is allowed); else why not. */
function originOf(target: string): { origin: string } | { problem: string } {
  if (target === "self") return { origin: target };
  const refused = { problem: `${JSON.stringify(target)} is not a target: ${TARGET_HELP}` };
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return refused;
  }
  // Not echoed: the URL holds a credential.
  if (url.username !== "" || url.password !== "") return { problem: `the target URL holds credentials: give them in --api-key and --api-secret, never in the URL` };
  const path = url.pathname.replace(/\/$/, "");
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "" || (path !== "" && path !== API_BASE)) return refused;
  return { origin: url.origin };
}

/** A credential goes in a header: visible Latin-1, spaces inside only. The message never echoes it. */
const credential = z
  .string()
  .min(1)
  .regex(/^[\u0021-\u007e\u00a0-\u00ff](?:[\u0020-\u007e\u00a0-\u00ff]*[\u0021-\u007e\u00a0-\u00ff])?$/, "holds a character an HTTP header cannot carry (a control character such as a newline, one beyond Latin-1, or a space at either end): check it was copied whole");

export const VerifyOptionsSchema = z
  .strictObject({
    target: z.string({ error: `is required: ${TARGET_HELP}` }).transform((target, ctx) => {
      const found = originOf(target);
      if ("origin" in found) return found.origin;
      ctx.addIssue({ code: "custom", message: found.problem });
      return z.NEVER;
    }),
    apiKey: credential.optional(),
    apiSecret: credential.optional(),
    allowWrites: z.boolean().default(false),
    customer: z.string().regex(RECORD_ID, "must be a customer id (1 to 20 digits)").optional(),
    plan: z.boolean().default(false),
    reports: z.array(z.strictObject({ format: z.enum(REPORT_FORMATS), file: z.string().min(1) })).default([]),
    waivers: z.string().min(1).optional(),
  })
  .superRefine((options, ctx) => {
    if (options.allowWrites && options.customer === undefined) {
      ctx.addIssue({ code: "custom", path: ["customer"], message: "is required with --allow-writes: the id of an active customer the run may change and put back" });
    }
    if (options.target !== "self" && !options.plan) {
      for (const key of ["apiKey", "apiSecret"] as const) {
        if (options[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: `is required for a target other than self (or set LOYALTY_SIM_VERIFY_${key === "apiKey" ? "API_KEY" : "API_SECRET"})` });
      }
    }
  });

export type VerifyOptions = z.input<typeof VerifyOptionsSchema>;
export type CheckedOptions = z.output<typeof VerifyOptionsSchema>;

export function parseVerifyOptions(options: VerifyOptions): CheckedOptions {
  const result = VerifyOptionsSchema.safeParse(options);
  if (result.success) return result.data;
  throw new VerifyUsageError(optionLines(result.error.issues, FLAGS));
}
