/** @module The customer operations: list, read, the app-owned changes, and a VIP tier. */
import { z } from "@hono/zod-openapi";
import { DAYS_IN_MONTH } from "../engine/customers.js";
import { integer, recordId as recordIdNumber } from "../http/integers.js";
import { comment, CustomerParams, notes, notesArgs, pageArgs, pageQuery, PageQuerySchema } from "./inputs.js";
import { operation, resource } from "./operation.js";
import { CustomerSchema, CustomerSummarySchema } from "./shapes.js";
import { body, input, pathId, query, recordId } from "./twin.js";

const tags = ["Customers"];

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

export const SetTierBody = z
  .object({
    tier_id: recordIdNumber().openapi({ description: "Tier to assign (id from the tiers list)", example: 2 }),
    trigger_rewards: z.boolean().optional().openapi({ description: "Also issue the tier's rewards. Default false" }),
    comment: comment("Customer-facing note"),
    internal_comment: comment("Staff-only note"),
  })
  .openapi("SetTierRequest");

const SUMMARY = "The updated customer (without `nextReward`, which only GET /customers/{id} returns)";

export const customers = resource({
  listCustomers: operation({
    method: "get",
    path: "/customers",
    tags,
    summary: "List customers",
    description: "Cursor-paginated list of the shop's customers, oldest first. `email` matches case-insensitively and may return several customers.",
    query: PageQuerySchema.extend({
      email: z.string().max(320).optional().openapi({ description: "Only customers with this email (any case)" }),
    }),
    answer: { kind: "page", description: "A page of customers", schema: CustomerSummarySchema },
    run: (shop, { query }) => shop.listCustomers(query.email !== undefined ? { email: query.email } : {}, pageQuery(query)),
    graphql: {
      field: "customers",
      description: "A page of the shop's customers, oldest first.",
      args: {
        email: query("email", "String", "Only customers with this email address (case-insensitive; several customers may share one)."),
        ...pageArgs("matching customers"),
      },
      returns: "CustomerConnection!",
    },
  }),
  getCustomer: operation({
    method: "get",
    path: "/customers/{id}",
    tags,
    summary: "Get a customer",
    description: "One customer, including the next reward they are working towards.",
    params: CustomerParams,
    answer: { kind: "one", description: "The customer", schema: CustomerSchema },
    errors: ["CUSTOMER_NOT_FOUND"],
    run: (shop, { params }) => shop.getCustomer(params.id),
    graphql: {
      field: "customer",
      description: "One customer by commerce-platform (Shopify) id, with nextReward; null (with a CUSTOMER_NOT_FOUND error) when unknown.",
      args: { id: pathId("id") },
      returns: "Customer",
    },
  }),
  updateCustomer: operation({
    method: "patch",
    path: "/customers/{id}",
    tags,
    summary: "Update a customer",
    description: "Updates app-owned fields: birthday (both fields together) and program exclusion. Name, email and phone belong to the commerce platform.",
    params: CustomerParams,
    body: UpdateCustomerBody,
    answer: { kind: "one", description: SUMMARY, schema: CustomerSummarySchema },
    errors: ["CUSTOMER_NOT_FOUND"],
    run: (shop, { params, body }) =>
      shop.updateCustomer(params.id, {
        ...(body.birthday_month !== undefined && body.birthday_day !== undefined && { birthday: { month: body.birthday_month, day: body.birthday_day } }),
        ...(body.excluded !== undefined && { excluded: body.excluded }),
      }),
    graphql: {
      field: "updateCustomer",
      description: "Changes the app-owned fields of a customer (birthday, exclusion); null (with CUSTOMER_NOT_FOUND) when unknown.",
      args: { id: pathId("id"), input: input("UpdateCustomerInput!", { birthdayMonth: "birthday_month", birthdayDay: "birthday_day", excluded: "excluded" }) },
      returns: "Customer",
    },
  }),
  setCustomerTier: operation({
    method: "post",
    path: "/customers/{id}/tier",
    tags,
    summary: "Assign a VIP tier",
    description: "Sets the customer's VIP tier; with `trigger_rewards` also issues one code per tier reward at no cost.",
    params: CustomerParams,
    body: SetTierBody,
    answer: { kind: "one", description: SUMMARY, schema: CustomerSummarySchema },
    errors: ["CUSTOMER_NOT_FOUND", "TIER_NOT_FOUND", "ACTIVITY_NOT_AWARDED"],
    run: (shop, { params, body }) => shop.setCustomerTier(params.id, { tierId: body.tier_id, triggerRewards: body.trigger_rewards ?? false, ...notes(body) }),
    graphql: {
      field: "setCustomerTier",
      description: "Assigns a VIP tier; with triggerRewards true also issues the tier's rewards. Absent or null triggerRewards means false.",
      args: { customerId: pathId("id"), tierId: recordId("tier_id"), triggerRewards: body("trigger_rewards", "Boolean"), ...notesArgs },
      returns: "Customer!",
      // REST refuses a removed or merged customer's tier change as any change of theirs; GraphQL documents a code of its own.
      codes: { ACTIVITY_NOT_AWARDED: "TIER_UPDATE_FAILED" },
    },
  }),
});
