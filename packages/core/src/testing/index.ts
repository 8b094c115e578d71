/** Test helpers for the adapters' integration tests: `@bench/core/testing`, not the main entry. */
export { requireBootstrap } from "./bootstrap.ts";
export {
  alive,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type FixtureRun,
  type FixtureRunOptions,
  type LiveFixtureRun,
  type RunTopics,
  type StopOutcome,
} from "./fixture-run.ts";
export { describePoisonPills, expectGatePassed, expectSkipLines, POISON_PILLS, type PoisonSuiteOptions } from "./poison-suite.ts";
