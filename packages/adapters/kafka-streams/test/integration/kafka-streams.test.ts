/**
 * The Kafka Streams app against the dev broker: the gate's fixtures in (256 generated records,
 * then every spelling case as its raw text), each scored out by ONNX Runtime within the model
 * card's tolerance of the torch reference, the group's committed offset at the end, the Java
 * clients' logged settings held against the shared ones, no internal topics, and a clean stop
 * that leaves no JVM behind; then the same with poison pills, each skipped and counted.
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { cacheRoot, FIXTURE_COUNT, KAFKA_SETTINGS, parseJavaClientConfigs, processTree, readSkipLines } from "@bench/core";
import {
  alive,
  describePoisonPills,
  expectGatePassed,
  prepareOrThrow,
  requireBootstrap,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type LiveFixtureRun,
} from "@bench/core/testing";
import { javaClientMismatches } from "../../src/client-settings.ts";
import { kafkaStreams } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "kafka-streams");
const appLog = (runDir: string): string => readFileSync(join(runDir, "kafka-streams.log"), "utf8");
const log = (line: string): void => console.log(line);

describe("kafka-streams adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned jars and compiles the app", async () => {
    const prep = await prepareOrThrow(kafkaStreams, { cacheDir, log });
    expect(prep.versions).toMatchObject({ "kafka-streams": "4.1.1", onnxruntime: "1.29.0", jackson: "2.19.0" });
    expect(prep.versions.java).toMatch(/^17\./);
  }, 900_000);

  it("scores every fixture record within the card's tolerance, commits, runs the shared settings, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(kafkaStreams, { bootstrap, parallelism: 2, cacheDir, topicPrefix: "kstreams-it", log, keepRunning: true });
    expect(run.aliveAtStart).toEqual(run.rootPids);
    expect(run.running.consumed.kind).toBe("group-offsets");
    // ONNX Runtime against the torch reference the fixtures carry, within the card's tolerance.
    expectGatePassed(run);
    expect(run.consumed).toBe(FIXTURE_COUNT);
    // Stateless: Streams made no changelog or repartition topic (they would be named after the application id).
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);

    const text = appLog(run.runDir);
    // The main and restore consumers and the producer, as the Java client logged them: the shared settings under Java's names.
    const clients = parseJavaClientConfigs(text);
    log(`max risk error ${run.gate.maxError}; Java clients logged: ${clients.map((c) => c.kind).join(", ")}`);
    expect(clients.filter((c) => c.kind === "consumer").length).toBeGreaterThanOrEqual(1);
    expect(javaClientMismatches(clients, KAFKA_SETTINGS)).toEqual([]);
    const streamsConfig = (name: string): string | undefined => new RegExp(`^\\t${name.replace(/\./g, "\\.")} = (.*)$`, "m").exec(
      text.slice(text.indexOf("StreamsConfig values:")),
    )?.[1];
    expect(streamsConfig("processing.guarantee")).toBe("at_least_once");
    expect(streamsConfig("commit.interval.ms")).toBe("1000");
    expect(streamsConfig("num.stream.threads")).toBe("1");
    expect(streamsConfig("processing.exception.handler")).toBe("class org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");
    expect(streamsConfig("deserialization.exception.handler")).toBe("class org.apache.kafka.streams.errors.LogAndContinueExceptionHandler");
    expect(text).toMatch(/input NodeInfo\(name=features/);
    // The app scored the card's torch probes through ONNX Runtime at load, within the card's tolerance.
    expect(text).toMatch(/the card's probes within its tolerance \(largest error [0-9.E-]+\)/);
    expect(readSkipLines(text)).toEqual({ skips: [], malformed: [] });

    const roots = run.rootPids;
    const everyPid = processTree(roots).map((p) => p.pid);
    // The shutdown hook closes Streams (last commit) and halts with 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
    expect(everyPid.filter(alive)).toEqual([]);
  }, 400_000);
});

describePoisonPills(kafkaStreams, { cacheDir, log, stopExit: { code: 0, signal: null } });
