/** @module Route contracts of the customer endpoints. */
import { z } from "@hono/zod-openapi";
import { apiRoute } from "../../http/router.js";
import { DAYS_IN_MONTH } from "../../engine/customers.js";
import { integer, recordId } from "../../http/integers.js";
import { comment, CustomerParams, PageQuerySchema } from "../../http/params.js";
import { CustomerSchema, CustomerSummarySchema, envelope, pagedEnvelope } from "../../http/schemas.js";

const tags = ["Customers"];

export const listCustomers = apiRoute({
  method: "get",
  path: "/customers",
  operationId: "listCustomers",
  tags,
  summary: "List customers",
  description: "Cursor-paginated list of the shop's customers, oldest first. `email` matches case-insensitively and may return several customers.",
  request: {
    query: PageQuerySchema.extend({
      email: z.string().max(320).optional().openapi({ description: "Only customers with this email (any case)" }),
    }),
  },
  success: { description: "A page of customers", schema: pagedEnvelope(CustomerSummarySchema) },
});

export const getCustomer = apiRoute({
  method: "get",
  path: "/customers/{id}",
  operationId: "getCustomer",
  tags,
  summary: "Get a customer",
  description: "One customer, including the next reward they are working towards.",
  request: { params: CustomerParams },
  success: { description: "The customer", schema: envelope(CustomerSchema) },
  errors: ["CUSTOMER_NOT_FOUND"],
});

const OWNED = "is owned by the commerce platform and cannot be changed here";
/** The platform's fields: listed, so the document refuses them by name (`not: {}`) as the check below does. */
const owned = () => z.unknown().optional().openapi({ not: {}, description: `Refused: ${OWNED}` });
const PLATFORM_FIELDS = { firstName: owned(), lastName: owned(), email: owned(), phone: owned(), first_name: owned(), last_name: owned() };

/** Months shorter than 31 days, by their length: a birthday on a day the month lacks is refused. */
const shortMonths = new Map<number, number[]>();
DAYS_IN_MONTH.forEach((days, i) => days < 31 && shortMonths.set(days, [...(shortMonths.get(days) ?? []), i + 1]));

/** What JSON Schema says of the body beyond each field, as the check below and the engine do: the birthday pair, a day the month has. */
const bodyRules = {
  dependentRequired: { birthday_month: ["birthday_day"], birthday_day: ["birthday_month"] },
  allOf: [...shortMonths].map(([days, months]) => ({
    if: { properties: { birthday_month: { enum: months } }, required: ["birthday_month"] },
    then: { properties: { birthday_day: { maximum: days } } },
  })),
};

export const UpdateCustomerBody = z
  .object({
    birthday_month: integer(1, 12).optional().openapi({ description: "1 to 12; send with birthday_day" }),
    birthday_day: integer(1, 31).optional().openapi({ description: "1 to 31, a day the month has (at most 29 in February); send with birthday_month" }),
    excluded: z.boolean().optional().openapi({ description: "`true` removes the customer from the program; `false` re-includes them" }),
    ...PLATFORM_FIELDS,
  })
  .loose()
  .superRefine((body, ctx) => {
    const hasMonth = body.birthday_month !== undefined;
    const hasDay = body.birthday_day !== undefined;
    if (hasMonth !== hasDay) {
      const missing = hasMonth ? "birthday_day" : "birthday_month";
      ctx.addIssue({ code: "custom", path: [missing], message: `is required when ${hasMonth ? "birthday_month" : "birthday_day"} is sent` });
    }
    for (const key of Object.keys(PLATFORM_FIELDS)) {
      if (key in body) ctx.addIssue({ code: "custom", path: [key], message: OWNED });
    }
  })
  .openapi("UpdateCustomerRequest", { description: "Fields not listed here are ignored.", ...bodyRules });

export const updateCustomer = apiRoute({
  method: "patch",
  path: "/customers/{id}",
  operationId: "updateCustomer",
  tags,
  summary: "Update a customer",
  description: "Updates app-owned fields: birthday (both fields together) and program exclusion. Name, email and phone belong to the commerce platform.",
  request: {
    params: CustomerParams,
    body: { required: true, content: { "application/json": { schema: UpdateCustomerBody } } },
  },
  success: { description: "The updated customer (without `nextReward`, which only GET /customers/{id} returns)", schema: envelope(CustomerSummarySchema) },
  errors: ["CUSTOMER_NOT_FOUND"],
});

export const SetTierBody = z
  .object({
    tier_id: recordId().openapi({ description: "Tier to assign (id from the tiers list)", example: 2 }),
    trigger_rewards: z.boolean().optional().openapi({ description: "Also issue the tier's rewards. Default false" }),
    comment: comment("Customer-facing note"),
    internal_comment: comment("Staff-only note"),
  })
  .openapi("SetTierRequest");

export const setCustomerTier = apiRoute({
  method: "post",
  path: "/customers/{id}/tier",
  operationId: "setCustomerTier",
  tags,
  summary: "Assign a VIP tier",
  description: "Sets the customer's VIP tier; with `trigger_rewards` also issues one code per tier reward at no cost.",
  request: {
    params: CustomerParams,
    body: { required: true, content: { "application/json": { schema: SetTierBody } } },
  },
  success: { description: "The updated customer (without `nextReward`, which only GET /customers/{id} returns)", schema: envelope(CustomerSummarySchema) },
  errors: ["CUSTOMER_NOT_FOUND", "TIER_NOT_FOUND", "ACTIVITY_NOT_AWARDED"],
});
