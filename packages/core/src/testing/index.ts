/** Test helpers for the adapters' integration tests: `@bench/core/testing`, not the main entry. */
export {
  alive,
  compareWithFixtures,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type FixtureComparison,
  type FixtureRun,
  type FixtureRunOptions,
  type LiveFixtureRun,
  type StopOutcome,
  type TsMismatch,
} from "./fixture-run.ts";
