/** @module Page 3, Customer: a searchable list, and one customer's balance, cards, tier, codes, ledger, upcoming events and requests. */
import type { JournalEntry } from "../control/control.schemas.js";
import type { CustomerDetail, CustomerSearch } from "../control/inspect.schemas.js";
import { isError, type Page } from "./context.js";
import { Layout, Problem } from "./layout.js";
import { Rows } from "./requests.js";

export async function customersPage(page: Page) {
  const q = page.c.req.query("q")?.trim() || undefined;
  const after = page.c.req.query("after") || undefined;
  const found = await page.get<CustomerSearch>("/__sim/customers", { q, after, limit: "50" });
  return page.c.html(
    <Layout page={page} title="Customers" current="/customers">
      <form class="filters" method="get" action={page.href("/customers").split("?")[0]}>
        {page.shop !== undefined && <input type="hidden" name="shop" value={page.shop} />}
        <label>
          Search <input type="search" name="q" value={q ?? ""} placeholder="id, email or name" />
        </label>
        <button type="submit">Search</button>
      </form>
      {isError(found.body) ? (
        <Problem status={found.status} message={found.body.error.message} details={found.body.error.details} />
      ) : (
        <>
          <table class="customers">
            <thead>
              <tr><th>id</th><th>name</th><th>email</th><th>balance</th><th>cards</th><th>tier</th><th>state</th></tr>
            </thead>
            <tbody>
              {found.body.customers.map((cu) => (
                <tr data-id={cu.id}>
                  <td><a href={page.href(`/customers/${encodeURIComponent(cu.id)}`)}>{cu.id}</a></td>
                  <td>{`${cu.firstName} ${cu.lastName}`}</td>
                  <td>{cu.email}</td>
                  <td class="num">{cu.stampBalance}</td>
                  <td class="num">{cu.cards}</td>
                  <td>{cu.vipTierName ?? ""}</td>
                  <td>{cu.state}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {found.body.nextAfter !== null && <a href={page.href("/customers", { q, after: found.body.nextAfter })}>next page</a>}
        </>
      )}
    </Layout>,
  );
}

function Codes(props: { title: string; codes: CustomerDetail["codes"]["available"] }) {
  return (
    <section>
      <h3>{`${props.title} (${props.codes.length})`}</h3>
      {props.codes.length === 0 ? <p class="hint">none</p> : (
        <ul>
          {props.codes.map((code) => <li><code>{code.code}</code> {code.name} · cost {code.cost} · {code.createdAt}</li>)}
        </ul>
      )}
    </section>
  );
}

export async function customerPage(page: Page, id: string) {
  const [detail, journal] = await Promise.all([
    page.get<CustomerDetail>(`/__sim/customers/${encodeURIComponent(id)}`, { ledgerLimit: "50" }),
    page.get<{ requests: JournalEntry[] }>("/__sim/requests", { customerId: id, limit: "50" }),
  ]);
  if (isError(detail.body)) {
    return page.c.html(
      <Layout page={page} title={`Customer ${id}`} current="/customers">
        <Problem status={detail.status} message={detail.body.error.message} />
      </Layout>,
      detail.status === 404 ? 404 : 400,
    );
  }
  const { customer: cu, codes, ledger, upcoming } = detail.body;
  return page.c.html(
    <Layout page={page} title={`Customer ${cu.id}: ${cu.firstName} ${cu.lastName}`} current="/customers">
      <div class="cards">
        <div class="card"><div class="big" id="balance">{cu.stampBalance}</div>stamps</div>
        <div class="card"><div class="big">{cu.cards}</div>full cards</div>
        <div class="card"><div class="big">{cu.vipTierName ?? "none"}</div>tier</div>
        <div class="card"><div class="big">{cu.stampsToNextReward}</div>stamps to {cu.nextReward?.name ?? "the next reward"}</div>
        <div class="card"><div class="big">{cu.stampsExpireAt?.slice(0, 10) ?? "never"}</div>stamps expire</div>
        <div class="card"><div class="big">{cu.state}</div>{cu.mergedIntoCustomerId !== undefined ? `merged into ${cu.mergedIntoCustomerId}` : cu.email}</div>
      </div>
      <h2>Codes</h2>
      <div class="columns three">
        <Codes title="available" codes={codes.available} />
        <Codes title="used" codes={codes.used} />
        <Codes title="voided" codes={codes.voided} />
      </div>
      <h2>Coming up</h2>
      {upcoming.length === 0 ? <p class="hint">Nothing happens to this customer by time alone.</p> : (
        <ul>{upcoming.map((e) => <li>{e.at}: {e.detail}</li>)}</ul>
      )}
      <h2>Ledger</h2>
      <table class="ledger">
        <thead><tr><th>when</th><th>what</th><th>stamps</th></tr></thead>
        <tbody>
          {ledger.items.map((a) => <tr><td>{a.createdAt}</td><td>{a.label}</td><td class="num">{a.stampChange > 0 ? `+${a.stampChange}` : a.stampChange}</td></tr>)}
        </tbody>
      </table>
      <h2>Requests</h2>
      <table class="requests">
        <thead>
          <tr><th>time</th><th>method</th><th>operation</th><th>path</th><th>status</th><th>error</th><th>customer</th><th>decided by</th><th>took</th></tr>
        </thead>
        <tbody>{isError(journal.body) ? null : <Rows page={page} list={journal.body.requests} />}</tbody>
      </table>
    </Layout>,
  );
}
