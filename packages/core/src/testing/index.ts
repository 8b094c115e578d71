/** Test helpers for the adapters' integration tests: `@bench/core/testing`, not the main entry. */
export { requireBootstrap } from "./bootstrap.ts";
export {
  alive,
  prepareOrThrow,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type FixtureRun,
  type FixtureRunOptions,
  type LiveFixtureRun,
  type RunTopics,
  type StopOutcome,
} from "./fixture-run.ts";
export { runLogs } from "./run-logs.ts";
export { expectGatePassed, expectScoredAndConsumed, expectSkipLines } from "./expectations.ts";
export { describePoisonPills, mustRefuse, POISON_PILLS, type PoisonSuiteOptions } from "./poison-suite.ts";
