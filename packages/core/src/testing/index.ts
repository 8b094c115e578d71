/** Test helpers for the adapters' integration tests: `@bench/core/testing`, not the main entry. */
export {
  alive,
  compareWithFixtures,
  gateMessages,
  scoreFixturesThroughProduct,
  topicsOfGroup,
  type FixtureBar,
  type FixtureComparison,
  type FixtureRun,
  type FixtureRunOptions,
  type LiveFixtureRun,
  type StopOutcome,
  type TsMismatch,
} from "./fixture-run.ts";
