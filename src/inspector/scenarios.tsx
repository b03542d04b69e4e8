/**
 * Page 4, Scenarios: the shop's active rules in order with their counters; delete; add from YAML
 * (the control API's 422 shown by field path); load a shipped example in one click.
 * @module
 */
import { readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScenarioSummary } from "../control/control.schemas.js";
import { isError, type ErrorBody, type Page } from "./context.js";
import { Layout, Problem } from "./layout.js";

/** The package's scenarios folder (src/inspector and dist/inspector are both two levels down). */
const SHIPPED = fileURLToPath(new URL("../../scenarios/", import.meta.url));

let shippedFiles: string[] | undefined;
/** The shipped scenario files, as `folder/name.yaml`. */
function shipped(): string[] {
  return (shippedFiles ??= ["errors", "examples", "faults"].flatMap((folder) =>
    readdirSync(join(SHIPPED, folder))
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .sort()
      .map((f) => `${folder}/${f}`),
  ));
}

function Panel(props: { page: Page; scenarios: ScenarioSummary[]; problem?: { status: number; error: ErrorBody["error"] } | undefined; yaml?: string | undefined }) {
  const { page, scenarios, problem } = props;
  const post = (path: string) => page.href(`/scenarios${path}`);
  return (
    <>
      {problem && <Problem status={problem.status} message={problem.error.message} details={problem.error.details} />}
      {scenarios.length === 0 ? <p class="hint">No active scenario: every request is answered by the engine.</p> : (
        <table class="scenarios">
          <thead>
            <tr><th>scenario</th><th>rule</th><th>match</th><th>respond</th><th>hits</th><th>matches</th><th>remaining</th><th></th></tr>
          </thead>
          <tbody>
            {scenarios.flatMap((s) =>
              s.rules.map((r) => (
                <tr data-scenario={s.name} class={r.spent ? "spent" : undefined}>
                  <td>{r.index === 0 ? <><strong>{s.name}</strong> <span class="hint">{s.owner}</span></> : ""}</td>
                  <td>{`#${r.index}${r.name !== undefined ? ` ${r.name}` : ""}`}</td>
                  <td><code>{JSON.stringify(r.match)}</code></td>
                  <td><code>{JSON.stringify(r.respond)}</code></td>
                  <td class="num">{r.hits}</td>
                  <td class="num">{r.matches}</td>
                  <td class="num">{r.remaining === null ? "∞" : r.spent ? "spent" : r.remaining}</td>
                  <td>{r.index === 0 && <button type="button" hx-post={post(`/${encodeURIComponent(s.name)}/delete`)} hx-target="#scenarios" class="delete">delete</button>}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      )}
      <h2>Add from YAML</h2>
      <form hx-post={post("")} hx-target="#scenarios" method="post" action={post("")}>
        <textarea name="yaml" spellcheck={false} placeholder={"name: my-scenario\nrules:\n  - match:\n      operation: redeemReward\n    respond:\n      error: INSUFFICIENT_STAMPS"}>{props.yaml ?? ""}</textarea>
        <button type="submit">Add scenario</button>
      </form>
      <h2>Load a shipped example</h2>
      <ul class="shipped">
        {shipped().map((file) => (
          <li>
            <button type="button" hx-post={post("/load")} hx-vals={JSON.stringify({ file })} hx-target="#scenarios">{file}</button>
          </li>
        ))}
      </ul>
    </>
  );
}

async function render(page: Page, problem?: { status: number; error: ErrorBody["error"] }, yaml?: string) {
  const list = await page.get<{ scenarios: ScenarioSummary[] }>("/__sim/scenarios");
  const scenarios = isError(list.body) ? [] : list.body.scenarios;
  const failed = problem ?? (isError(list.body) ? { status: list.status, error: list.body.error } : undefined);
  const panel = <Panel page={page} scenarios={scenarios} problem={failed} yaml={yaml} />;
  // htmx swaps the panel; a plain form post gets the whole page.
  if (page.c.req.header("hx-request") !== undefined) return page.c.html(panel);
  return page.c.html(
    <Layout page={page} title="Scenarios" current="/scenarios">
      <div id="scenarios" data-reload="scenarios" data-src={page.href("/scenarios/panel")}>{panel}</div>
    </Layout>,
  );
}

export const scenariosPage = (page: Page) => render(page);
/** The panel alone, for inspector.js after a scenarios tick. */
export const scenariosPanel = async (page: Page) => {
  const list = await page.get<{ scenarios: ScenarioSummary[] }>("/__sim/scenarios");
  return page.c.html(<Panel page={page} scenarios={isError(list.body) ? [] : list.body.scenarios} />);
};

export async function addScenario(page: Page) {
  const yaml = (await page.form()).get("yaml") ?? "";
  const added = await page.send<unknown>("POST", "/__sim/scenarios", yaml, "application/yaml");
  return isError(added.body) ? render(page, { status: added.status, error: added.body.error }, yaml) : render(page);
}

export async function deleteScenario(page: Page, name: string) {
  const deleted = await page.send<unknown>("DELETE", `/__sim/scenarios/${encodeURIComponent(name)}`);
  return render(page, isError(deleted.body) ? { status: deleted.status, error: deleted.body.error } : undefined);
}

export async function loadShipped(page: Page) {
  const file = (await page.form()).get("file") ?? "";
  if (!shipped().includes(file)) return render(page, { status: 404, error: { message: `No shipped scenario ${file}`, code: "NOT_FOUND", statusCode: 404 } });
  const text = await readFile(join(SHIPPED, file), "utf8");
  const added = await page.send<unknown>("POST", "/__sim/scenarios", text, file.endsWith(".json") ? "application/json" : "application/yaml");
  return render(page, isError(added.body) ? { status: added.status, error: added.body.error } : undefined);
}
