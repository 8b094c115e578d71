//! Exactly-once: the consume-score-produce loop with one Kafka transaction per polled batch. The
//! producer registers the run's transactional id once (init_transactions, which fences an earlier
//! instance of the run and aborts the transaction it left open); each batch is scored outside the
//! transaction, then begin_transaction, its outputs produced, the consumer's next offsets sent to
//! the transaction with the group's metadata, commit_transaction. The group's committed offsets
//! move only with a committed transaction, so a read_committed reader sees every output once.
//! An abortable error aborts the transaction and seeks the consumer back to the committed offsets
//! (the batch is read again); a fatal one, or a commit whose outcome is unknown, ends the app.
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::error::{KafkaError, KafkaResult, RDKafkaErrorCode};
use rdkafka::message::{BorrowedMessage, Message};
use rdkafka::producer::{BaseProducer, Producer};
use rdkafka::{Offset, TopicPartitionList};

use crate::kafka::{self, Logged};
use crate::pipeline::Pipeline;
use crate::stages::Stage;

/// How long one transactional call waits before librdkafka reports it timed out (retriable).
const CALL_TIMEOUT: Duration = Duration::from_secs(10);
/// One abort call between two servings of delivery reports (see Transactions::abort).
const ABORT_SLICE: Duration = Duration::from_millis(100);
/// Calls of one step while its error is retriable: together about librdkafka's default
/// transaction.timeout.ms (60 s), past which the broker aborts the transaction anyway.
const ATTEMPTS: u32 = 6;
/// Aborted batches in a row before the app gives up: an error that aborting does not cure ends
/// the app (the runner restarts it) rather than reading the same batch again forever.
const ABORTS_IN_A_ROW: u32 = 10;

/// What librdkafka says an error of a transactional call leaves the application to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The call may be made again (it timed out).
    Retriable,
    /// The transaction must be aborted; the producer stays usable.
    Abortable,
    /// The producer is unusable (fenced by a newer instance, for one).
    Fatal,
    Other,
}

/// An error's flags as librdkafka's rd_kafka_error_t carries them: fatal outranks the others.
fn kind_of(fatal: bool, retriable: bool, requires_abort: bool) -> Kind {
    match (fatal, requires_abort, retriable) {
        (true, _, _) => Kind::Fatal,
        (false, true, _) => Kind::Abortable,
        (false, false, true) => Kind::Retriable,
        (false, false, false) => Kind::Other,
    }
}

fn kind(error: &KafkaError) -> Kind {
    match error {
        KafkaError::Transaction(e) => {
            kind_of(e.is_fatal(), e.is_retriable(), e.txn_requires_abort())
        }
        // rdkafka's commit_transaction flushes first: a flush that timed out is the commit timing out.
        KafkaError::Flush(RDKafkaErrorCode::OperationTimedOut) => Kind::Retriable,
        _ => Kind::Other,
    }
}

/// Makes `call` again while `again` says its error may be retried, up to ATTEMPTS calls; the
/// last error with its kind otherwise.
fn retrying<T>(
    what: &str,
    again: impl Fn(&KafkaError) -> bool,
    mut call: impl FnMut() -> KafkaResult<T>,
) -> Result<T, (Kind, String)> {
    let mut attempt = 1;
    loop {
        match call() {
            Ok(value) => return Ok(value),
            Err(error) if again(&error) && attempt < ATTEMPTS => {
                eprintln!("{what}: {error}; trying again ({attempt} of {ATTEMPTS} calls made)");
                attempt += 1;
            }
            Err(error) => return Err((kind(&error), format!("{what}: {error}"))),
        }
    }
}

fn retriable(error: &KafkaError) -> bool {
    kind(error) == Kind::Retriable
}

/// Where an aborted batch is read again from: the committed offset, or the beginning (the
/// consumer's auto.offset.reset) where the group has committed none yet.
fn rewind_target(committed: Offset) -> Offset {
    match committed {
        Offset::Invalid => Offset::Beginning,
        offset => offset,
    }
}

/// The offsets to commit with a batch: per partition, one past the last message taken from it.
fn next_offsets<'a>(
    positions: impl IntoIterator<Item = (&'a str, i32, i64)>,
) -> BTreeMap<(String, i32), i64> {
    let mut next = BTreeMap::new();
    for (topic, partition, offset) in positions {
        let entry = next
            .entry((topic.to_string(), partition))
            .or_insert(offset + 1);
        *entry = (*entry).max(offset + 1);
    }
    next
}

