import { randomBytes } from "node:crypto";
import { Kafka, logLevel, type Consumer } from "kafkajs";

export interface TopicReader {
  /** Values of every message seen so far whose key is `key`. */
  byKey(key: string): unknown[];
  stop(): Promise<void>;
}

/** Reads a topic from the beginning with a throwaway consumer group. */
export async function readTopic(brokers: string, topic: string): Promise<TopicReader> {
  const kafka = new Kafka({ clientId: "integration-test", brokers: brokers.split(","), logLevel: logLevel.NOTHING });
  const consumer: Consumer = kafka.consumer({ groupId: `it-${randomBytes(6).toString("hex")}` });
  const seen: Array<{ key: string; value: unknown }> = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      seen.push({ key: message.key?.toString() ?? "", value: JSON.parse(message.value?.toString() ?? "null") });
    },
  });
  return {
    byKey: (key) => seen.filter((m) => m.key === key).map((m) => m.value),
    stop: () => consumer.disconnect(),
  };
}

/** Publishes JSON messages to a topic, as another service would. */
export async function produce(
  brokers: string,
  topic: string,
  messages: Array<{ key: string; value: unknown; id: string }>,
) {
  const kafka = new Kafka({
    clientId: "integration-test-producer",
    brokers: brokers.split(","),
    logLevel: logLevel.NOTHING,
  });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({
    topic,
    acks: -1,
    messages: messages.map((m) => ({ key: m.key, value: JSON.stringify(m.value), headers: { "message-id": m.id } })),
  });
  await producer.disconnect();
}
