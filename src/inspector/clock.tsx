/** @module Page 5, Clock: now and frozen, advance (+1h/+1d/+7d/+30d), set, freeze, and the time-based events coming next. */
import type { Upcoming } from "../control/inspect.schemas.js";
import { isError, type ErrorBody, type Page } from "./context.js";
import { Layout, Problem } from "./layout.js";

const STEPS: [string, number][] = [
  ["+1h", 3600],
  ["+1d", 86_400],
  ["+7d", 7 * 86_400],
  ["+30d", 30 * 86_400],
];

function Panel(props: { page: Page; upcoming: Upcoming | undefined; problem?: { status: number; error: ErrorBody["error"] } | undefined }) {
  const { page, upcoming, problem } = props;
  const post = page.href("/clock");
  return (
    <>
      {problem && <Problem status={problem.status} message={problem.error.message} details={problem.error.details} />}
      {upcoming && (
        <>
          <p class="now">
            Now: <strong id="now">{upcoming.now}</strong> {upcoming.frozen ? "(frozen)" : "(running)"}
          </p>
          <div class="actions">
            {STEPS.map(([label, seconds]) => (
              <button type="button" hx-post={post} hx-vals={JSON.stringify({ advanceSeconds: String(seconds) })} hx-target="#clock">{label}</button>
            ))}
            <button type="button" hx-post={post} hx-vals={JSON.stringify({ frozen: upcoming.frozen ? "false" : "true" })} hx-target="#clock">{upcoming.frozen ? "unfreeze" : "freeze"}</button>
          </div>
          <form class="inline" hx-post={post} hx-target="#clock" method="post" action={post}>
            <label>
              Set to <input name="set" value={upcoming.now} size={28} />
            </label>
            <button type="submit">Set</button>
          </form>
          <h2>Coming up</h2>
          {upcoming.events.length === 0 ? <p class="hint">Nothing happens by time alone.</p> : (
            <table class="upcoming">
              <thead><tr><th>when</th><th>what</th><th>customer</th></tr></thead>
              <tbody>
                {upcoming.events.map((e) => (
                  <tr>
                    <td>{e.at}</td>
                    <td>{e.detail}</td>
                    <td>{e.customerId !== undefined && <a href={page.href(`/customers/${encodeURIComponent(e.customerId)}`)}>{e.customerId}</a>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </>
  );
}

async function render(page: Page, problem?: { status: number; error: ErrorBody["error"] }, whole = page.c.req.header("hx-request") === undefined) {
  const read = await page.get<Upcoming>("/__sim/clock/upcoming");
  const upcoming = isError(read.body) ? undefined : read.body;
  const failed = problem ?? (isError(read.body) ? { status: read.status, error: read.body.error } : undefined);
  const panel = <Panel page={page} upcoming={upcoming} problem={failed} />;
  if (!whole) return page.c.html(panel);
  return page.c.html(
    <Layout page={page} title="Clock" current="/clock">
      <div id="clock" data-reload="clock reset" data-src={page.href("/clock/panel")}>{panel}</div>
    </Layout>,
  );
}

export const clockPage = (page: Page) => render(page);
export const clockPanel = (page: Page) => render(page, undefined, false);

export async function changeClock(page: Page) {
  const form = await page.form();
  const advance = form.get("advanceSeconds");
  const set = form.get("set");
  const frozen = form.get("frozen");
  const change = {
    ...(advance !== null && { advanceSeconds: Number(advance) }),
    ...(set !== null && { set: set.trim() }),
    ...(frozen !== null && { frozen: frozen === "true" }),
  };
  const changed = await page.send<unknown>("POST", "/__sim/clock", change);
  return render(page, isError(changed.body) ? { status: changed.status, error: changed.body.error } : undefined);
}
