/**
 * Hands a bench the power to restart its broker, only when the runner started that broker: a
 * broker the user gave with --bootstrap is theirs and never stopped (the broker-restart
 * scenario then says it was not run here, and why).
 */
import type { BenchContext } from "../run/context.ts";
import type { KafkaBroker } from "./kafka-broker.ts";

export function allowBrokerRestart(bench: BenchContext, broker: KafkaBroker): void {
  bench.restartBroker = async (how) => {
    try {
      return await broker.restart(how);
    } finally {
      // The restarted broker is a new process: its CPU is still harness, not foreign load.
      bench.brokerPid = broker.pid;
    }
  };
}
