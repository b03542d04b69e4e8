/** @module The API's base path, as production's; in a module of its own so that low-level modules can name it. */
export const API_BASE = "/rest_api/v1";
