export { createResponder, type Responder } from "./responder.js";
export type * from "./types.js";
