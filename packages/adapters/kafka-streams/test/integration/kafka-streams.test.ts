/**
 * The Kafka Streams app against the dev broker: the gate's fixtures in (256 generated records,
 * then every spelling case as its raw text), each scored out by ONNX Runtime within the model
 * card's tolerance of the torch reference, the group's committed offset at the end, the Java
 * clients' logged settings held against the shared ones, no internal topics, and a clean stop
 * that leaves no JVM behind; then the same with poison pills, each skipped and counted.
 */
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { cacheRoot, FIXTURE_COUNT, GENERATED_FIXTURE_COUNT, KAFKA_SETTINGS, loadModelCard, modelsDir, parseJavaClientConfigs, POISON_KINDS, poisonSchedule, processTree, repoRoot } from "@bench/core";
import { alive, scoreFixturesThroughProduct, topicsOfGroup, type LiveFixtureRun } from "@bench/core/testing";
import { javaClientMismatches } from "../../src/client-settings.ts";
import { kafkaStreams } from "../../src/product.ts";

const bootstrap = process.env.BENCH_BOOTSTRAP;
if (!bootstrap) throw new Error("BENCH_BOOTSTRAP is not set: point it at a Kafka broker, e.g. BENCH_BOOTSTRAP=127.0.0.1:19092");

const cacheDir = join(cacheRoot(), "kafka-streams");
const appLog = (runDir: string): string => readFileSync(join(runDir, "kafka-streams.log"), "utf8");
const log = (line: string): void => console.log(line);

describe("kafka-streams adapter", () => {
  let run: LiveFixtureRun | undefined;

  afterAll(async () => {
    await run?.stop();
  });

  it("prepares its pinned jars and compiles the app", async () => {
    const prep = await kafkaStreams.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log });
    if (!prep.ok) throw new Error(prep.reason);
    expect(prep.versions).toMatchObject({ "kafka-streams": "4.1.1", onnxruntime: "1.29.0", jackson: "2.19.0" });
    expect(prep.versions.java).toMatch(/^17\./);
  }, 900_000);

  it("scores every fixture record within the card's tolerance, commits, runs the shared settings, then stops cleanly", async () => {
    run = await scoreFixturesThroughProduct(kafkaStreams, { bootstrap, parallelism: 2, cacheDir, topicPrefix: "kstreams-it", log, keepRunning: true });
    expect(run.aliveAtStart).toEqual(run.rootPids);
    expect(run.running.consumed.kind).toBe("group-offsets");
    expect(run).toMatchObject({ fixtureCount: FIXTURE_COUNT, problems: [], missing: [], tsMismatches: [], strayOutputs: 0, consumed: FIXTURE_COUNT });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    // ONNX Runtime against the torch reference the fixtures carry.
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
    // Stateless: Streams made no changelog or repartition topic (they would be named after the application id).
    expect(await topicsOfGroup(bootstrap, run.topics)).toEqual([]);

    const text = appLog(run.runDir);
    // The main and restore consumers and the producer, as the Java client logged them: the shared settings under Java's names.
    const clients = parseJavaClientConfigs(text);
    log(`max risk error ${run.maxRiskError}; Java clients logged: ${clients.map((c) => c.kind).join(", ")}`);
    expect(clients.filter((c) => c.kind === "consumer").length).toBeGreaterThanOrEqual(1);
    expect(javaClientMismatches(clients, KAFKA_SETTINGS)).toEqual([]);
    const streamsConfig = (name: string): string | undefined => new RegExp(`^\\t${name.replace(/\./g, "\\.")} = (.*)$`, "m").exec(text.slice(text.indexOf("StreamsConfig values:")))?.[1];
    expect(streamsConfig("processing.guarantee")).toBe("at_least_once");
    expect(streamsConfig("commit.interval.ms")).toBe("1000");
    expect(streamsConfig("num.stream.threads")).toBe("1");
    expect(streamsConfig("processing.exception.handler")).toBe("class org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler");
    expect(streamsConfig("deserialization.exception.handler")).toBe("class org.apache.kafka.streams.errors.LogAndContinueExceptionHandler");
    expect(text).toMatch(/input NodeInfo\(name=features/);
    // The app scored the card's torch probes through ONNX Runtime at load, within the card's tolerance.
    expect(text).toMatch(/the card's probes within its tolerance \(largest error [0-9.E-]+\)/);
    expect(text).not.toMatch(/skipped record at offset/);

    const roots = run.rootPids;
    const everyPid = processTree(roots).map((p) => p.pid);
    // The shutdown hook closes Streams (last commit) and halts with 0.
    expect(await run.stop()).toEqual({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
    expect(everyPid.filter(alive)).toEqual([]);
  }, 400_000);
});

describe("kafka-streams with poison pills", () => {
  let run: LiveFixtureRun | undefined;
  afterAll(async () => {
    await run?.stop();
  });

  it("skips and counts every pill, scores every good record around them, keeps running and stops cleanly", async () => {
    const pills = poisonSchedule({ seed: 7, rounds: 2, firstSeq: 1, span: GENERATED_FIXTURE_COUNT - 1 });
    run = await scoreFixturesThroughProduct(kafkaStreams, { bootstrap, cacheDir, topicPrefix: "kstreams-poison-it", log, poison: pills, keepRunning: true });
    expect(run).toMatchObject({ problems: [], missing: [], tsMismatches: [], strayOutputs: 0, inputCount: FIXTURE_COUNT + 2 * POISON_KINDS.length });
    expect(run.outputs.size).toBe(FIXTURE_COUNT);
    expect(run.maxRiskError).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
    // The pills' offsets are committed too: skipped, not stuck.
    expect(run.consumed).toBe(run.inputCount);
    const skips = appLog(run.runDir).match(/skipped record at offset \d+: [^\n]*/g) ?? [];
    log(skips.join("\n"));
    expect(skips).toHaveLength(pills.length);
    expect(skips.at(-1)).toMatch(new RegExp(`\\(skipped ${pills.length}\\)$`));
    expect((await run.stop())).toMatchObject({ exit: { code: 0, signal: null }, aliveAfterStop: [] });
  }, 900_000);
});
