//! Where the app's own thread spends its CPU: per stage of the loop, measured with the thread's
//! CPU clock (a blocking wait in flush or commit costs nothing), and what it spent outside them;
//! printed as one `BENCH_STAGES` line every second and at exit. There is no sampling profiler for
//! a native row here; librdkafka's own threads are counted by their names instead.
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Polling the consumer's queue and committing: the app thread's part of the Kafka client.
    Fetch,
    Decode,
    Features,
    Model,
    Encode,
    /// produce() calls and the flush that waits for the broker's acknowledgements.
    Produce,
}

pub const STAGES: [Stage; 6] = [
    Stage::Fetch,
    Stage::Decode,
    Stage::Features,
    Stage::Model,
    Stage::Encode,
    Stage::Produce,
];

/// Often enough for a profile phase of a few seconds to read its stages between two lines.
const REPORT_EVERY: Duration = Duration::from_secs(1);

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Fetch => "fetch",
            Stage::Decode => "decode",
            Stage::Features => "features",
            Stage::Model => "model",
            Stage::Encode => "encode",
            Stage::Produce => "produce",
        }
    }
}

/// This thread's CPU time so far.
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // CLOCK_THREAD_CPUTIME_ID cannot fail for the calling thread.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

pub struct Stages {
    cpu: [Duration; STAGES.len()],
    records: u64,
    /// None until the first batch, which is reported at once: a reader has a baseline from the start.
    last_report: Option<Instant>,
}

impl Stages {
    pub fn new() -> Stages {
        Stages {
            cpu: [Duration::ZERO; STAGES.len()],
            records: 0,
            last_report: None,
        }
    }

    /// Runs `work`, adding the CPU it took on this thread to `stage`.
    pub fn time<T>(&mut self, stage: Stage, work: impl FnOnce() -> T) -> T {
        let before = thread_cpu();
        let result = work();
        self.cpu[stage as usize] += thread_cpu().saturating_sub(before);
        result
    }

    pub fn count(&mut self, records: usize) {
        self.records += records as u64;
        if self
            .last_report
            .is_none_or(|at| at.elapsed() >= REPORT_EVERY)
        {
            self.report();
        }
    }

    /// Cumulative figures since start: `BENCH_STAGES records=N fetch_us=… decode_us=… …`.
    /// Ends with untimed_us: the thread's CPU outside every stage (start-up, the loop itself),
    /// which no rule claims, so the breakdown shows it as other rather than spread over the stages.
    pub fn line(&self) -> String {
        let mut line = format!("BENCH_STAGES records={}", self.records);
        for stage in STAGES {
            line.push_str(&format!(
                " {}_us={}",
                stage.name(),
                self.cpu[stage as usize].as_micros()
            ));
        }
        let timed: Duration = self.cpu.iter().sum();
        let untimed = thread_cpu().saturating_sub(timed);
        line.push_str(&format!(" untimed_us={}", untimed.as_micros()));
        line
    }

    pub fn report(&mut self) {
        eprintln!("{}", self.line());
        self.last_report = Some(Instant::now());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_cpu_to_the_stage_that_spent_it() {
        let mut stages = Stages::new();
        let sum = stages.time(Stage::Decode, || {
            (0..2_000_000u64).fold(0u64, |a, x| std::hint::black_box(a.wrapping_add(x * x)))
        });
        assert!(sum > 0);
        stages.count(3);
        let line = stages.line();
        assert!(
            line.starts_with("BENCH_STAGES records=3 fetch_us=0 decode_us="),
            "{line}"
        );
        assert!(!line.contains("decode_us=0 "), "{line}");
        assert!(line.contains(" produce_us=0 untimed_us="), "{line}");
    }
}
