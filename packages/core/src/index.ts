export type {
  ConsumedSource,
  Preparation,
  Prepared,
  PrepareContext,
  Prerequisite,
  PrerequisiteFound,
  PrerequisiteMissing,
  ModelCall,
  ModelHost,
  Product,
  ProductExit,
  RemoteResources,
  RowDescription,
  RunContext,
  RunningProduct,
} from "./adapter.ts";
export { MODEL_ALONE_TIMING, parseModelAloneTiming, timeModelAloneChild, timingArgs, type ModelAloneTiming } from "./model-alone.ts";
export { DEFAULT_GUARANTEE, GUARANTEES, NO_EXACTLY_ONCE, parseGuarantee, transactionalIdFor, type ExactlyOnceOffer, type Guarantee } from "./guarantee.ts";
export { ONNXRUNTIME_WHEEL_VERSION } from "./onnxruntime-version.ts";
export { DEFAULT_SERVING, NOT_SERVED, parseModelServerUrl, parseServing, SERVINGS, type ServedOffer, type Serving } from "./serving.ts";
export {
  MODEL_SERVER_CACHE,
  ModelServer,
  modelServerFacts,
  prepareModelServer,
  type ModelServerFacts,
  type ModelServerOptions,
  type PreparedModelServer,
} from "./model-server.ts";
export { KSERVE_VERSION, MODEL_SERVER_REQUIREMENTS } from "./model-server-pins.ts";
export { benchAppEnv, freePort, runningApp, startReadyApp } from "./app-process.ts";
export { counterFile, parseCounter } from "./counter-file.ts";
export { JAVA_HOME, javaCheck, javaPrerequisite, javaVersion, parseJavaVersion } from "./java.ts";
export { pomFor, resolveJars, type MavenArtifact } from "./maven.ts";
export { LOG_TAIL_LINES, ManagedProcess, type ManagedProcessOptions } from "./child-process.ts";
export { featureMatrix, normalise, type FeatureVector } from "./features.ts";
export { mix32, mulberry32, type Rng } from "./random.ts";
export { makeRecord, makeTemplate, POOL_SIZE, RecordEncoder, type RecordTemplate } from "./generator.ts";
export { cacheRoot, fixturesDir, isExecutableFile, modelsDir, productCacheDir, repoRoot } from "./paths.ts";
export { missingReason, sharedWhileRunning, unmetReason } from "./prerequisites.ts";
export { pythonTorchChecks } from "./python-torch-checks.ts";
export {
  DEBIAN_NUMPY,
  DEBIAN_PYTHON,
  debianTorchEnv,
  debianTorchPrerequisites,
  prepareDebianTorchEnv,
  type DebianTorchEnv,
  type DebianTorchRow,
} from "./debian-torch.ts";
export {
  debianPackageVersion,
  ensurePythonEnv,
  librdkafkaVersion,
  pythonVersions,
  pythonVersionsScript,
  upstreamVersion,
  type PythonEnv,
  type PythonEnvSpec,
} from "./python-env.ts";
export { TreeSampler, type MemoryInstrument, type ResourceSample, type SamplerCost } from "./sampler.ts";
export {
  eventIdFor,
  INPUT_FIELD_COUNT,
  METRIC_FIELDS,
  METRIC_MAXIMA,
  seqOfEventId,
  type InputRecord,
  type MetricField,
  type OutputRecord,
} from "./schema.ts";
export {
  consumerSettingsProse,
  effectiveSettingsMismatches,
  javaProducerMismatches,
  KAFKA_SETTINGS,
  kafkaSettingsEnv,
  parseConfDump,
  parseJavaClientConfigs,
  settingsMismatches,
  type ClientSettings,
  type DumpedClient,
  type KafkaSettings,
  type SettingValue,
} from "./kafka-settings.ts";
export { KafkaAdmin, produceMessages, readTopic, type ConsumedMessage, type KeyedValue, type TopicSpec } from "./kafka.ts";
export { readSkipLines, skipCountsProblem, type SkipLine } from "./skip-lines.ts";
export {
  POISON_KINDS,
  poisonIdFor,
  poisonSchedule,
  poisonValue,
  REFUSAL_CASES,
  refusalPills,
  type PoisonFindings,
  type PoisonKind,
  type PoisonPill,
  type RefusalCase,
} from "./poison.ts";
export { DEFAULT_MODEL, loadModelCard, probeError, ReferenceModel, type ModelCard, type ModelProbe } from "./model.ts";
export { FIXTURE_SEED, FIXTURE_TS_MS, GENERATED_FIXTURE_COUNT, loadFixtures, type FixtureRow } from "./fixtures.ts";
export {
  loadSpellings,
  NEAR_LIMIT_VALUE_BYTES,
  SMALLEST_MESSAGE_LIMIT,
  SPELLING_CASES,
  SPELLING_COUNT,
  spellingRows,
  type SpellingCase,
  type SpellingRow,
} from "./spellings.ts";
export { FIXTURE_COUNT, fixtureLabel, gateRecords, gateRecordsScored, loadGateRecords, type GateRecord } from "./gate-records.ts";
export { GateCheck, type GateResult } from "./gate-check.ts";
export { declaredFixtures, findingNotes, misreadSeqs, productNotes, type SpellingFinding, type SpellingFindings } from "./spelling-findings.ts";
export { gateMessages, PILL_KEY, pillOffsets, readIntoCheck, runGate, type GateOptions, type GateRun } from "./gate-run.ts";
export { HEAD_BYTES, outputHead, readOutput, type BadOutput, type OutputRead } from "./output-read.ts";
export {
  CLOCK_TICKS,
  parseMachineCpu,
  killTree,
  processTree,
  readMachineCpu,
  readMemory,
  readProcessTable,
  readStat,
  treeOf,
  type MachineCpu,
  type ProcessTable,
  type ProcStat,
} from "./proc.ts";
export {
  CATEGORY_LABELS,
  classifyStack,
  classifyStacks,
  classifyThread,
  emptyCounts,
  formatCollapsed,
  parseCollapsed,
  PROFILE_CATEGORIES,
  PYTHON_COMMON_FRAMES,
  RDKAFKA_THREADS,
  sharesOf,
  type CategoryCounts,
  type CollapsedStack,
  type FrameRule,
  type ProfileCategory,
  type ProfileRules,
  type RuleCategory,
  type ThreadRule,
} from "./profile.ts";
export { buildCrate, buildKey, cargoBuildCommand, crateFiles, rustcVersion, type CargoCrate } from "./cargo-build.ts";
export { buildOutputReader, decodeFrames, readTopicNative, type FrameHandlers, type NativeReadOptions } from "./native-output-reader.ts";
