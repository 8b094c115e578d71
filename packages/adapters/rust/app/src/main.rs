//! The native row: a consume-score-produce loop with no runtime around it, the floor every
//! framework is read against. Each turn of the loop polls a batch from one partition
//! (librdkafka), decodes every record whole (sonic-rs), skips and counts what the kit's
//! complete-record rule refuses, runs ONE ONNX Runtime forward for the batch, produces one
//! {event_id, ts_ms, risk} per scored record, waits until the broker has acknowledged every
//! output (flush) and only then commits the batch's offsets: at-least-once. Under exactly-once
//! (BENCH_GUARANTEE) each batch's outputs and offsets are one Kafka transaction (transaction.rs).
mod card;
mod features;
mod kafka;
mod model;
mod model_alone;
mod output;
mod pipeline;
mod record;
mod settings;
mod stages;
mod transaction;

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rdkafka::consumer::{CommitMode, Consumer};
use rdkafka::producer::Producer;
use rdkafka::util::Timeout;

use crate::card::Card;
use crate::model::Model;
use crate::pipeline::Pipeline;
use crate::settings::{BenchEnv, Guarantee};
use crate::stages::{Stage, Stages};
use crate::transaction::Transactions;

/// Records per poll: the same cap as the Python floor's consume().
const BATCH: usize = 10_000;
/// How long a poll waits for a batch to fill: bounds latency at low rates (and keeps the
/// group's committed offset, which the runner reads as consumed/s, moving several times a second).
const BATCH_WAIT: Duration = Duration::from_millis(100);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // `--model-alone …`: time the row's model call alone (model_alone.rs) instead of consuming.
    let outcome = match args.get(1).map(String::as_str) {
        Some("--model-alone") => model_alone::run(&args[2..]),
        _ => run(),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rust-row: {error}");
            ExitCode::FAILURE
        }
    }
}

/// SIGTERM (the runner's stop) ends the loop after the batch in hand is delivered and committed
/// (under exactly-once: after its transaction is committed or aborted).
fn stop_flag() -> Result<Arc<AtomicBool>, String> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stop))
            .map_err(|e| format!("signal handler: {e}"))?;
    }
    Ok(stop)
}

fn run() -> Result<(), String> {
    let env = BenchEnv::from_env()?;
    let card = Card::load(&env.models_dir)?;
    let mut model = Model::load(&env.onnxruntime, &env.models_dir, &card)?;
    let worst = model.check_probes(&card)?;
    eprintln!(
        "model: {} probe rows reproduced, max error {worst:.2e} (tolerance {:.0e}); {}",
        card.probes.len(),
        card.tolerance,
        ort::info()
    );
    let stop = stop_flag()?;

    let consumer = kafka::consumer(&env)?;
    let producer = kafka::producer(&env)?;
    let transactions = match env.guarantee {
        Guarantee::AtLeastOnce => None,
        Guarantee::ExactlyOnce { .. } => Some(Transactions::init(&producer, &consumer)?),
    };
    consumer
        .subscribe(&[env.input_topic.as_str()])
        .map_err(|e| format!("subscribe: {e}"))?;
    println!("BENCH_READY rust consuming {}", env.input_topic);
    std::io::stdout()
        .flush()
        .map_err(|e| format!("stdout: {e}"))?;

    let mut pipeline = Pipeline {
        model,
        maxima: card.maxima()?,
        producer: &producer,
        output_topic: env.output_topic.clone(),
        skipped: 0,
        stages: Stages::new(),
    };
    let Some(transactions) = transactions else {
        let result = consume(&consumer, &mut pipeline, &stop);
        pipeline.stages.report();
        producer
            .flush(Timeout::Never)
            .map_err(|e| format!("final flush: {e}"))?;
        return result;
    };
    // Every transaction ends within its turn of the loop (a commit flushes, an abort purges):
    // nothing is left to flush.
    let result = transactions.consume(&mut pipeline, &stop);
    pipeline.stages.report();
    result
}

fn consume(
    consumer: &rdkafka::consumer::BaseConsumer<kafka::Logged>,
    pipeline: &mut Pipeline<'_>,
    stop: &AtomicBool,
) -> Result<(), String> {
    while !stop.load(Ordering::Relaxed) {
        let messages = pipeline.stages.time(Stage::Fetch, || {
            kafka::poll_batch(consumer, BATCH, BATCH_WAIT)
        })?;
        if messages.is_empty() {
            continue;
        }
        pipeline.run(&messages)?;
        // Every message of the batch, skipped ones included, is done: commit the consumer's position.
        pipeline
            .stages
            .time(Stage::Fetch, || {
                consumer.commit_consumer_state(CommitMode::Sync)
            })
            .map_err(|e| format!("commit: {e}"))?;
        // Handing the batch's messages back to librdkafka is the consumer's work too.
        pipeline.stages.time(Stage::Fetch, || drop(messages));
    }
    Ok(())
}
