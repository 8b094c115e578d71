/** `bench broker`: a broker for the test suites, until SIGTERM. */
import { join } from "node:path";
import { cacheRoot } from "@bench/core";
import { KafkaBroker } from "./kafka-broker.ts";

export async function serveBroker(): Promise<number> {
  const cacheDir = join(cacheRoot(), "kafka");
  let broker: KafkaBroker;
  try {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(cacheDir, { recursive: true });
    broker = await KafkaBroker.start({ cacheDir, logFile: join(cacheDir, "broker-serve.log"), log: (l) => console.error(l) });
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  }
  console.log(`BOOTSTRAP=${broker.bootstrap}`);
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  await broker.stop();
  return 0;
}
