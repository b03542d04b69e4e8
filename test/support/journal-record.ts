/**
 * A journal record as the recorder hands it over: a REST `getCustomer` answered 200, for tests
 * of the journal to change what they look at.
 * @module
 */
import type { JournalRecord } from "../../src/http/journal/record.js";

export function record(overrides: Partial<JournalRecord> = {}): JournalRecord {
  return {
    id: 0,
    at: Date.UTC(2026, 10, 23, 12, 0, 0, 250),
    shopId: "1",
    method: "GET",
    path: "/rest_api/v1/customers/6677889900",
    url: "http://127.0.0.1:4747/rest_api/v1/customers/6677889900",
    operation: "getCustomer",
    customerId: "6677889900",
    requestHeaders: "X-Api-Key\nsim_key\n",
    requestText: "",
    requestType: null,
    status: 200,
    fault: null,
    responseHeaders: "X-Request-Id\nreq_000001\nContent-Type\napplication/json\n",
    responseText: '{"success":true}',
    responseType: "application/json",
    committed: null,
    durationMs: 0.37,
    decidedBy: "handler",
    scenario: null,
    graphqlText: null,
    notes: null,
    quotaEnd: null,
    ...overrides,
  };
}
