/**
 * import's options, validated by one schema; a problem names the flag (`--customers: ...`) and is a
 * usage error (exit code 2).
 * @module
 */
import { z } from "zod";
import { API_BASE } from "../http/base.js";
import { optionLines } from "../zod-issues.js";

/** A wrong usage: a bad or missing option. Exit code 2. */
export class ImportUsageError extends Error {
  override readonly name = "ImportUsageError";
}

export const KEY_VAR = "LOYALTY_SIM_IMPORT_API_KEY";
export const SECRET_VAR = "LOYALTY_SIM_IMPORT_API_SECRET";
export const SALT_VAR = "LOYALTY_SIM_IMPORT_SALT";

const FLAGS: Record<string, string> = {
  from: "--from",
  apiKey: "--api-key",
  apiSecret: "--api-secret",
  out: "--out",
  force: "--force",
  customers: "--customers",
  activities: "--activities",
  salt: "--salt",
  remapIds: "--remap-ids",
  keepPersonalData: "--keep-personal-data",
  plan: "--plan",
};

const FROM_HELP = "give the service's origin (scheme, host and port), such as https://stamp.appydesign.io, or its API base (.../rest_api/v1)";

/** The origin of a URL that names no more than an origin (its API base allowed); else why not. */
function originOf(from: string): { origin: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(from);
  } catch {
    return { problem: `is not a URL: ${FROM_HELP}` };
  }
  // Not echoed: the URL holds a credential.
  if (url.username !== "" || url.password !== "") return { problem: "holds credentials: give them in --api-key and --api-secret, never in the URL" };
  const path = url.pathname.replace(/\/$/, "");
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search !== "" || url.hash !== "" || (path !== "" && path !== API_BASE)) return { problem: FROM_HELP };
  return { origin: url.origin };
}

/** The most customers one import reads (`--customers`, and `all`). */
export const MAX_CUSTOMERS = 10_000_000;

const count = (max: number) =>
  z.union([z.int().min(0).max(max), z.string().regex(/^\d+$/, "must be a number of digits").transform(Number).pipe(z.int().max(max))]);

export const ImportOptionsSchema = z
  .strictObject({
    from: z.string({ error: `is required: ${FROM_HELP}` }).transform((from, ctx) => {
      const found = originOf(from);
      if ("origin" in found) return found.origin;
      ctx.addIssue({ code: "custom", message: found.problem });
      return z.NEVER;
    }),
    apiKey: z.string().min(1).optional(),
    apiSecret: z.string().min(1).optional(),
    out: z.string().min(1).optional(),
    /** Replace `out` even when it is not a file an import wrote. */
    force: z.boolean().default(false),
    /** How many customers, oldest first, or all of them. */
    customers: z.union([z.literal("all"), count(MAX_CUSTOMERS)], { error: "must be a number of customers (0 for none) or all" }).default(50),
    /** The newest activities kept of each customer. */
    activities: count(1_000_000).pipe(z.int().min(1, "must be at least 1")).default(100),
    salt: z.string().min(1).optional(),
    remapIds: z.boolean().default(false),
    keepPersonalData: z.boolean().default(false),
    plan: z.boolean().default(false),
  })
  .superRefine((options, ctx) => {
    if (options.plan) return;
    if (options.out === undefined) ctx.addIssue({ code: "custom", path: ["out"], message: "is required: the fixture file to write" });
    if (options.apiKey === undefined) ctx.addIssue({ code: "custom", path: ["apiKey"], message: `is required (or set ${KEY_VAR})` });
    if (options.apiSecret === undefined) ctx.addIssue({ code: "custom", path: ["apiSecret"], message: `is required (or set ${SECRET_VAR})` });
  });

export type ImportOptions = z.input<typeof ImportOptionsSchema>;
export type CheckedImportOptions = z.output<typeof ImportOptionsSchema>;

export function parseImportOptions(options: ImportOptions): CheckedImportOptions {
  const result = ImportOptionsSchema.safeParse(options);
  if (result.success) return result.data;
  throw new ImportUsageError(optionLines(result.error.issues, FLAGS));
}
