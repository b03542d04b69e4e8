/** @module The gates of the gateway, one a file; app.ts lists them in the order they run. */
export { bodyLimit } from "./body-limit.js";
export { controlCallers, isLoopbackAddress, isLoopbackName, isOwnLoopbackRequest } from "./same-origin.js";
export { cors, type CorsOptions } from "./cors.js";
export { credentials, Quotas } from "./credentials.js";
export { findShopAgain, identifyShop, shopAfterGates, type Shops } from "./identify.js";
export { jsonBodies } from "./json-bodies.js";
export { requestId } from "./request-id.js";