fn offsets_of(messages: &[BorrowedMessage<'_>]) -> Result<TopicPartitionList, String> {
    let mut list = TopicPartitionList::new();
    for ((topic, partition), offset) in next_offsets(
        messages
            .iter()
            .map(|m| (m.topic(), m.partition(), m.offset())),
    ) {
        list.add_partition_offset(&topic, partition, Offset::Offset(offset))
            .map_err(|e| format!("offsets of the batch: {e}"))?;
    }
    Ok(list)
}

/// How a batch's transaction ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Committed,
    /// Aborted, and the consumer sought back to the committed offsets: the batch is read again.
    Aborted,
}

pub struct Transactions<'c> {
    producer: &'c BaseProducer<Logged>,
    consumer: &'c BaseConsumer<Logged>,
}

impl<'c> Transactions<'c> {
    /// Registers the producer's transactional id with the broker, once, before anything is produced.
    pub fn init(
        producer: &'c BaseProducer<Logged>,
        consumer: &'c BaseConsumer<Logged>,
    ) -> Result<Transactions<'c>, String> {
        retrying("init_transactions", retriable, || {
            producer.init_transactions(CALL_TIMEOUT)
        })
        .map_err(|(_, error)| error)?;
        Ok(Transactions { producer, consumer })
    }

    /// Polls batches until SIGTERM; the transaction of the batch in hand always ends (committed
    /// or aborted) before the stop is looked at, so the app never leaves one open when it stops.
    pub fn consume(&self, pipeline: &mut Pipeline<'_>, stop: &AtomicBool) -> Result<(), String> {
        let mut aborted = 0;
        while !stop.load(Ordering::Relaxed) {
            let messages = pipeline.stages.time(Stage::Fetch, || {
                kafka::poll_batch(self.consumer, crate::BATCH, crate::BATCH_WAIT)
            })?;
            if messages.is_empty() {
                continue;
            }
            match self.batch(pipeline, &messages)? {
                Outcome::Committed => {
                    aborted = 0;
                    pipeline.stages.count(messages.len());
                }
                Outcome::Aborted => {
                    aborted += 1;
                    if aborted >= ABORTS_IN_A_ROW {
                        return Err(format!("{aborted} transactions aborted in a row; the app ends so that it is started afresh"));
                    }
                }
            }
            pipeline.stages.time(Stage::Fetch, || drop(messages));
        }
        Ok(())
    }

    /// One batch as one transaction. Err only where the app must end: a fatal error, or a commit
    /// whose outcome is unknown (rewinding after a commit that did happen would duplicate the batch;
    /// the restarted app's init_transactions completes or aborts it).
    fn batch(
        &self,
        pipeline: &mut Pipeline<'_>,
        messages: &[BorrowedMessage<'_>],
    ) -> Result<Outcome, String> {
        let offsets = offsets_of(messages)?;
        // Scored before the transaction begins: an error of the model's leaves none open.
        let outputs = pipeline.score(messages)?;
        pipeline
            .stages
            .time(Stage::Produce, || self.producer.begin_transaction())
            .map_err(|e| format!("begin_transaction: {e}"))?;
        if let Err(error) = pipeline.produce(&outputs) {
            return self.abort_and_rewind(pipeline, &error);
        }
        let group = self
            .consumer
            .group_metadata()
            .ok_or("the consumer has no group metadata")?;
        // The offsets go to the coordinator while the outputs are still on their way to the broker.
        let sent = pipeline.stages.time(Stage::Fetch, || {
            retrying("send_offsets_to_transaction", retriable, || {
                self.producer
                    .send_offsets_to_transaction(&offsets, &group, CALL_TIMEOUT)
            })
        });
        match sent {
            Ok(()) => {}
            Err((Kind::Fatal, error)) => return Err(error),
            Err((_, error)) => return self.abort_and_rewind(pipeline, &error),
        }
        // Delivery reports served in short slices: rdkafka's own flush inside commit_transaction
        // then finds nothing left and does not wait out its 100 ms polls.
        if let Some(failure) = pipeline.await_outputs() {
            return self.abort_and_rewind(pipeline, &failure);
        }
        let committed = pipeline.stages.time(Stage::Fetch, || {
            retrying("commit_transaction", retriable, || {
                self.producer.commit_transaction(CALL_TIMEOUT)
            })
        });
        match committed {
            Ok(()) => Ok(Outcome::Committed),
            Err((Kind::Abortable, error)) => self.abort_and_rewind(pipeline, &error),
            Err((_, error)) => Err(format!("{error}; the transaction's outcome is unknown")),
        }
    }

    /// Aborts the transaction in hand and seeks the consumer back to the committed offsets. An
    /// abort that fails (the producer fenced, or the broker gone past every attempt) ends the app.
    fn abort_and_rewind(&self, pipeline: &mut Pipeline<'_>, why: &str) -> Result<Outcome, String> {
        eprintln!("aborting the transaction; the batch is read again: {why}");
        pipeline
            .stages
            .time(Stage::Fetch, || {
                retrying("abort_transaction", retriable, || self.abort())
            })
            .map_err(|(_, error)| format!("{error} (aborting after: {why})"))?;
        // The abort purged the outputs still queued: their failed reports belong to no later batch.
        let _purged = pipeline.await_outputs();
        self.rewind()?;
        Ok(Outcome::Aborted)
    }

    /// librdkafka's abort waits until every outstanding output's delivery report has been served,
    /// and rdkafka's abort_transaction serves none (its commit_transaction flushes first, its abort
    /// does not): so short abort calls alternate with serving reports until the abort completes
    /// (librdkafka resumes an abort that timed out) or CALL_TIMEOUT has passed.
    fn abort(&self) -> KafkaResult<()> {
        let deadline = Instant::now() + CALL_TIMEOUT;
        loop {
            let result = self.producer.abort_transaction(ABORT_SLICE);
            match result {
                Err(ref error) if retriable(error) && Instant::now() < deadline => {
                    self.producer.poll(ABORT_SLICE)
                }
                _ => return result,
            }
        }
    }

    /// Seeks every assigned partition back to the group's committed offset.
    fn rewind(&self) -> Result<(), String> {
        let committed = retrying(
            "reading the committed offsets",
            |_| true,
            || self.consumer.committed(CALL_TIMEOUT),
        )
        .map_err(|(_, error)| error)?;
        let mut targets = TopicPartitionList::new();
        for partition in committed.elements() {
            targets
                .add_partition_offset(
                    partition.topic(),
                    partition.partition(),
                    rewind_target(partition.offset()),
                )
                .map_err(|e| {
                    format!(
                        "rewinding {}[{}]: {e}",
                        partition.topic(),
                        partition.partition()
                    )
                })?;
        }
        let sought = self
            .consumer
            .seek_partitions(targets, CALL_TIMEOUT)
            .map_err(|e| format!("seeking back to the committed offsets: {e}"))?;
        for partition in sought.elements() {
            partition.error().map_err(|e| {
                format!(
                    "seeking {}[{}] back to the committed offset: {e}",
                    partition.topic(),
                    partition.partition()
                )
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fatal_error_outranks_abortable_and_retriable() {
        assert_eq!(kind_of(true, true, true), Kind::Fatal);
        assert_eq!(kind_of(false, true, true), Kind::Abortable);
        assert_eq!(kind_of(false, true, false), Kind::Retriable);
        assert_eq!(kind_of(false, false, false), Kind::Other);
    }

    #[test]
    fn a_commit_whose_flush_timed_out_is_retriable_and_other_errors_are_not() {
        assert_eq!(
            kind(&KafkaError::Flush(RDKafkaErrorCode::OperationTimedOut)),
            Kind::Retriable
        );
        assert_eq!(
            kind(&KafkaError::Flush(RDKafkaErrorCode::Fail)),
            Kind::Other
        );
        assert_eq!(kind(&KafkaError::Seek("x".to_string())), Kind::Other);
    }

    #[test]
    fn retries_only_what_may_be_retried_and_gives_up_after_the_attempts() {
        let timed_out = || KafkaError::Flush(RDKafkaErrorCode::OperationTimedOut);
        let mut calls = 0;
        let result: Result<(), _> = retrying("commit", retriable, || {
            calls += 1;
            if calls < 3 {
                Err(timed_out())
            } else {
                Ok(())
            }
        });
        assert_eq!((result, calls), (Ok(()), 3));

        let mut calls = 0;
        let result: Result<(), _> = retrying("commit", retriable, || {
            calls += 1;
            Err(timed_out())
        });
        assert_eq!(calls, ATTEMPTS);
        assert_eq!(result.unwrap_err().0, Kind::Retriable);

        let mut calls = 0;
        let result: Result<(), _> = retrying("commit", retriable, || {
            calls += 1;
            Err(KafkaError::Flush(RDKafkaErrorCode::Fail))
        });
        assert_eq!((result.unwrap_err().0, calls), (Kind::Other, 1));
    }

    #[test]
    fn commits_one_past_the_last_message_of_each_partition() {
        let next = next_offsets([("in", 0, 7), ("in", 0, 9), ("in", 0, 8), ("in", 1, 3)]);
        assert_eq!(
            next.into_iter().collect::<Vec<_>>(),
            [(("in".to_string(), 0), 10), (("in".to_string(), 1), 4)]
        );
    }

    #[test]
    fn rewinds_to_the_committed_offset_or_the_beginning_when_none_is_committed() {
        assert_eq!(rewind_target(Offset::Offset(42)), Offset::Offset(42));
        assert_eq!(rewind_target(Offset::Invalid), Offset::Beginning);
    }
}
