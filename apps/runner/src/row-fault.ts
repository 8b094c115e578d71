/**
 * One row's fault stays that row's. An error that escapes a row's runs (an admin call the broker
 * refused, a topic that would not be made, gendata that could not feed) fails that row with its
 * reason, and the bench goes on to the next row; only a broker that no longer answers at all ends
 * the bench, since every row after it would fail the same way.
 */
import { KafkaAdmin } from "@bench/core";

/**
 * Test-only seam: set to a product id, that row's admin refuses to create topics. Every other call,
 * and every other row, goes to the bench's real admin, so the path under test is the production one.
 */
export const INJECT_ADMIN_ERROR_ENV = "BENCH_TEST_ADMIN_ERROR";

/** How long a broker that does not answer gets before the bench calls it gone. */
const REACH_TIMEOUT_MS = 30_000;

/** The admin one row's runs use: the bench's own, unless the test seam names this row. */
export function rowAdmin(admin: KafkaAdmin, productId: string, env: NodeJS.ProcessEnv = process.env): KafkaAdmin {
  if (env[INJECT_ADMIN_ERROR_ENV] !== productId) return admin;
  return new Proxy(admin, {
    get(target, property) {
      if (property === "createTopics") {
        return async (): Promise<void> => {
          throw new Error(`admin error injected by ${INJECT_ADMIN_ERROR_ENV}: the broker refused to create the row's topics`);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Runs one row; returns the reason it failed (undefined when it did not throw). */
export async function rowFault(run: () => Promise<void>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return (error as Error).message || String(error);
  }
}

/**
 * Why the broker cannot be reached at all, or undefined when it answers: a fresh client (the
 * bench's own may hold a broken connection) that must list the topics within the limit.
 */
export async function brokerUnreachable(
  bootstrap: string,
  connect: (bootstrap: string) => Promise<Pick<KafkaAdmin, "listTopics" | "close">> = (b) => KafkaAdmin.connect(b),
  timeoutMs = REACH_TIMEOUT_MS,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  let client: Pick<KafkaAdmin, "listTopics" | "close"> | undefined;
  try {
    await Promise.race([
      (async () => {
        client = await connect(bootstrap);
        await client.listTopics();
      })(),
      limit,
    ]);
    return undefined;
  } catch (error) {
    return `the broker at ${bootstrap} cannot be reached: ${(error as Error).message}`;
  } finally {
    clearTimeout(timer);
    await client?.close().catch(() => undefined);
  }
}
