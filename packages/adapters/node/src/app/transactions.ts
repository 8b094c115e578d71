/**
 * The node rows' exactly-once loop: each batch is one Kafka transaction on a producer whose
 * transactional.id is the run's (BENCH_TRANSACTIONAL_ID). Its outputs and the consumer's positions
 * after it (sendOffsetsToTransaction) commit together, so a read_committed reader sees the batch's
 * outputs once and the group's committed offset stays the consumed position.
 *
 * What follows a failed call is what librdkafka's error flags say: isRetriable, call it again;
 * isTxnRequiresAbort, abort the transaction and read the batch again; isFatal (a fenced producer),
 * or any other failure, end the app non-zero so the bench's restart starts from the last commit.
 */
import type { KafkaConsumer, LibrdKafkaError, Message, Producer, TopicPartitionOffset } from "@confluentinc/kafka-javascript";

/** One call's limit: commitTransaction first flushes the batch's outputs, which a busy broker can make slow. */
const CALL_TIMEOUT_MS = 10_000;
/** How long a retriable failure is retried: the coordinator aborts a transaction open longer (transaction.timeout.ms' default). */
const RETRY_FOR_MS = 60_000;
/**
 * A call still unanswered this long after its own timeout is stuck inside librdkafka: a coordinator
 * lookup that waits on a broker handle the client dropped when the broker went away can wait
 * forever (librdkafka issue 5511), and no other transactional call can run meanwhile.
 */
const STUCK_AFTER_MS = CALL_TIMEOUT_MS + 20_000;

export type Step = "retry" | "abort" | "fatal";

/** What to do after a transactional call failed, as librdkafka classifies the error. */
export function stepAfter(error: Pick<LibrdKafkaError, "isFatal" | "isRetriable" | "isTxnRequiresAbort">): Step {
  if (error.isFatal) return "fatal";
  if (error.isTxnRequiresAbort) return "abort";
  if (error.isRetriable) return "retry";
  return "fatal";
}

/**
 * A transactional call that failed for good, and whether the transaction can still be aborted.
 * `stuck`: the call never returned, and its thread stays blocked in librdkafka.
 */
export class TransactionError extends Error {
  constructor(
    readonly step: "abort" | "fatal",
    call: string,
    cause: { message: string; code?: number },
    readonly stuck = false,
  ) {
    super(`${call} failed (${step}): ${cause.message}${cause.code === undefined ? "" : ` (code ${cause.code})`}`);
  }
}

/** Per topic-partition, the offset after the batch's last record: what the transaction commits for the group. */
export function positionsAfter(batch: readonly Message[]): TopicPartitionOffset[] {
  return byPartition(batch, (held, offset) => Math.max(held, offset + 1));
}

/** Per topic-partition, the batch's first offset: where its records are read again from. */
export function batchStarts(batch: readonly Message[]): TopicPartitionOffset[] {
  return byPartition(batch, (held, offset) => Math.min(held, offset));
}

function byPartition(batch: readonly Message[], keep: (held: number, offset: number) => number): TopicPartitionOffset[] {
  const found = new Map<string, TopicPartitionOffset>();
  for (const { topic, partition, offset } of batch) {
    const key = `${partition}\u0000${topic}`;
    const held = found.get(key);
    if (held) held.offset = keep(held.offset, offset);
    else found.set(key, { topic, partition, offset: keep(offset, offset) });
  }
  return [...found.values()];
}

type Callback = (err: LibrdKafkaError | null | undefined) => void;

export class Transactions {
  constructor(
    private readonly producer: Producer,
    private readonly consumer: KafkaConsumer,
    private readonly stopping: () => boolean,
    private readonly stuckAfterMs = STUCK_AFTER_MS,
  ) {}

  /** Registers the transactional id: fences a killed instance of the run and aborts its open transaction. */
  async init(): Promise<void> {
    await this.call("initTransactions", (cb) => this.producer.initTransactions(CALL_TIMEOUT_MS, cb), false);
  }

  /**
   * The batch as one transaction: begin, its outputs (`produce` hands them to the producer), the
   * positions after it, commit. An abortable failure aborts and rewinds the consumer to the batch's
   * start, so the next consume reads it again; returns whether the batch committed. A fatal failure
   * throws. No transaction is left open when this returns.
   */
  async run(batch: readonly Message[], produce: () => void): Promise<boolean> {
    await this.call("beginTransaction", (cb) => this.producer.beginTransaction(cb), false);
    try {
      this.produceAll(produce);
      await this.call("sendOffsetsToTransaction", (cb) => this.producer.sendOffsetsToTransaction(positionsAfter(batch), this.consumer, CALL_TIMEOUT_MS, cb));
      await this.call("commitTransaction", (cb) => this.producer.commitTransaction(CALL_TIMEOUT_MS, cb));
      return true;
    } catch (error) {
      if (!(error instanceof TransactionError) || error.step !== "abort") throw error;
      console.error(`transaction aborted, the batch is read again: ${error.message}`);
      await this.call("abortTransaction", (cb) => this.producer.abortTransaction(CALL_TIMEOUT_MS, cb), false);
      await this.rewind(batch);
      return false;
    }
  }

  /** A produce that throws (the transaction already failed, or the queue is full) makes the transaction abortable. */
  private produceAll(produce: () => void): void {
    try {
      produce();
    } catch (error) {
      const failure = error as { message?: unknown; code?: unknown };
      if (typeof failure.code !== "number") throw error;
      throw new TransactionError("abort", "produce", { message: String(failure.message), code: failure.code });
    }
  }

  /**
   * The consumer back at the batch's first offsets. They are the group's committed offsets: every
   * earlier batch's transaction committed the positions after it, and a batch is read from there.
   * Taking them from the batch needs no round trip to a coordinator that may be the reason for the abort.
   */
  private async rewind(batch: readonly Message[]): Promise<void> {
    for (const start of batchStarts(batch)) {
      await new Promise<void>((resolve, reject) =>
        this.consumer.seek(start, CALL_TIMEOUT_MS, (err) => (err ? reject(new TransactionError("fatal", "seek", err)) : resolve())),
      );
    }
  }

  /**
   * One transactional call, retried while librdkafka calls its failure retriable, for at most
   * RETRY_FOR_MS and not once the app is stopping (the bench's stop waits a few seconds only).
   * A retriable failure past that aborts the transaction when `abortable`, or is fatal.
   */
  private async call(name: string, start: (cb: Callback) => void, abortable = true): Promise<void> {
    const deadline = Date.now() + RETRY_FOR_MS;
    for (;;) {
      const err = await this.answer(name, start);
      if (!err) return;
      const step = stepAfter(err);
      if (step === "retry" && Date.now() < deadline && !this.stopping()) {
        console.error(`${name} failed, retrying: ${err.message} (code ${err.code})`);
        continue;
      }
      throw new TransactionError(step === "fatal" || !abortable ? "fatal" : "abort", name, err);
    }
  }

  /** The call's answer, or a fatal TransactionError once it is stuck. */
  private answer(name: string, start: (cb: Callback) => void): Promise<LibrdKafkaError | null | undefined> {
    return new Promise((resolve, reject) => {
      const stuck = { message: `no answer ${this.stuckAfterMs / 1000} s after the call, stuck in librdkafka` };
      const timer = setTimeout(() => reject(new TransactionError("fatal", name, stuck, true)), this.stuckAfterMs);
      start((err) => {
        clearTimeout(timer);
        resolve(err);
      });
    });
  }
}
