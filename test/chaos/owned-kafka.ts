import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const KAFKA_LIB = fileURLToPath(new URL("../../infra/kafka/lib", import.meta.url));
const LOG4J = fileURLToPath(new URL("../../infra/kafka/log4j.properties", import.meta.url));
const JVM_OPTIONS = fileURLToPath(new URL("../../infra/kafka/broker-jvm.options", import.meta.url));

/** The broker's JVM flags, as `infra/kafka/start.sh` starts the machine's broker with them (heap apart). */
export function brokerJvmOptions(): string[] {
  return readFileSync(JVM_OPTIONS, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

export interface OwnedKafka {
  brokers: string;
  /** The broker's process id while it runs. */
  pid(): number | undefined;
  /** SIGTERM (a controlled shutdown), then SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  /** Starts the broker again on the same ports and data; resolves once it accepts connections. */
  start(): Promise<void>;
}

/**
 * A single-node KRaft broker of the run's own, on its own ports and data directory, from the jars `infra/kafka`
 * fetched (`bash infra/kafka/start.sh` fetches them once). The chaos run stops and restarts it; the machine's broker
 * on 9092, if any, is never touched.
 */
export async function startOwnedKafka(dir: string, port: number, controllerPort: number): Promise<OwnedKafka> {
  if (!existsSync(KAFKA_LIB) || !readdirSync(KAFKA_LIB).some((f) => f.startsWith("kafka_2.13-"))) {
    throw new Error(
      `no Kafka jars in ${KAFKA_LIB}: run "bash infra/kafka/start.sh" once to fetch them from Maven Central`,
    );
  }
  mkdirSync(dir, { recursive: true });
  const props = join(dir, "server.properties");
  writeFileSync(props, brokerProperties(join(dir, "log"), port, controllerPort));
  const classpath = `${KAFKA_LIB}/*`;
  const format = spawnSync(
    "java",
    [
      "-Xmx256m",
      "-cp",
      classpath,
      "kafka.tools.StorageTool",
      "format",
      // As one argument: a base64url id may start with "-", which the tool would take for an option.
      `--cluster-id=${randomBytes(16).toString("base64url")}`,
      "-c",
      props,
      "--ignore-formatted",
    ],
    { encoding: "utf8" },
  );
  if (format.status !== 0) throw new Error(`Kafka storage format failed: ${format.stderr}`);
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      "java",
      [
        "-Xms128m",
        "-Xmx512m",
        ...brokerJvmOptions(),
        `-Dkafka.logs.dir=${dir}`,
        `-Dlog4j.configuration=file:${LOG4J}`,
        "-cp",
        classpath,
        "kafka.Kafka",
        props,
      ],
      { stdio: "ignore" },
    );
    await waitForPort(port, 90_000);
  };
  await start();
  return {
    brokers: `127.0.0.1:${port}`,
    pid: () => (child && child.exitCode === null ? child.pid : undefined),
    start,
    async stop(timeoutMs = 30_000) {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      const timer = setTimeout(() => running.kill("SIGKILL"), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

function brokerProperties(logDir: string, port: number, controllerPort: number): string {
  return [
    "process.roles=broker,controller",
    "node.id=1",
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    "controller.listener.names=CONTROLLER",
    "inter.broker.listener.name=PLAINTEXT",
    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
    `log.dirs=${logDir}`,
    "num.partitions=3",
    "default.replication.factor=1",
    "min.insync.replicas=1",
    "offsets.topic.replication.factor=1",
    "offsets.topic.num.partitions=3",
    "transaction.state.log.replication.factor=1",
    "transaction.state.log.min.isr=1",
    "transaction.state.log.num.partitions=3",
    "group.initial.rebalance.delay.ms=0",
    "group.min.session.timeout.ms=1000",
    "auto.create.topics.enable=true",
    "num.network.threads=2",
    "num.io.threads=4",
    "",
  ].join("\n");
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Kafka did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
}
