/** The version of the trace's JSON form. It changes only when a field changes meaning or goes away. */
export const TRACE_FORMAT_VERSION = 2;
