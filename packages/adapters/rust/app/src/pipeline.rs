//! One polled batch through the row: decode every record, skip what the rule refuses, one
//! model forward for the rest, one output record per scored input, then the at-least-once
//! barrier (flush until every output is acknowledged) before the caller commits. Under
//! exactly-once the transaction loop (transaction.rs) calls the same steps one by one.
use std::time::Duration;

use rdkafka::error::{KafkaError, RDKafkaErrorCode};
use rdkafka::message::{BorrowedMessage, Message};
use rdkafka::producer::{BaseProducer, BaseRecord, Producer};

use crate::features::feature_row;
use crate::kafka::Logged;
use crate::model::Model;
use crate::output::encode;
use crate::record::{decode, Scorable};
use crate::stages::{Stage, Stages};

/// How long produce() waits for room when librdkafka's queue is full before trying again.
const QUEUE_FULL_WAIT: Duration = Duration::from_millis(50);
/// One slice of waiting for delivery reports. rdkafka's BaseProducer::poll runs to its deadline
/// even once the reports are in, and its flush() polls in 100 ms slices: a batch loop that
/// flushed with it would wait at least 100 ms a batch, whatever the broker's latency.
const DELIVERY_WAIT: Duration = Duration::from_millis(1);

pub struct Pipeline<'p> {
    pub model: Model,
    pub maxima: [f64; 4],
    pub producer: &'p BaseProducer<Logged>,
    pub output_topic: String,
    pub skipped: u64,
    pub stages: Stages,
}

/// A batch's outputs, encoded into one buffer (each ends at its `ends` entry), beside the records
/// they score (their keys).
pub struct Outputs {
    values: Vec<u8>,
    ends: Vec<usize>,
    records: Vec<Scorable>,
}

impl Pipeline<'_> {
    /// Scores and publishes a batch; returns once the broker has acknowledged every output.
    pub fn run(&mut self, messages: &[BorrowedMessage<'_>]) -> Result<(), String> {
        let outputs = self.score(messages)?;
        self.produce(&outputs)?;
        self.stages.count(messages.len());
        self.delivered()
    }

    /// Decodes a batch, skips what the rule refuses, scores the rest and encodes their outputs.
    pub fn score(&mut self, messages: &[BorrowedMessage<'_>]) -> Result<Outputs, String> {
        let records = self.stages.time(Stage::Decode, || decode_batch(messages));
        let mut scorable = Vec::with_capacity(records.len());
        for (offset, decoded) in records {
            match decoded {
                Ok(record) => scorable.push(record),
                Err(reason) => {
                    self.skipped += 1;
                    eprintln!(
                        "skipped record at offset {offset}: {reason} (skipped {})",
                        self.skipped
                    );
                }
            }
        }
        if scorable.is_empty() {
            return Ok(Outputs {
                values: Vec::new(),
                ends: Vec::new(),
                records: scorable,
            });
        }
        let maxima = self.maxima;
        let rows: Vec<f32> = self.stages.time(Stage::Features, || {
            scorable
                .iter()
                .flat_map(|r| feature_row(&r.metrics, &maxima))
                .collect()
        });
        let model = &mut self.model;
        let risks = self.stages.time(Stage::Model, || model.score(&rows))?;
        self.encode(scorable, &risks)
    }

    /// Encodes the batch's outputs into one buffer: the stage is timed once per batch, since
    /// reading the thread's CPU clock is a system call.
    fn encode(&mut self, records: Vec<Scorable>, risks: &[f32]) -> Result<Outputs, String> {
        let mut values = Vec::with_capacity(records.len() * 96);
        let mut ends = Vec::with_capacity(records.len());
        self.stages.time(Stage::Encode, || {
            for (record, &risk) in records.iter().zip(risks) {
                encode(&mut values, &record.event_id, &record.ts_ms, risk)?;
                ends.push(values.len());
            }
            Ok::<(), String>(())
        })?;
        Ok(Outputs {
            values,
            ends,
            records,
        })
    }

    /// Produces the batch's outputs, timed once per batch.
    pub fn produce(&mut self, outputs: &Outputs) -> Result<(), String> {
        let (producer, topic) = (self.producer, self.output_topic.as_str());
        self.stages.time(Stage::Produce, || {
            let mut start = 0;
            for (record, &end) in outputs.records.iter().zip(&outputs.ends) {
                send(
                    producer,
                    topic,
                    &outputs.values[start..end],
                    record.key.as_deref(),
                )?;
                start = end;
            }
            Ok(())
        })
    }

    /// Every output's delivery report is served before the caller commits; a failed one stops the
    /// app before the batch is committed, so it is read again.
    fn delivered(&mut self) -> Result<(), String> {
        match self.await_outputs() {
            Some(failure) => Err(format!(
                "{failure}; the batch is not committed and will be read again"
            )),
            None => Ok(()),
        }
    }

    /// Serves delivery reports until every output produced so far is acknowledged or failed:
    /// the first failure since the last call, if any.
    pub fn await_outputs(&mut self) -> Option<String> {
        let producer = self.producer;
        self.stages
            .time(Stage::Produce, || await_deliveries(producer));
        producer.context().take_failure()
    }
}

/// Serves delivery reports until every output produced so far is acknowledged (or failed).
fn await_deliveries(producer: &BaseProducer<Logged>) {
    while producer.in_flight_count() > 0 {
        producer.poll(DELIVERY_WAIT);
    }
}

fn decode_batch(messages: &[BorrowedMessage<'_>]) -> Vec<(i64, Result<Scorable, String>)> {
    messages
        .iter()
        .map(|m| (m.offset(), decode(m.payload().unwrap_or_default())))
        .collect()
}

/// One produce(), keyed by the record's partition_key; waits for room when the queue is full.
fn send(
    producer: &BaseProducer<Logged>,
    topic: &str,
    value: &[u8],
    key: Option<&str>,
) -> Result<(), String> {
    loop {
        let mut record = BaseRecord::to(topic).payload(value);
        if let Some(key) = key {
            record = record.key(key);
        }
        match producer.send(record) {
            Ok(()) => return Ok(()),
            Err((KafkaError::MessageProduction(RDKafkaErrorCode::QueueFull), _)) => {
                producer.poll(QUEUE_FULL_WAIT)
            }
            Err((error, _)) => return Err(format!("produce: {error}")),
        }
    }
}
