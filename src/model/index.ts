export { mockModel, type MockModelV2Options } from "./mock-model.js";
export { createResponder, type Responder } from "./responder.js";
export type * from "./types.js";
