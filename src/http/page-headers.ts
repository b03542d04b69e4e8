/**
 * @module The headers of the simulator's own pages and every file they load (/doc, GraphiQL, the
 * inspector): another site may neither read them (they answer no CORS), nor load them into its
 * own page, nor have a browser take one for another type than it says.
 */

/** For every file of the pages. */
export const PAGE_FILE_HEADERS: Readonly<Record<string, string>> = { "X-Content-Type-Options": "nosniff", "Cross-Origin-Resource-Policy": "same-origin" };

/** In every page's Content-Security-Policy: only the simulator's own pages may frame it. */
export const FRAME_OWN = "frame-ancestors 'self'";
