/**
 * GraphQL over HTTP's media types, and the answers the gateway writes before graphql-js is
 * loaded (a refusal of the credentials, the quota, the body size): free of graphql-js, so a
 * refused request never loads it.
 * @module
 */
export const GRAPHQL_RESPONSE = "application/graphql-response+json";
export const JSON_MEDIA = "application/json";
export type MediaType = typeof GRAPHQL_RESPONSE | typeof JSON_MEDIA;

/** A refusal before any operation is known (a `GraphQLHttpResponse` with no operation). */
export interface RefusalResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  graphql: null;
}

/** The media type to answer with: the first the client accepts, or none (406). */
export function negotiate(accept: string | undefined): MediaType | undefined {
  if (accept === undefined || accept.trim() === "") return JSON_MEDIA;
  const ranges = accept.split(",").map((part, index) => {
    const [type = "", ...params] = part.split(";");
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
    return { type: type.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
  });
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type, q } of ranges) {
    if (!(q > 0)) continue;
    if (type === GRAPHQL_RESPONSE) return GRAPHQL_RESPONSE;
    if (type === JSON_MEDIA || type === "application/*" || type === "*/*") return JSON_MEDIA;
  }
  return undefined;
}

/**
 * A refusal of the gateway (credentials, access, plan, quota, body size, a bad `Prefer`) in
 * GraphQL's shape: the code as `message`, no `data`, the REST status, the negotiated media type.
 */
export function refusalResponse(status: number, accept: string | undefined, code: string, reason: string, details?: readonly object[]): RefusalResponse {
  const extensions = { reason, ...(details && { details }) };
  const media = negotiate(accept) ?? JSON_MEDIA;
  return { status, headers: { "Content-Type": `${media}; charset=utf-8` }, body: JSON.stringify({ errors: [{ message: code, extensions }] }), graphql: null };
}

/** Whether a request is a browser's asking for GraphiQL: a GET (or its HEAD) that accepts HTML. */
export function wantsGraphiQL(method: string, accept: string | undefined): boolean {
  return (method === "GET" || method === "HEAD") && accept !== undefined && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}

