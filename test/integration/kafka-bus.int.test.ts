import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { Kafka, KafkaJSNonRetriableError, logLevel, type Admin } from "kafkajs";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaBus, type Bus, type IncomingMessage, type PoisonPolicy } from "@cardhold/bus";
import { TOPICS } from "@cardhold/contracts";
import { eventually } from "../support/eventually";
import { HAS_INFRASTRUCTURE, KAFKA_BROKERS } from "./support/infrastructure";

const require = createRequire(import.meta.url);
const logger = pino({ level: process.env.BUS_IT_LOG ?? "silent" });

describe.skipIf(!HAS_INFRASTRUCTURE)("the Kafka bus against a real broker", () => {
  const buses: Bus[] = [];
  const newBus = async (poison?: PoisonPolicy, sessionTimeoutMs?: number) => {
    const bus = createKafkaBus({
      brokers: KAFKA_BROKERS!.split(","),
      clientId: "bus-it",
      logger,
      topics: [TOPICS.events, TOPICS.deadLetters],
      poison,
      sessionTimeoutMs,
    });
    buses.push(bus);
    await bus.start();
    return bus;
  };
  let producer: Bus;
  const run = randomBytes(4).toString("hex");

  beforeAll(async () => {
    producer = await newBus();
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.stop()));
  });

  it("creates its topics and reports ready", async () => {
    expect(await producer.ready()).toBe(true);
  });

  it("starts without a warning or an error line when its topics exist already", async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const capture = { write: (line: string) => void lines.push(JSON.parse(line)) };
    const bus = createKafkaBus({
      brokers: KAFKA_BROKERS!.split(","),
      clientId: "bus-it-restart",
      logger: pino({ level: "info" }, capture),
      topics: [TOPICS.events, TOPICS.deadLetters],
    });
    buses.push(bus);
    await bus.start();
    expect(await bus.ready()).toBe(true);
    expect(lines.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);
  });

  it("delivers to every group, in order per key, with the message id", async () => {
    const seen: Record<string, IncomingMessage[]> = { a: [], b: [] };
    for (const group of ["a", "b"]) {
      const consumer = await newBus();
      await consumer.subscribe({
        group: `bus-it-${run}-${group}`,
        topics: [TOPICS.events],
        handler: async (m) => {
          if (m.key.startsWith(run)) seen[group]!.push(m);
        },
      });
    }
    const key = `${run}-order`;
    await producer.publish(
      Array.from({ length: 20 }, (_, n) => ({ topic: TOPICS.events, key, value: { n }, id: `msg.${run}.${n}` })),
    );
    for (const group of ["a", "b"]) {
      await eventually(() => expect(seen[group]).toHaveLength(20), 30_000);
      expect(seen[group]!.map((m) => (m.value as { n: number }).n)).toEqual([...Array(20).keys()]);
      expect(seen[group]![0]!.id).toBe(`msg.${run}.0`);
    }
  });

  it("redelivers a message whose handler failed", async () => {
    const consumer = await newBus();
    const attempts: number[] = [];
    await consumer.subscribe({
      group: `bus-it-${run}-retry`,
      topics: [TOPICS.events],
      handler: async (m) => {
        if (m.key !== `${run}-retry`) return;
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error("transient");
      },
    });
    await producer.publish([{ topic: TOPICS.events, key: `${run}-retry`, value: { retry: true } }]);
    await eventually(() => expect(attempts.length).toBeGreaterThanOrEqual(3), 60_000);
  });

  it("sets aside an unreadable message and one its handler keeps failing on, and goes on with the partition", async () => {
    const key = `${run}-poison`;
    const handled: number[] = [];
    // At least once, like every topic: a dead letter read twice (a rebalance) is the same message id, kept once. The
    // other groups of this file on events.v1 set the unreadable message aside too, each its own dead letter.
    const group = `bus-it-${run}-poison`;
    const deadLetters = new Map<string, Record<string, unknown>>();
    const watcher = await newBus();
    await watcher.subscribe({
      group: `bus-it-${run}-dead`,
      topics: [TOPICS.deadLetters],
      handler: async (m) => {
        const letter = m.value as Record<string, unknown>;
        if (m.key === key && letter.group === group) deadLetters.set(m.id, letter);
      },
    });
    const consumer = await newBus({ attempts: 2, ms: 0 });
    await consumer.subscribe({
      group,
      topics: [TOPICS.events],
      handler: async (m) => {
        if (m.key !== key) return;
        const { n } = m.value as { n: number };
        if (n === 2) throw new TypeError("cannot take 2");
        handled.push(n);
      },
    });
    const raw = new Kafka({ clientId: "bus-it-raw", brokers: KAFKA_BROKERS!.split(","), logLevel: logLevel.NOTHING });
    const rawProducer = raw.producer();
    await rawProducer.connect();
    try {
      const json = (n: number) => ({ key, value: JSON.stringify({ n }) });
      await rawProducer.send({
        topic: TOPICS.events,
        messages: [json(1), { key, value: "{not json" }, json(2), json(3)],
      });
    } finally {
      await rawProducer.disconnect();
    }
    await eventually(() => expect(handled).toEqual([1, 3]), 60_000);
    await eventually(() => expect(deadLetters.size).toBe(2), 30_000);
    const [unreadable, failing] = [...deadLetters.values()];
    expect(unreadable).toMatchObject({ group, topic: TOPICS.events, value: "{not json" });
    expect(failing).toMatchObject({ value: { n: 2 }, error: "TypeError: cannot take 2" });
  });

  const withAdmin = async <T>(use: (admin: Admin) => Promise<T>): Promise<T> => {
    const admin = new Kafka({
      clientId: "bus-it-admin",
      brokers: KAFKA_BROKERS!.split(","),
      logLevel: logLevel.NOTHING,
    }).admin();
    await admin.connect();
    try {
      return await use(admin);
    } finally {
      await admin.disconnect();
    }
  };
  /** The group's committed offsets on events.v1, summed over its partitions (-1, nothing committed, counts as 0). */
  const committed = (group: string) =>
    withAdmin(async (admin) => {
      const [topic] = await admin.fetchOffsets({ groupId: group, topics: [TOPICS.events] });
      return topic!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
    });
  const endOffsets = () =>
    withAdmin(async (admin) =>
      (await admin.fetchTopicOffsets(TOPICS.events)).reduce((sum, p) => sum + Number(p.offset), 0),
    );

  it("commits what it handled while it runs, within two seconds (every 500 ms)", async () => {
    const group = `bus-it-${run}-commits`;
    const consumer = await newBus();
    const handled: IncomingMessage[] = [];
    await consumer.subscribe({
      group,
      topics: [TOPICS.events],
      batchHandler: async (messages) => void handled.push(...messages),
    });
    const key = `${run}-commits`;
    for (let n = 0; n < 30; n++) await producer.publish([{ topic: TOPICS.events, key, value: { n } }]);
    await eventually(() => expect(handled.filter((m) => m.key === key)).toHaveLength(30), 30_000);
    const end = await endOffsets();
    // The consumer is still running: its timer commits, nothing else does.
    await eventually(async () => expect(await committed(group)).toBe(end), 2_000);
  });

  it("commits what it handled when it stops: a consumer of the same group started afterwards gets only what is new", async () => {
    const group = `bus-it-${run}-restart`;
    const key = `${run}-restart`;
    const first = await newBus();
    const firstSeen: number[] = [];
    await first.subscribe({
      group,
      topics: [TOPICS.events],
      handler: async (m) => void (m.key === key && firstSeen.push((m.value as { n: number }).n)),
    });
    await producer.publish(Array.from({ length: 5 }, (_, n) => ({ topic: TOPICS.events, key, value: { n } })));
    await eventually(() => expect(firstSeen).toHaveLength(5), 30_000);
    await first.stop();
    await producer.publish(Array.from({ length: 3 }, (_, n) => ({ topic: TOPICS.events, key, value: { n: 5 + n } })));
    const second = await newBus();
    const secondSeen: number[] = [];
    await second.subscribe({
      group,
      topics: [TOPICS.events],
      handler: async (m) => void (m.key === key && secondSeen.push((m.value as { n: number }).n)),
    });
    await eventually(() => expect(secondSeen).toEqual([5, 6, 7]), 30_000);
  });

  it("replaces a consumer kafkajs gave up on (a crash it does not restart), and handles what waited", async () => {
    const key = `${run}-given-up`;
    const warnings: string[] = [];
    const watched = pino({ level: "warn" }, { write: (line: string) => void warnings.push(JSON.parse(line).msg) });
    // A client whose first consumer crashes as kafkajs does on KafkaJSGroupCoordinatorNotFound after a broker
    // restart: an error it does not retry, so it never restarts that consumer.
    const kafka = new Kafka({
      clientId: "bus-it-given-up",
      brokers: KAFKA_BROKERS!.split(","),
      logLevel: logLevel.NOTHING,
    });
    const consumerOf = kafka.consumer.bind(kafka);
    let consumersMade = 0;
    kafka.consumer = (config) => {
      const consumer = consumerOf(config);
      if (++consumersMade > 1) return consumer;
      const runOf = consumer.run.bind(consumer);
      consumer.run = (runConfig) =>
        runOf({
          ...runConfig,
          eachBatch: async () => {
            throw new KafkaJSNonRetriableError("Failed to find group coordinator");
          },
        });
      return consumer;
    };
    const bus = createKafkaBus({
      brokers: KAFKA_BROKERS!.split(","),
      clientId: "bus-it",
      logger: watched,
      topics: [TOPICS.events],
      kafka,
      consumerRestartDelayMs: 200,
    });
    buses.push(bus);
    await bus.start();
    const seen: number[] = [];
    await bus.subscribe({
      group: `bus-it-${run}-given-up`,
      topics: [TOPICS.events],
      handler: async (m) => void (m.key === key && seen.push((m.value as { n: number }).n)),
    });
    await producer.publish(Array.from({ length: 3 }, (_, n) => ({ topic: TOPICS.events, key, value: { n } })));
    await eventually(() => expect(seen).toEqual([0, 1, 2]), 60_000);
    expect(consumersMade).toBe(2);
    expect(warnings).toContain("kafkajs gave up on a consumer; a new one takes its place");
    expect(warnings).toContain("consumer started again");
  });

  it("subscribes at once to a group whose member crashed, and handles what waited once the group is joined", async () => {
    const group = `bus-it-${run}-crashed`;
    const key = `${run}-crashed`;
    // A member that joined the group and was SIGKILLed: the group holds it until its session (6 s) runs out.
    const crashed = spawn(process.execPath, ["-e", JOIN_THEN_WAIT, KAFKA_BROKERS!, group, TOPICS.events], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve, reject) => {
      crashed.stdout.once("data", () => resolve());
      crashed.once("exit", (code) => reject(new Error(`the member exited (${code}) before it joined`)));
    });
    crashed.kill("SIGKILL");
    const bus = await newBus();
    const seen: number[] = [];
    const started = Date.now();
    await bus.subscribe({
      group,
      topics: [TOPICS.events],
      handler: async (m) => void (m.key === key && seen.push((m.value as { n: number }).n)),
    });
    // Not held until the dead member's session is over: a service starts serving at once after a crash.
    expect(Date.now() - started).toBeLessThan(3_000);
    await producer.publish(Array.from({ length: 3 }, (_, n) => ({ topic: TOPICS.events, key, value: { n } })));
    await eventually(() => expect(seen).toEqual([0, 1, 2]), 30_000);
  });

  it("hands a crashed member's partitions to the others once its shorter session runs out", async () => {
    // infra/kafka's broker allows sessions from 1 s (group.min.session.timeout.ms); a stock broker's minimum is 6 s.
    const group = `bus-it-${run}-short-session`;
    const key = `${run}-short-session`;
    const member = spawn(
      process.execPath,
      ["--import", "tsx", "test/integration/support/crashing-member.ts", KAFKA_BROKERS!, group, TOPICS.events, "2000"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const holding = new Promise<void>((resolve, reject) => {
      member.stdout.once("data", () => resolve());
      member.once("exit", (code) => reject(new Error(`the member exited (${code}) before it handled a message`)));
    });
    await eventually(async () => {
      await producer.publish([{ topic: TOPICS.events, key: `${key}-probe`, value: {} }]);
      await Promise.race([holding, new Promise((_, reject) => setTimeout(() => reject(new Error("not yet")), 1_000))]);
    }, 60_000);
    member.kill("SIGKILL");
    const crashedAt = Date.now();
    const survivor = await newBus(undefined, 2_000);
    const seen: number[] = [];
    let firstHandledAt = 0;
    await survivor.subscribe({
      group,
      topics: [TOPICS.events],
      handler: async (m) => {
        firstHandledAt ||= Date.now();
        if (m.key === key) seen.push((m.value as { n: number }).n);
      },
    });
    await producer.publish(Array.from({ length: 3 }, (_, n) => ({ topic: TOPICS.events, key, value: { n } })));
    await eventually(() => expect(seen).toEqual([0, 1, 2]), 60_000);
    // The survivor handles nothing until the group let go of the dead member: with the default 6 s session, not
    // before 6 s (what the topic held before the probe is read first, so `seen` itself may take longer).
    expect(firstHandledAt - crashedAt).toBeLessThan(5_000);
  });

  it("keeps an idle member of a 2 s session in its group (it fetches and heartbeats within the session)", async () => {
    const group = `bus-it-${run}-idle-short-session`;
    const member = await newBus(undefined, 2_000);
    await member.subscribe({ group, topics: [TOPICS.deadLetters], handler: async () => undefined });
    const memberIds = () =>
      withAdmin(async (admin) => {
        const { groups } = await admin.describeGroups([group]);
        return { state: groups[0]!.state, members: groups[0]!.members.map((m) => m.memberId) };
      });
    const joined = await eventually(async () => {
      const described = await memberIds();
      expect(described).toMatchObject({ state: "Stable", members: [expect.any(String)] });
      return described;
    }, 30_000);
    // kafkajs heartbeats from its fetch loop: with its default 5 s fetch wait the member went silent past its
    // session here, was dropped and joined again under a new member id.
    await new Promise((resolve) => setTimeout(resolve, 7_000));
    expect(await memberIds()).toEqual(joined);
  });
});

/** A kafkajs consumer that joins the group (argv: brokers, group, topic), says so on stdout and waits. */
const JOIN_THEN_WAIT = `
const { Kafka, logLevel } = require(${JSON.stringify(require.resolve("kafkajs"))});
const [brokers, groupId, topic] = process.argv.slice(1);
const consumer = new Kafka({ clientId: "bus-it-crashed", brokers: brokers.split(","), logLevel: logLevel.NOTHING })
  .consumer({ groupId, sessionTimeout: 6000, heartbeatInterval: 1000 });
consumer.on(consumer.events.GROUP_JOIN, () => process.stdout.write("joined\\n"));
(async () => {
  await consumer.connect();
  await consumer.subscribe({ topics: [topic] });
  await consumer.run({ eachMessage: async () => {} });
})();
`;
