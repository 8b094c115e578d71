//! The model card (models/<BENCH_MODEL>.card.json, risk_mlp by default): the maxima the features
//! divide by, the ONNX export, the probe rows and the tolerance the runtime must reproduce them within.
use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

/// The model's inputs in the order it takes them (the card's "features").
pub const METRICS: [&str; 4] = ["latency_ms", "queue_depth", "cpu_usage", "error_count"];

#[derive(Debug, Deserialize)]
pub struct Probe {
    pub features: [f32; 4],
    pub risk: f64,
}

#[derive(Debug, Deserialize)]
pub struct OnnxExport {
    pub file: String,
    pub input: String,
    pub output: String,
}

#[derive(Debug, Deserialize)]
pub struct Card {
    pub features: Vec<String>,
    pub maxima: HashMap<String, f64>,
    pub onnx: OnnxExport,
    pub tolerance: f64,
    pub probes: Vec<Probe>,
}

impl Card {
    pub fn load(models_dir: &Path) -> Result<Card, String> {
        let model = std::env::var("BENCH_MODEL").ok().filter(|m| !m.is_empty());
        let path = models_dir.join(format!("{}.card.json", model.as_deref().unwrap_or("risk_mlp")));
        let text = std::fs::read(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        let card: Card =
            sonic_rs::from_slice(&text).map_err(|e| format!("parsing {}: {e}", path.display()))?;
        if card.features != METRICS {
            return Err(format!(
                "the card's features {:?} are not the record's {METRICS:?}",
                card.features
            ));
        }
        Ok(card)
    }

    /// The divisors in METRICS order.
    pub fn maxima(&self) -> Result<[f64; 4], String> {
        let mut maxima = [0.0; 4];
        for (slot, name) in maxima.iter_mut().zip(METRICS) {
            *slot = *self
                .maxima
                .get(name)
                .ok_or_else(|| format!("the card has no maximum for {name}"))?;
        }
        Ok(maxima)
    }
}
