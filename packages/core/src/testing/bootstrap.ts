/** The broker every integration test runs against: BENCH_BOOTSTRAP, which scripts/test.sh sets to the broker it starts. */
export function requireBootstrap(env: NodeJS.ProcessEnv = process.env): string {
  const bootstrap = env.BENCH_BOOTSTRAP;
  if (!bootstrap) throw new Error(
    "BENCH_BOOTSTRAP is not set: point it at a Kafka broker (e.g. BENCH_BOOTSTRAP=127.0.0.1:19092), or run through scripts/test.sh, which starts one",
  );
  return bootstrap;
}
