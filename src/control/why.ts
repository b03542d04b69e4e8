/**
 * The "why" trace of one journal entry: the chain of checks that decided its answer, assembled
 * when read from what the journal stored (request, answer, decision notes) and the shop's active
 * scenario rules, whose near-misses are worked out again from the stored request.
 * @module
 */
import { isoTimestamp } from "../engine/clock.js";
import { belowApiBase } from "../http/base.js";
import { entryOf } from "../http/journal/journal.js";
import type { DecisionNotes, RuleSkip } from "../http/journal/notes.js";
import type { JournalEntry, JournalRecord } from "../http/journal/record.js";
import { pathGlob } from "../scenarios/glob.js";
import { parsePrefer } from "../scenarios/prefer.js";
import { firstMismatch, type MatchField, type RequestFacts, type ScenarioSummary } from "../scenarios/registry.js";
import { firstFailure, graphqlOutcome } from "./graphql-failures.js";
import type { RuleVerdict, WhyTrace } from "./why.schemas.js";

export interface WhyContext {
  /** The scenarios active now for the entry's shop (none for an entry that named no shop). */
  scenarios: ScenarioSummary[];
  /** The id of the shop this API key names now, if any. */
  shopOfKey(apiKey: string): string | undefined;
}

interface ErrorAnswer {
  code: string;
  message: string;
  details?: { in: string; path: string; message: string }[];
}

function errorOf(body: unknown): ErrorAnswer | undefined {
  const error = (body as { error?: Partial<ErrorAnswer> } | null)?.error;
  return typeof error?.code === "string" && typeof error.message === "string" ? (error as ErrorAnswer) : undefined;
}

const show = (value: unknown) => (value === undefined ? "nothing" : JSON.stringify(value));

/** The request as scenario rules see it, rebuilt from the journal entry. */
function factsOf(e: JournalEntry): RequestFacts {
  const headers = e.requestHeaders;
  const apiKey = headers["x-api-key"];
  return {
    method: e.method,
    path: belowApiBase(e.path),
    query: e.query,
    header: (name) => headers[name.toLowerCase()],
    body: e.requestBody,
    ...(e.operation !== null && { operation: e.operation }),
    ...(e.customerId !== null && { customerId: e.customerId }),
    ...(apiKey !== undefined && { apiKey }),
    // A GraphQL request's rules were matched per root field: its first one stands for it here.
    ...(e.graphql?.fields[0] && { graphql: { operationName: e.graphql.operationName, field: e.graphql.fields[0].field } }),
    shopId: e.shopId ?? "",
  };
}

/** Why `field` of `match` rules the request out, in words. */
function mismatchDetail(match: ScenarioSummary["rules"][number]["match"], field: MatchField, facts: RequestFacts): string {
  const m = match as Record<string, unknown>;
  if (field === "headers" || field === "query") {
    const wanted = m[field] as Record<string, string>;
    const actual = (name: string) => (field === "headers" ? facts.header(name) : Object.hasOwn(facts.query, name) ? facts.query[name] : undefined);
    const [name, value] = Object.entries(wanted).find(([k, v]) => actual(k) !== v)!;
    return `${field}.${name} must be ${show(value)}; the request has ${show(actual(name))}`;
  }
  if (field === "body") {
    const kept = typeof facts.body !== "string" || !/ characters, not kept\)$/.test(facts.body);
    return kept ? `the body must hold ${show(m.body)}; the request's is ${show(facts.body)}` : "the body must hold fields, and the request's was too large to keep";
  }
  const actual = field === "path" ? facts.path : (facts as unknown as Record<string, unknown>)[field];
  return `${field} must be ${show(m[field])}; the request's is ${show(actual)}`;
}

function skipDetail(skip: RuleSkip): { outcome: RuleVerdict["outcome"]; detail: string } {
  if (skip.skipped === "spent") return { outcome: "spent", detail: `matched, but its times: ${skip.times} were spent` };
  if (skip.skipped === "after") return { outcome: "after", detail: `matched, but after: ${skip.after} skips the first ${skip.after} matches; this was match ${skip.matches}` };
  return { outcome: "probability", detail: `matched, but the probability draw ${skip.draw} was not below ${skip.probability}` };
}

