/**
 * What the "why" trace of a journal entry cannot work out afterwards, noted while the request is
 * decided: the engine's reason for a refusal and the dynamic conditions that skipped scenario
 * rules (`times` spent, `after`, the probability draw). Noted only when there is something to
 * note, so the usual request pays one `c.get`.
 * @module
 */
import type { Context } from "hono";
import type { RefusalReason } from "../../engine/errors.js";
import type { AppEnv } from "../env.js";
import type { DecisionNotes, RuleSkip } from "../facts.js";

export type { DecisionNotes, RuleSkip } from "../facts.js";

function notes(c: Context<AppEnv>): DecisionNotes {
  let found = c.get("notes");
  if (!found) c.set("notes", (found = {}));
  return found;
}

export function noteReason(c: Context<AppEnv>, reason: RefusalReason): void {
  notes(c).reason = reason;
}

export function noteSkips(c: Context<AppEnv>, skips: RuleSkip[]): void {
  if (skips.length > 0) notes(c).skips = skips;
}

/** The notes as the journal packs them (null when none). */
export function packedNotes(c: Context<AppEnv>): string | null {
  const found = c.get("notes");
  return found === undefined ? null : JSON.stringify(found);
}
