/** @module Page 6, Shops: each shop with its counts, create one, switch to one (`?shop=` in the URL), reset one or all. */
import type { ShopInfo } from "../control/control.schemas.js";
import { isError, namedShop, type ErrorBody, type Page } from "./context.js";
import { Layout, Problem } from "./layout.js";

type Failure = { status: number; error: ErrorBody["error"] };

function Panel(props: { page: Page; shops: ShopInfo[]; problem?: Failure | undefined; done?: string | undefined }) {
  const { page, shops, problem, done } = props;
  const post = (path: string) => page.href(`/shops${path}`);
  return (
    <>
      {problem && <Problem status={problem.status} message={problem.error.message} details={problem.error.details} />}
      {done && <p class="done" role="status">{done}</p>}
      <table class="shops">
        <thead>
          <tr><th>id</th><th>API key</th><th>customers</th><th>activities</th><th>plan</th><th>rate limit</th><th></th></tr>
        </thead>
        <tbody>
          {shops.map((s) => (
            <tr data-shop={s.id}>
              <td>{s.id}</td>
              <td><code>{s.apiKey}</code></td>
              <td class="num">{s.customers}</td>
              <td class="num">{s.activities}</td>
              <td>{s.plan}{s.apiAccess ? "" : " (no API access)"}</td>
              <td class="num">{s.rateLimit ?? "off"}</td>
              <td>
                <a href={`/__sim/ui/requests?shop=${encodeURIComponent(s.id)}`}>open</a>{" "}
                <button type="button" hx-post={post(`/${encodeURIComponent(s.apiKey)}/reset`)} hx-target="#shops">reset</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>New shop</h2>
      <form class="inline" hx-post={post("")} hx-target="#shops" method="post" action={post("")}>
        <label>Customers <input name="customers" value="50" size={6} /></label>
        <label>Seed <input name="seed" value="" size={6} /></label>
        <label>
          Plan{" "}
          <select name="plan"><option value="paid">paid</option><option value="free">free</option></select>
        </label>
        <button type="submit">Create shop</button>
      </form>
      <h2>Reset</h2>
      <button type="button" hx-post={post("/reset")} hx-target="#shops">Reset every shop</button>
      <p class="hint">Every shop back to its seed, journal and rate windows cleared, scenarios back to those loaded at start.</p>
    </>
  );
}

async function render(page: Page, problem?: Failure, done?: string) {
  const list = await page.get<{ shops: ShopInfo[] }>("/__sim/shops");
  const shops = isError(list.body) ? [] : list.body.shops;
  const panel = <Panel page={page} shops={shops} problem={problem ?? (isError(list.body) ? { status: list.status, error: list.body.error } : undefined)} done={done} />;
  if (page.c.req.header("hx-request") !== undefined) return page.c.html(panel);
  return page.c.html(
    <Layout page={page} title="Shops" current="/shops">
      <div id="shops">{panel}</div>
    </Layout>,
  );
}

export const shopsPage = (page: Page) => render(page);

export async function createShop(page: Page) {
  const form = await page.form();
  const number = (name: string) => {
    const value = form.get(name)?.trim();
    return value === undefined || value === "" ? undefined : Number(value);
  };
  const customers = number("customers");
  const seed = number("seed");
  const plan = form.get("plan") ?? undefined;
  const made = await page.send<ShopInfo>("POST", "/__sim/shops", { ...(customers !== undefined && { customers }), ...(seed !== undefined && { seed }), ...(plan && { plan }) }, undefined, null);
  return isError(made.body) ? render(page, { status: made.status, error: made.body.error }) : render(page, undefined, `Shop ${made.body.id} created (API key ${made.body.apiKey})`);
}

/** Resets one shop (by API key), or every shop when `apiKey` is undefined. */
export async function resetShops(page: Page, apiKey: string | undefined) {
  const reset = await page.send<unknown>("POST", "/__sim/reset", undefined, undefined, apiKey === undefined ? null : namedShop(apiKey, "path", "id"));
  if (isError(reset.body)) return render(page, { status: reset.status, error: reset.body.error });
  return render(page, undefined, apiKey === undefined ? "Every shop is reset" : `The shop of API key ${apiKey} is reset`);
}
