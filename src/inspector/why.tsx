/** @module Page 2, why this answer: the trace of `/__sim/requests/{id}/why`, step by step, down to the engine's reason. */
import type { WhyTrace } from "../control/why.schemas.js";

type Reason = NonNullable<WhyTrace["reason"]>;

/** The engine's reason, in words and numbers. */
export function reasonText(reason: Reason): string {
  switch (reason.kind) {
    case "insufficientStamps":
      return `customer ${reason.customerId} has a balance of ${reason.balance} stamps; the price is ${reason.price}${reason.rewardId !== undefined ? ` (reward ${reason.rewardId})` : ""}`;
    case "earnRuleLimit":
      return `earn rule ${reason.earnRuleId} allows ${reason.limit} per ${reason.period}; customer ${reason.customerId} had ${reason.awardsInWindow} in the window (last ${reason.lastAwardAt ?? "never"}, next allowed ${reason.nextAllowedAt ?? "never"})`;
    case "customerRemoved":
      return `customer ${reason.customerId} was removed${reason.removedAt ? ` at ${reason.removedAt}` : ""}`;
    case "customerMerged":
      return `customer ${reason.customerId} was merged into ${reason.mergedIntoCustomerId}`;
    case "codeNotVoidable":
      return `code ${reason.codeId} cannot be voided (used: ${reason.used}, voided: ${reason.voided})`;
    case "tierRequired":
      return `reward ${reason.rewardId} needs tier ${reason.requiredTierId}; the customer's tier is ${reason.customerTierId ?? "none"}`;
  }
}

function Step(props: { name: string; outcome: string; detail: string }) {
  return (
    <li class={`step ${props.outcome}`}>
      <span class="step-name">{props.name}</span> <span class="outcome">{props.outcome}</span> <span class="detail">{props.detail}</span>
    </li>
  );
}

export function WhyPanel(props: { why: WhyTrace }) {
  const { why } = props;
  return (
    <section class="why" id="why">
      <h2>Why this answer</h2>
      <p class="why-summary">{why.summary}</p>
      <ol>
        <Step name="credentials" outcome={why.credentials.outcome} detail={why.credentials.detail} />
        <Step name="quota" outcome={why.quota.outcome} detail={why.quota.detail} />
        <Step name="body" outcome={why.bodyCheck.outcome} detail={why.bodyCheck.detail} />
        <Step name="Prefer" outcome={why.prefer.outcome} detail={why.prefer.detail} />
        <li class="step scenarios">
          <span class="step-name">scenarios</span>{" "}
          {why.scenarios.rules.length === 0 ? (
            <span class="detail">no active rule</span>
          ) : (
            <ul>
              {why.scenarios.rules.map((r) => (
                <li class={`rule ${r.outcome}`}>
                  <code>
                    {r.scenario} #{r.rule}
                    {r.ruleName !== undefined ? ` (${r.ruleName})` : ""}
                  </code>{" "}
                  {/* A mismatch's detail begins with its field ("operation must be ..."): not written twice. */}
                  <span class="outcome">{r.outcome}</span> <span class="detail">{r.detail}</span>
                </li>
              ))}
            </ul>
          )}
          <div class="note">{why.scenarios.note}</div>
        </li>
        <Step name="validation" outcome={why.validation.outcome} detail={why.validation.detail} />
        <Step name="handler" outcome={why.handler.outcome} detail={why.handler.detail} />
        {why.reason && <Step name="engine's reason" outcome={why.reason.kind} detail={reasonText(why.reason)} />}
      </ol>
    </section>
  );
}
