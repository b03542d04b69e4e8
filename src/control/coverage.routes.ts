/**
 * Route contracts of the coverage report: which outcomes of each operation the app under test
 * met, and the writes it sent again after their answer was lost (docs/coverage.md).
 * @module
 */
import { z } from "@hono/zod-openapi";
import { bug, controlRoute, json } from "./control.routes.js";
import { controlError, ShopKeyHeader } from "./control.schemas.js";

const count = (description: string) => z.int().min(0).openapi({ description });

export const CoverageCellSchema = z
  .object({
    outcome: z.string().openapi({ description: "`ok`, an error code (`INSUFFICIENT_STAMPS`), `fault:<kind>` or `lostAfterCommit`" }),
    count: count("Requests that ended so"),
    forced: count("Of them, those a scenario rule or the `Prefer` header decided"),
    rest: count("Of them, over REST"),
    graphql: count("Of them, over GraphQL (a root field each)"),
  })
  .openapi("SimCoverageCell");

export const DuplicateWriteSchema = z
  .object({
    operation: z.string(),
    customerId: z.string().nullable(),
    first: z.string().openapi({ description: "X-Request-Id of the write that committed and lost its answer" }),
    repeat: z.string().openapi({ description: "X-Request-Id of the same write sent again by the same client, which wrote again" }),
    idempotencyKey: z.boolean().openapi({ description: "Whether the repeat carried an Idempotency-Key header" }),
  })
  .openapi("SimDuplicateWrite");

export const CoverageReportSchema = z
  .object({
    shop: z.string().openapi({ description: "The shop's id, or `all`" }),
    summary: z.object({
      cells: count("Cells of the catalogue, over all operations"),
      covered: count("Of them, those at least one request met"),
      percent: z.number().min(0).max(100).openapi({ description: "covered / cells, in percent, to one decimal" }),
    }),
    operations: z.record(
      z.string(),
      z.object({
        cells: z.array(CoverageCellSchema).openapi({ description: "The operation's catalogue in order, then any other outcome it met (not counted in the summary)" }),
        missing: z.array(z.string()).openapi({ description: "Outcomes of the catalogue no request met" }),
      }),
    ),
    duplicateWrites: z.array(DuplicateWriteSchema),
  })
  .openapi("SimCoverage");

const CoverageQuery = z.object({
  shop: z.string().min(1).max(200).optional().openapi({ description: "The shop: its id or API key, or `all` for every shop of the process summed (else X-Api-Key; the default shop without either)" }),
});

const invalid = controlError("`VALIDATION_ERROR`: a `shop` or X-Api-Key that names no shop");

export const simGetCoverage = controlRoute({
  method: "get",
  path: "/__sim/coverage",
  operationId: "simGetCoverage",
  summary: "What the app's tests met",
  description:
    "Each operation's outcomes (success, each documented error, the cross-cutting answers, the network faults and, for a write, `lostAfterCommit`) with how many requests met each, forced or not, over REST and GraphQL; those none met; and the duplicate writes: a write sent again, same operation, customer and body, by the client whose first one committed and lost its answer. Counted apart from the journal (nothing is dropped), cleared by `POST /__sim/reset` and `DELETE /__sim/coverage`. Not journaled, not counted by the quota.",
  request: { headers: ShopKeyHeader, query: CoverageQuery },
  responses: { 200: json(CoverageReportSchema, "The coverage report"), 422: invalid, 500: bug },
});

export const simClearCoverage = controlRoute({
  method: "delete",
  path: "/__sim/coverage",
  operationId: "simClearCoverage",
  summary: "Forget the coverage counts",
  description: "Clears the shop's counts and duplicate writes (`?shop=all`: every shop's), and nothing else.",
  request: { headers: ShopKeyHeader, query: CoverageQuery },
  responses: { 204: { description: "Cleared" }, 422: invalid, 500: bug },
});
