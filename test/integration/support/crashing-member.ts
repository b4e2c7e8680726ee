/**
 * A service instance about to crash: joins a consumer group through the Kafka bus with the session given, says
 * "handled" on stdout once it handled a message (so it holds the group's partitions) and waits to be SIGKILLed.
 *   node --import tsx test/integration/support/crashing-member.ts <brokers> <group> <topic> <sessionTimeoutMs>
 */
import { pino } from "pino";
import { createKafkaBus } from "@cardhold/bus";
import type { Topic } from "@cardhold/contracts";

const [brokers, group, topic, sessionTimeoutMs] = process.argv.slice(2);
const bus = createKafkaBus({
  brokers: brokers!.split(","),
  clientId: "bus-it-crashing",
  logger: pino({ level: process.env.MEMBER_LOG ?? "silent" }),
  topics: [topic as Topic],
  sessionTimeoutMs: Number(sessionTimeoutMs),
});
await bus.start();
await bus.subscribe({ group: group!, topics: [topic!], handler: async () => void process.stdout.write("handled\n") });
