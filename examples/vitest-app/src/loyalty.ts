/**
 * The app's loyalty module as it ships: axios against production's URL, nothing injected but the
 * shop's credentials. Its tests answer these calls from loyalty-sim without changing a line.
 */
import axios, { isAxiosError } from "axios";

/** Production's loyalty API. */
export const LOYALTY_API = "https://stamp.appydesign.io/rest_api/v1";

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

interface Envelope<T> {
  success: true;
  data: T;
}

/** No answer at all (reset, timeout, refused), as opposed to an answer with an error status. */
const isNetworkError = (error: unknown) => isAxiosError(error) && error.response === undefined;

export function loyalty({ apiKey, apiSecret }: Credentials) {
  const api = axios.create({ baseURL: LOYALTY_API, timeout: 5_000, headers: { "X-Api-Key": apiKey, "X-Api-Secret": apiSecret } });
  const customer = (id: string) => `/customers/${encodeURIComponent(id)}`;

  async function balance(customerId: string): Promise<number> {
    const { data } = await api.get<Envelope<{ stampBalance: number }>>(customer(customerId));
    return data.data.stampBalance;
  }

  async function award(customerId: string, stamps: number, comment: string): Promise<number> {
    const { data } = await api.post<Envelope<{ stampBalance: number }>>(`${customer(customerId)}/stamps/award`, { stamps, comment });
    return data.data.stampBalance;
  }

  return {
    balance,

    /**
     * Stamps for a visit; tries again once when the network fails. The naive way: when the award
     * was saved and only its response lost, the customer gets the stamps twice.
     */
    async rewardVisit(customerId: string, stamps = 1): Promise<number> {
      try {
        return await award(customerId, stamps, "Thanks for your visit");
      } catch (error) {
        if (!isNetworkError(error)) throw error;
        return award(customerId, stamps, "Thanks for your visit");
      }
    },

    /**
     * Stamps for a visit, once: after a network failure it looks for the visit's award in the
     * customer's activities (newest first) before trying again.
     */
    async rewardVisitOnce(customerId: string, visitId: string, stamps = 1): Promise<number> {
      const comment = `Visit ${visitId}`;
      try {
        return await award(customerId, stamps, comment);
      } catch (error) {
        if (!isNetworkError(error)) throw error;
        const { data } = await api.get<Envelope<{ label: string }[]>>(`${customer(customerId)}/activities`, { params: { limit: 20 } });
        if (data.data.some((activity) => activity.label === comment)) return balance(customerId);
        return award(customerId, stamps, comment);
      }
    },
  };
}
