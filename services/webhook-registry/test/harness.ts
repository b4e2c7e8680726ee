import { Writable } from "node:stream";
import { createMemoryBus, type MemoryBus } from "@cardhold/bus";
import { TOPICS, type BusinessCreatedMessage, type Mode, type WebhookChangedMessage } from "@cardhold/contracts";
import { createTestDatabase, type TestDatabase } from "@cardhold/db/testing";
import {
  createLogger,
  createMetrics,
  listen,
  newDataKey,
  newId,
  signingKeySealer,
  type Listening,
  type Service,
  announcedSigningKeySealer,
} from "@cardhold/platform";
import { createService } from "../src/service";

export const INTERNAL = "internal-token-for-webhook-registry-tests";
/** The registry's SECRETS_KEY in these tests, and what opens the sealed keys it stores and publishes. */
export const SECRETS_KEY = newDataKey();
export const keys = signingKeySealer(SECRETS_KEY);

/** The plain signing key a webhooks.v1 message carries sealed (undefined for a tombstone or no sealed key). */
export function keyIn(value: WebhookChangedMessage | null | undefined): string | undefined {
  const sealed = value?.data.sealedSigningKey;
  return sealed === undefined ? undefined : keys.open(value!.data.id, sealed);
}

/** The plain key a roll replaced that a webhooks.v1 message carries sealed (undefined when it carries none). */
export function previousKeyIn(value: WebhookChangedMessage | null | undefined): string | undefined {
  const sealed = value?.data.sealedPreviousSigningKey;
  return sealed === undefined ? undefined : keys.open(value!.data.id, sealed);
}

/** What a webhooks.v1 message carried: the configuration, or null for a tombstone. */
export interface Published {
  key: string;
  value: WebhookChangedMessage | null;
}

export interface Harness {
  pg: TestDatabase;
  bus: MemoryBus;
  service: Service;
  http: Listening;
  /** The same service built with ALLOW_PRIVATE_WEBHOOK_TARGETS=true (same database; not started). */
  permissive: Listening;
  published: Published[];
  logLines: string[];
  stop(): Promise<void>;
}

/**
 * The registry in-process: embedded Postgres, memory bus, a group recording every webhooks.v1 message. `now`: the
 * clock a key roll's grace starts from.
 */
export async function startHarness(opts: { now?: () => Date } = {}): Promise<Harness> {
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger("webhook-registry", "debug", sink);
  const pg = await createTestDatabase();
  const bus = createMemoryBus({ logger, handledWaitMs: 2_000 });
  const deps = { db: pg.db, bus, logger, metrics: createMetrics("webhook-registry", false), internalToken: INTERNAL };
  const service = await createService(deps, { secretsKey: SECRETS_KEY, now: opts.now });
  await service.start();
  const http = await listen(service.app, 0);
  const permissiveService = await createService(deps, { secretsKey: SECRETS_KEY, allowPrivateTargets: true });
  const permissive = await listen(permissiveService.app, 0);
  const published: Published[] = [];
  await bus.subscribe({
    group: "test-webhooks",
    topics: [TOPICS.webhooks],
    handler: async (m) => void published.push({ key: m.key, value: m.value as WebhookChangedMessage | null }),
  });
  return {
    pg,
    bus,
    service,
    http,
    permissive,
    published,
    logLines,
    async stop() {
      await permissive.close();
      await http.close();
      await service.stop();
      await permissiveService.stop();
      await bus.stop();
      await pg.stop();
    },
  };
}

export interface Caller {
  businessId: string;
  mode: Mode;
}

export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- response bodies are checked field by field
  body: any;
}

/** Calls the service as the gateway does: internal token, business and mode headers. */
export async function call(base: Listening, as: Caller, method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await fetch(base.url + path, {
    method,
    headers: {
      "x-internal-token": INTERNAL,
      "x-business-id": as.businessId,
      "x-mode": as.mode,
      "content-type": "application/json",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/**
 * A businesses.v1 business.created message for a fresh business, as the gateway announces it: the test default's
 * signing key sealed (or, `plain`, as versions before sealing sent it).
 */
export function businessCreated(
  url = "https://hooks.example.com/default",
  signingKey = `default-key-${newId("message")}`,
  plain = false,
) {
  const businessId = newId("business");
  const defaultWebhook = plain
    ? { url, signingKey }
    : { url, sealedSigningKey: announcedSigningKeySealer(SECRETS_KEY).seal(businessId, signingKey) };
  const value: BusinessCreatedMessage = {
    type: "business.created",
    businessId,
    mode: "live",
    occurredAt: new Date().toISOString(),
    data: { id: businessId, name: "Test business", defaultWebhook, createdAt: new Date().toISOString() },
  };
  return { id: newId("message"), topic: TOPICS.businesses, key: value.businessId, value, signingKey };
}
