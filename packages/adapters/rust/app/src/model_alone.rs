//! The model alone in the native row's own runtime: Model::score (the row's ort call, one
//! forward for a batch) on normalised features of the row's call shape, timed by the process's
//! CPU clock, so the page splits the row into the model and what surrounds it.
//!
//!   rust-row --model-alone RECORDS REPETITIONS MIN_CPU_SEC WARM_CALLS
//!
//! (BENCH_MODELS_DIR, BENCH_MODEL and BENCH_ONNXRUNTIME as the row gets them) prints one JSON
//! line: {"versions": {}, "usPerRecord": [one figure a repetition]}.
use std::path::PathBuf;

use crate::card::Card;
use crate::model::Model;

fn cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into the timespec it is given and reads nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 / 1e9
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, name: &str) -> Result<T, String> {
    args.get(i)
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("--model-alone: {name} is missing or not a number"))
}

fn path_var(name: &str) -> Result<PathBuf, String> {
    std::env::var(name).map(PathBuf::from).map_err(|_| format!("{name} is not set"))
}

pub fn run(args: &[String]) -> Result<(), String> {
    let records: usize = arg(args, 0, "RECORDS")?;
    let repetitions: usize = arg(args, 1, "REPETITIONS")?;
    let min_cpu_sec: f64 = arg(args, 2, "MIN_CPU_SEC")?;
    let warm_calls: usize = arg(args, 3, "WARM_CALLS")?;
    let models_dir = path_var("BENCH_MODELS_DIR")?;
    let card = Card::load(&models_dir)?;
    let mut model = Model::load(&path_var("BENCH_ONNXRUNTIME")?, &models_dir, &card)?;
    model.check_probes(&card)?;
    // Normalised features in [0, 1): a dense network's cost does not depend on the values.
    let rows: Vec<f32> = (0..records * 4)
        .map(|i| ((i as u64 * 2_654_435_761) % 1000) as f32 / 1000.0)
        .collect();
    let mut sink = 0.0f32;
    for _ in 0..warm_calls {
        sink += model.score(&rows)?[0];
    }
    let mut figures = Vec::with_capacity(repetitions);
    for _ in 0..repetitions {
        let (mut calls, start, mut spent) = (0usize, cpu_seconds(), 0.0);
        while spent < min_cpu_sec {
            sink += model.score(&rows)?[0];
            calls += 1;
            spent = cpu_seconds() - start;
        }
        figures.push(format!("{}", spent / (calls * records) as f64 * 1e6));
    }
    if sink.is_nan() || sink <= 0.0 {
        return Err("the model scored nothing above 0".into());
    }
    println!("{{\"versions\": {{}}, \"usPerRecord\": [{}]}}", figures.join(","));
    Ok(())
}