/** Each active rule in order: what ruled it out, skipped it, or made it decide. */
function ruleVerdicts(e: JournalEntry, reached: boolean, notes: DecisionNotes, context: WhyContext): RuleVerdict[] {
  const facts = factsOf(e);
  let decided = false;
  const verdicts: RuleVerdict[] = [];
  for (const scenario of context.scenarios) {
    for (const rule of scenario.rules) {
      const base = { scenario: scenario.name, rule: rule.index, ...(rule.name !== undefined && { ruleName: rule.name }) };
      if (!reached || decided) {
        verdicts.push({ ...base, outcome: "notReached", detail: decided ? "an earlier rule applied" : "an earlier step answered" });
        continue;
      }
      if (e.scenario?.scenario === scenario.name && e.scenario.rule === rule.index) {
        decided = true;
        const detail = e.decidedBy === "scenario" ? "matched and answered" : "matched: it delayed or counted the request, and the handler answered";
        verdicts.push({ ...base, outcome: "decided", detail });
        continue;
      }
      const field = firstMismatch(rule.match, rule.match.path === undefined ? undefined : pathGlob(rule.match.path), facts);
      if (field !== undefined) {
        verdicts.push({ ...base, outcome: "mismatch", field, detail: mismatchDetail(rule.match, field, facts) });
        continue;
      }
      const skip = notes.skips?.find((s) => s.scenario === scenario.name && s.rule === rule.index);
      verdicts.push({ ...base, ...(skip ? skipDetail(skip) : { outcome: "matchesNow" as const, detail: "matches this request now, but did not apply when it came (added or changed since)" }) });
    }
  }
  return verdicts;
}

function credentials(e: JournalEntry, error: ErrorAnswer | undefined, context: WhyContext): WhyTrace["credentials"] {
  if (e.shopId !== null) {
    if (e.decidedBy === "credentials") return { outcome: "refused", shopId: e.shopId, detail: `shop ${e.shopId}: ${error?.code ?? "refused"}: ${error?.message ?? ""}` };
    return { outcome: "passed", shopId: e.shopId, detail: `X-Api-Key and X-Api-Secret name shop ${e.shopId}` };
  }
  const key = e.requestHeaders["x-api-key"];
  const secret = e.requestHeaders["x-api-secret"];
  const shop = key === undefined ? undefined : context.shopOfKey(key);
  const why =
    key === undefined
      ? "no X-Api-Key header"
      : shop === undefined
        ? `X-Api-Key ${key} names no shop`
        : secret === undefined
          ? `X-Api-Key names shop ${shop}, but there was no X-Api-Secret header`
          : `X-Api-Key names shop ${shop}, but X-Api-Secret was not its secret`;
  return { outcome: "refused", shopId: null, detail: why };
}

function quota(record: JournalRecord, e: JournalEntry, notes: DecisionNotes): WhyTrace["quota"] {
  const headers = e.responseHeaders ?? {};
  // A scenario's limiter sends its own limit and count: the quota's were noted before.
  const limit = notes.quota?.limit ?? headers["x-ratelimit-limit"];
  if (e.shopId === null) return { outcome: "notReached", limit: null, remaining: null, windowEnd: null, detail: "the credentials named no shop" };
  if (limit === undefined) return { outcome: "off", limit: null, remaining: null, windowEnd: null, detail: "the shop has no hourly quota" };
  const remaining = notes.quota?.remaining ?? Number(headers["x-ratelimit-remaining"]);
  const windowEnd = record.quotaEnd === null ? null : isoTimestamp(record.quotaEnd);
  const refused = e.decidedBy === "quota";
  const detail = refused ? `all ${limit} requests of the window were used; it ends at ${windowEnd}` : `${remaining} of ${limit} left in the window after this request`;
  return { outcome: refused ? "refused" : "passed", limit: Number(limit), remaining, windowEnd, detail };
}

/** Which steps the request went through: each step is reached when nothing before it answered. */
function reachedSteps(e: JournalEntry, error: ErrorAnswer | undefined) {
  const preferRefused = e.decidedBy === "validation" && error?.details?.some((d) => d.in === "header" && d.path === "Prefer") === true;
  const notJson = e.decidedBy === "validation" && !preferRefused && error?.details?.some((d) => d.in === "header" && d.path === "Content-Type") === true;
  const order = ["credentials", "quota", "bodyCheck", "prefer", "scenarios", "handler"] as const;
  const stop =
    e.decidedBy === "credentials" ? (e.status === 401 ? 0 : 1)
    : e.decidedBy === "quota" ? 1
    : e.decidedBy === "bodyLimit" || notJson ? 2
    : e.decidedBy === "prefer" || preferRefused ? 3
    : e.decidedBy === "scenario" ? 4
    : 5;
  const reached = (step: (typeof order)[number]) => order.indexOf(step) <= stop;
  return { reached, preferRefused, notJson };
}

