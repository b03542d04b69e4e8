/**
 * An app's own loyalty module as it ships: axios against production, credentials from the
 * environment, nothing injected. Interception tests use it unchanged.
 * @module
 */
import axios from "axios";

const api = axios.create({ baseURL: "https://stamp.appydesign.io/rest_api/v1", timeout: 5000 });

/** One stamp for a visit; resolves to the customer's new balance. */
export async function rewardVisit(customerId: string): Promise<number> {
  const { data } = await api.post<{ data: { stampBalance: number } }>(
    `/customers/${encodeURIComponent(customerId)}/stamps/award`,
    { stamps: 1, comment: "Thanks for your visit" },
    { headers: { "X-Api-Key": process.env.LOYALTY_API_KEY, "X-Api-Secret": process.env.LOYALTY_API_SECRET } },
  );
  return data.data.stampBalance;
}
