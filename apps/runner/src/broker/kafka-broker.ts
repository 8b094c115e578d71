/**
 * A real single-node Apache Kafka (KRaft) on 127.0.0.1, owned by the runner: jars resolved
 * from Maven Central into the cache once, storage formatted in a fresh folder, started,
 * health-checked through the admin API, stopped and removed at the end.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { freePort, KafkaAdmin, ManagedProcess, resolveJars, type MavenArtifact } from "@bench/core";

export const KAFKA_VERSION = "4.1.1";
const LOG4J_VERSION = "2.24.3";

const KAFKA_ARTIFACTS: MavenArtifact[] = [
  { groupId: "org.apache.kafka", artifactId: "kafka_2.13", version: KAFKA_VERSION },
  // ProducerPerformance, the yardstick gendata is measured against.
  { groupId: "org.apache.kafka", artifactId: "kafka-tools", version: KAFKA_VERSION },
  // Kafka 4 ships no SLF4J binding at run time (it uses the 1.x API): without one the broker logs nothing.
  { groupId: "org.apache.logging.log4j", artifactId: "log4j-slf4j-impl", version: LOG4J_VERSION },
  { groupId: "org.apache.logging.log4j", artifactId: "log4j-core", version: LOG4J_VERSION },
];

export async function kafkaClasspath(cacheDir: string, log: (line: string) => void): Promise<string> {
  const libs = await resolveJars(join(cacheDir, `kafka-${KAFKA_VERSION}`), KAFKA_ARTIFACTS, log);
  return `${libs}/*`;
}

function serverProperties(port: number, controllerPort: number, dataDir: string): string {
  return `process.roles=broker,controller
node.id=1
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${port}
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
controller.quorum.bootstrap.servers=127.0.0.1:${controllerPort}
log.dirs=${dataDir}
num.partitions=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
`;
}

const LOG4J_CONFIG = `status = warn
appender.console.type = Console
appender.console.name = console
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.console.ref = console
logger.kafka.name = kafka.server.KafkaRaftServer
logger.kafka.level = INFO
`;

export interface BrokerOptions {
  cacheDir: string;
  /** Where the broker's log goes (kept after it stops). */
  logFile: string;
  log: (line: string) => void;
  heapMb?: number;
}

/** How a broker restart goes: SIGKILL of the broker's process group (hard) or a clean SIGTERM stop, then `downMs` down. */
export interface BrokerRestart {
  hard: boolean;
  downMs: number;
}

/** Epoch ms: the stop asked, the process gone, the restarted broker answering again. */
export interface BrokerRestartTimes {
  downAt: number;
  stoppedAt: number;
  upAt: number;
}

export class KafkaBroker {
  private constructor(
    readonly bootstrap: string,
    readonly version: string,
    private process: ManagedProcess,
    private readonly workDir: string,
    /** Starts the broker process on the same server.properties: same ports, same log.dirs. */
    private readonly launch: () => ManagedProcess,
  ) {}

  get pid(): number {
    return this.process.pid;
  }

  static async start(opts: BrokerOptions): Promise<KafkaBroker> {
    const classpath = await kafkaClasspath(opts.cacheDir, opts.log);
    const workDir = mkdtempSync(join(opts.cacheDir, "broker-run-"));
    const [port, controllerPort] = [await freePort(), await freePort()];
    const props = join(workDir, "server.properties");
    writeFileSync(props, serverProperties(port, controllerPort, join(workDir, "data")));
    writeFileSync(join(workDir, "log4j2.properties"), LOG4J_CONFIG);
    const java = ["-cp", classpath, `-Dlog4j2.configurationFile=${join(workDir, "log4j2.properties")}`];
    const fail = (what: string, detail: string): never => {
      rmSync(workDir, { recursive: true, force: true });
      throw new Error(`Kafka broker ${what}:\n${detail}`);
    };

    const uuid = await execa("java", [...java, "kafka.tools.StorageTool", "random-uuid"], { reject: false, all: true });
    const clusterId = uuid.stdout.trim().split("\n").pop() ?? "";
    if (uuid.exitCode !== 0 || clusterId === "") fail("could not make a cluster id", String(uuid.all));
    const format = await execa(
      "java",
      [...java, "kafka.tools.StorageTool", "format", "--standalone", "-t", clusterId, "-c", props],
      { reject: false, all: true },
    );
    if (format.exitCode !== 0) fail("storage format failed", String(format.all));

    const heap = `${opts.heapMb ?? 1024}m`;
    // The log file is appended to, so a restarted broker's log follows the first start's.
    const launch = (): ManagedProcess =>
      new ManagedProcess({
        command: "java",
        args: [`-Xms${heap}`, `-Xmx${heap}`, "-XX:+UseG1GC", ...java, "kafka.Kafka", props],
        logFile: opts.logFile,
      });
    const process = launch();
    const bootstrap = `127.0.0.1:${port}`;
    const broker = new KafkaBroker(bootstrap, KAFKA_VERSION, process, workDir, launch);
    try {
      await waitHealthy(bootstrap, process, 90_000);
    } catch (error) {
      await broker.stop();
      throw new Error(`Kafka broker did not start: ${(error as Error).message}\n--- broker log tail ---\n${process.logTail(40)}`);
    }
    opts.log(`Apache Kafka ${KAFKA_VERSION} (KRaft) up at ${bootstrap}`);
    return broker;
  }

  /**
   * Stops the broker (SIGKILL of its whole group, or a clean stop that lets it close its logs),
   * keeps it down for `downMs`, and starts it again on the same port and data folder; resolves
   * once it answers the admin API again. The pid changes: read `pid` afterwards.
   */
  async restart(how: BrokerRestart, timeoutMs = 90_000): Promise<BrokerRestartTimes> {
    const downAt = Date.now();
    if (how.hard) {
      try {
        globalThis.process.kill(-this.process.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
    // After a SIGKILL this only waits for the exit and closes the log; otherwise SIGTERM, a controlled shutdown.
    await this.process.stop(30_000);
    const stoppedAt = Date.now();
    await new Promise((r) => setTimeout(r, how.downMs));
    this.process = this.launch();
    try {
      await waitHealthy(this.bootstrap, this.process, timeoutMs);
    } catch (error) {
      throw new Error(`Kafka broker did not come back: ${(error as Error).message}\n--- broker log tail ---\n${this.process.logTail(40)}`);
    }
    return { downAt, stoppedAt, upAt: Date.now() };
  }

  async stop(): Promise<void> {
    await this.process.stop(15_000);
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

async function waitHealthy(bootstrap: string, process: ManagedProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (process.hasExited) throw new Error("the broker process exited");
    try {
      const admin = await KafkaAdmin.connect(bootstrap);
      await admin.listTopics();
      await admin.close();
      return;
    } catch (error) {
      last = (error as Error).message;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`not healthy within ${timeoutMs / 1000}s (${last})`);
}
