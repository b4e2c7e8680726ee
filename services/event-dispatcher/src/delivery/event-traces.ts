import { createTraceContexts } from "@cardhold/bus";

/**
 * The trace context each consumed event came with, by event id: its deliveries are sent later by the delivery worker,
 * in a span that continues that trace (the undici instrumentation then sends its `traceparent`). Deliveries of events
 * no longer remembered (retries long after, another process's claims) continue the traceparent stored with the event.
 */
export const eventTraces = createTraceContexts();
