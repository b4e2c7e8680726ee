import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from "@opentelemetry/api";
import type { IncomingMessage, OutgoingMessage } from "./bus";

/**
 * The W3C trace context (traceparent, tracestate) a message carries in its headers, from the outbox row to the
 * consumer. Spans around publish and consume are made here by hand: the kafkajs instrumentation takes the context
 * active when a batch is sent, which for the outbox relay is its own loop, not the request that wrote the row.
 * Without a registered SDK (tracing off) every call here is a no-op and no header is written.
 */
const tracer = trace.getTracer("@cardhold/bus");

const TRACEPARENT = "traceparent";

/** The active span's context as message headers; empty when tracing is off or no span is active. */
export function activeTraceHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  return headers;
}

const hasTrace = (headers: Record<string, string> | undefined) => headers?.[TRACEPARENT] !== undefined;

/** The context a message's headers carry (the root context when they carry none). */
export function traceContextOf(headers: Record<string, string>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

const messagingAttributes = (topic: string, operation: string, extra: Attributes = {}): Attributes => ({
  "messaging.system": "kafka",
  "messaging.destination.name": topic,
  "messaging.operation.type": operation,
  ...extra,
});

function endSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

export interface PublishSpans {
  /** The messages, each traced one carrying its publish span's context instead of the writer's. */
  messages: OutgoingMessage[];
  end(error?: unknown): void;
}

/** A producer span per message that carries a trace context, a child of that context. */
export function startPublishSpans(messages: OutgoingMessage[]): PublishSpans {
  if (!messages.some((m) => hasTrace(m.headers))) return { messages, end: () => undefined };
  const spans: Span[] = [];
  const traced = messages.map((m) => {
    if (!hasTrace(m.headers)) return m;
    const attributes = messagingAttributes(m.topic, "send", m.id ? { "messaging.message.id": m.id } : {});
    const span = tracer.startSpan(
      `send ${m.topic}`,
      { kind: SpanKind.PRODUCER, attributes },
      traceContextOf(m.headers!),
    );
    spans.push(span);
    const headers = { ...m.headers };
    propagation.inject(trace.setSpan(ROOT_CONTEXT, span), headers);
    return { ...m, headers };
  });
  return { messages: traced, end: (error) => spans.forEach((span) => endSpan(span, error)) };
}

/**
 * Runs fn in the trace context of the first of `headers` that carries one (the root context when none does): a
 * request made for a batch of messages, such as the outbox relay's post to its direct lane, joins the first one's trace.
 */
export function inTraceOfFirst<T>(headers: Record<string, string>[], fn: () => Promise<T>): Promise<T> {
  const first = headers.find(hasTrace);
  return first ? context.with(traceContextOf(first), fn) : fn();
}

async function inSpan<T>(span: Span, fn: () => Promise<T>): Promise<T> {
  try {
    const result = await context.with(trace.setSpan(context.active(), span), fn);
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

/**
 * Runs a consumer's handling of messages in a consumer span that is a child of the first traced message's context and
 * linked to the others' (one handler call may take a batch). Untraced messages are handled as they are.
 */
export function handleInSpan<T>(group: string, messages: IncomingMessage[], fn: () => Promise<T>): Promise<T> {
  const traced = messages.filter((m) => hasTrace(m.headers));
  if (traced.length === 0) return fn();
  const [first, ...others] = traced.map((m) => traceContextOf(m.headers));
  const links = others.flatMap((c) => {
    const spanContext = trace.getSpanContext(c);
    return spanContext ? [{ context: spanContext }] : [];
  });
  const attributes = messagingAttributes(messages[0]!.topic, "process", {
    "messaging.consumer.group.name": group,
    "messaging.batch.message_count": messages.length,
    "messaging.message.id": messages[0]!.id,
  });
  const span = tracer.startSpan(`process ${messages[0]!.topic}`, { kind: SpanKind.CONSUMER, attributes, links }, first);
  return inSpan(span, fn);
}

/**
 * The trace contexts of messages whose work goes on later, elsewhere in the process (the dispatcher stores an event,
 * then sends its deliveries): remembered by a key, the most recent `max` of them.
 */
export function createTraceContexts(max = 10_000) {
  const contexts = new Map<string, Record<string, string>>();
  return {
    remember(key: string, headers: Record<string, string>): void {
      if (!hasTrace(headers)) return;
      contexts.set(key, headers);
      if (contexts.size > max) contexts.delete(contexts.keys().next().value!);
    },
    /**
     * Runs fn in an internal span named `name`, a child of the context remembered for key, else of `stored` (the
     * context kept with the work, for work done after this process forgot it or by another process), if any.
     */
    run<T>(
      key: string,
      name: string,
      attributes: Attributes,
      fn: () => Promise<T>,
      stored?: Record<string, string>,
    ): Promise<T> {
      const headers = contexts.get(key) ?? (stored && hasTrace(stored) ? stored : undefined);
      if (!headers) return fn();
      return inSpan(tracer.startSpan(name, { attributes }, traceContextOf(headers)), fn);
    },
  };
}
