//! The Kafka clients (librdkafka through the rdkafka crate): the shared settings applied key by
//! key, debug=conf so the log shows each client's effective configuration, librdkafka's log in
//! its own stderr format, and the producer's delivery failures kept for the commit decision.
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use rdkafka::config::{ClientConfig, RDKafkaLogLevel};
use rdkafka::consumer::{BaseConsumer, Consumer, ConsumerContext};
use rdkafka::error::KafkaError;
use rdkafka::message::BorrowedMessage;
use rdkafka::producer::{BaseProducer, DeliveryResult, ProducerContext};
use rdkafka::ClientContext;

use crate::settings::{BenchEnv, Guarantee};

/// librdkafka's log lines on stderr as its default logger prints them, named as librdkafka
/// names the clients (the consumer is created first): core's parseConfDump reads them.
pub struct Logged {
    name: &'static str,
    first_failure: Mutex<Option<String>>,
}

impl Logged {
    fn new(name: &'static str) -> Logged {
        Logged {
            name,
            first_failure: Mutex::new(None),
        }
    }

    /// The first failed delivery since the last call, if any.
    pub fn take_failure(&self) -> Option<String> {
        self.first_failure
            .lock()
            .map(|mut f| f.take())
            .unwrap_or(None)
    }
}

impl ClientContext for Logged {
    fn log(&self, level: RDKafkaLogLevel, fac: &str, message: &str) {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        eprintln!(
            "%{}|{}.{:03}|{fac}|{}| {message}",
            level as i32,
            now.as_secs(),
            now.subsec_millis(),
            self.name
        );
    }

    fn error(&self, error: KafkaError, reason: &str) {
        eprintln!("{}: client error: {error}: {reason}", self.name);
    }
}

impl ConsumerContext for Logged {}

impl ProducerContext for Logged {
    type DeliveryOpaque = ();

    fn delivery(&self, result: &DeliveryResult<'_>, _: ()) {
        if let Err((error, _)) = result {
            if let Ok(mut failure) = self.first_failure.lock() {
                failure.get_or_insert_with(|| format!("delivery failed: {error}"));
            }
        }
    }
}

fn config(shared: &BTreeMap<String, String>, bootstrap: &str) -> ClientConfig {
    let mut config = ClientConfig::new();
    for (name, value) in shared {
        config.set(name, value);
    }
    config
        .set("bootstrap.servers", bootstrap)
        .set("debug", "conf")
        .set_log_level(RDKafkaLogLevel::Debug);
    config
}

pub fn consumer(env: &BenchEnv) -> Result<BaseConsumer<Logged>, String> {
    config(&env.consumer_settings, &env.bootstrap)
        .set("group.id", &env.group_id)
        .set("auto.offset.reset", "earliest")
        // Offsets are committed by hand, after the batch's outputs are delivered.
        .set("enable.auto.commit", "false")
        .create_with_context(Logged::new("rdkafka#consumer-1"))
        .map_err(|e| format!("creating the consumer: {e}"))
}

/// The producer with the shared settings; under exactly-once also the run's transactional id.
pub fn producer(env: &BenchEnv) -> Result<BaseProducer<Logged>, String> {
    let mut config = config(&env.producer_settings, &env.bootstrap);
    if let Guarantee::ExactlyOnce { transactional_id } = &env.guarantee {
        config.set("transactional.id", transactional_id);
    }
    config
        .create_with_context(Logged::new("rdkafka#producer-2"))
        .map_err(|e| format!("creating the producer: {e}"))
}

/// Up to `max` messages, or what arrived within `wait` (librdkafka's batch consume does the
/// same). A consumer error is printed and the batch goes on; a fatal one ends the app.
pub fn poll_batch<'c>(
    consumer: &'c BaseConsumer<Logged>,
    max: usize,
    wait: Duration,
) -> Result<Vec<BorrowedMessage<'c>>, String> {
    let deadline = Instant::now() + wait;
    let mut batch = Vec::new();
    while batch.len() < max {
        let left = deadline.saturating_duration_since(Instant::now());
        match consumer.poll(left) {
            Some(Ok(message)) => batch.push(message),
            Some(Err(error)) => {
                if let Some((code, reason)) = consumer.client().fatal_error() {
                    return Err(format!("fatal consumer error {code:?}: {reason}"));
                }
                eprintln!("consumer event: {error}");
            }
            None if left.is_zero() => break,
            None => {}
        }
    }
    Ok(batch)
}
