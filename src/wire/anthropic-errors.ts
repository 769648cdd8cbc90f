import type { WireErrorKind } from "./codec.js";

/** Anthropic's `error.type` for each error kind. */
export const ANTHROPIC_ERROR_TYPES: Readonly<Record<WireErrorKind, string>> = {
  invalid_request: "invalid_request_error",
  not_found: "not_found_error",
  mock_failed: "api_error",
  rate_limit: "rate_limit_error",
  server_error: "api_error",
  overloaded: "overloaded_error",
};