export function whyTrace(record: JournalRecord, context: WhyContext): WhyTrace {
  const e = entryOf(record);
  const notes: DecisionNotes = record.notes === null ? {} : (JSON.parse(record.notes) as DecisionNotes);
  const answer = e.committed ?? { status: e.status, body: e.responseBody };
  const error = errorOf(e.responseBody);
  const handlerError = errorOf(answer.body);
  const { reached, preferRefused, notJson } = reachedSteps(e, error);

  const preferHeader = e.requestHeaders.prefer ?? null;
  let prefer: WhyTrace["prefer"];
  if (!reached("prefer")) prefer = { outcome: "notReached", header: preferHeader, forced: null, detail: "an earlier step answered" };
  else if (preferRefused) prefer = { outcome: "invalid", header: preferHeader, forced: null, detail: error!.details!.find((d) => d.path === "Prefer")!.message };
  else {
    let forced: Record<string, unknown> | undefined;
    try {
      forced = parsePrefer(preferHeader ?? undefined);
    } catch {
      forced = undefined;
    }
    prefer = forced
      ? { outcome: "applied", header: preferHeader, forced, detail: `forced ${show(forced)}` }
      : { outcome: "absent", header: preferHeader, forced: null, detail: "no Prefer header" };
  }

  const handlerReached = reached("handler");
  const validationRefused = e.decidedBy === "validation" && !preferRefused && !notJson;
  const handler: WhyTrace["handler"] = !handlerReached || validationRefused
    ? { outcome: "notReached", status: null, code: null, detail: validationRefused ? "the request's shape was refused first" : "an earlier step answered" }
    : e.committed
      ? { outcome: "replaced", status: e.committed.status, code: handlerError?.code ?? null, detail: `the handler answered ${e.committed.status} and committed; the scenario rule's answer replaced it` }
      : handlerError
        ? { outcome: "refused", status: e.status, code: handlerError.code, detail: handlerError.message }
        : (graphqlHandler(e) ?? { outcome: "answered", status: e.status, code: null, detail: `answered ${e.status}` });

  const trace: WhyTrace = {
    id: e.id,
    decidedBy: e.decidedBy,
    status: e.status,
    fault: e.fault,
    summary: "",
    credentials: credentials(e, error, context),
    quota: reached("quota") ? quota(record, e, notes) : { outcome: "notReached", limit: null, remaining: null, windowEnd: null, detail: "the credentials named no shop" },
    bodyCheck: !reached("bodyCheck")
      ? { outcome: "notReached", detail: "an earlier step answered" }
      : e.decidedBy === "bodyLimit"
        ? { outcome: "tooLarge", detail: error?.message ?? "the body is over the limit" }
        : notJson
          ? { outcome: "notJson", detail: error!.details!.find((d) => d.path === "Content-Type")!.message }
          : { outcome: "passed", detail: "within the body limit" },
    prefer,
    scenarios: {
      rules: ruleVerdicts(e, reached("scenarios"), notes, context),
      note: "Rules as active now; conditions that skipped a rule (times spent, after, the probability draw) were recorded when the request was decided",
    },
    validation: !handlerReached
      ? { outcome: "notReached", detail: "an earlier step answered" }
      : validationRefused
        ? { outcome: "refused", detail: (error?.details ?? []).map((d) => `${d.in} ${d.path}: ${d.message}`).join("; ") || (error?.message ?? "") }
        : { outcome: "passed", detail: "the request's parameters and body fit the schema" },
    handler,
    reason: notes.reason ?? null,
  };
  trace.summary = summary(trace, e);
  return trace;
}

/** A GraphQL answer whose fields failed: the first one's code and the engine's message, and whether others answered. */
function graphqlHandler(e: JournalEntry): WhyTrace["handler"] | undefined {
  const outcome = graphqlOutcome(e);
  const first = firstFailure(outcome);
  if (!outcome || !first) return undefined;
  const answered = outcome.partial ? `; ${e.graphql!.fields.length - outcome.failed.length} of ${e.graphql!.fields.length} root fields answered` : "";
  const detail = `field ${first.key} refused with ${first.code}: ${first.message}${answered}`;
  return { outcome: outcome.partial ? "partial" : "refused", status: e.status, code: first.code, detail };
}

function summary(t: WhyTrace, e: JournalEntry): string {
  const answered = e.fault !== null ? `fault ${e.fault}` : `${e.status}`;
  const by: Record<WhyTrace["decidedBy"], string> = {
    handler: !t.handler.code
      ? "the handler answered"
      : e.graphql
        ? `GraphQL field ${firstFailure(graphqlOutcome(e))?.key} refused with ${t.handler.code}${t.handler.outcome === "partial" ? " (partial: other fields answered)" : ""}`
        : `the handler refused with ${t.handler.code}`,
    scenario: `scenario "${e.scenario?.scenario}" rule ${e.scenario?.rule} answered`,
    prefer: `the Prefer header forced it (${t.prefer.header})`,
    quota: `the hourly quota of ${t.quota.limit} was used up`,
    credentials: `the credentials were refused: ${t.credentials.detail}`,
    bodyLimit: "the body was over the limit",
    validation: `the request's shape was refused: ${t.validation.outcome === "refused" ? t.validation.detail : t.prefer.outcome === "invalid" ? t.prefer.detail : t.bodyCheck.detail}`,
  };
  const reason = t.reason?.kind === "insufficientStamps" ? ` (balance ${t.reason.balance}, price ${t.reason.price})` : "";
  return `${answered}: ${by[e.decidedBy]}${reason}`;
}
