/** @module Where the inspector lives, what it may load, and what its pages are given: shared by the mount and the pages. */

export const UI_PATH = "/__sim/ui";

/** No inline script or style, no framing, nothing from another origin. */
export const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; frame-ancestors 'none'";

/** What the pages need: the control API, called in process. */
export interface InspectorDeps {
  control: (path: string, init?: RequestInit) => Promise<Response>;
}
