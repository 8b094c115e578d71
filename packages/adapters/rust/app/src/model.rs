//! The frozen model (the card's ONNX export) on ONNX Runtime, loaded from the libonnxruntime.so
//! prepare() fetched, and checked against the card's probe rows before the app consumes.
use std::path::Path;

use ort::session::Session;
use ort::value::TensorRef;

use crate::card::Card;

pub struct Model {
    session: Session,
    input: String,
    output: String,
}

impl Model {
    /// Loads ONNX Runtime from `runtime` (a libonnxruntime.so) and the card's ONNX export.
    pub fn load(runtime: &Path, models_dir: &Path, card: &Card) -> Result<Model, String> {
        let environment = ort::init_from(runtime)
            .map_err(|e| format!("loading ONNX Runtime from {}: {e}", runtime.display()))?
            .with_name("rust-row")
            .build()
            .map_err(|e| format!("creating the ONNX Runtime environment: {e}"))?;
        let path = models_dir.join(&card.onnx.file);
        // The network is tiny: intra-op threads would only add wake-ups. One thread, as every row.
        let session = Session::builder(&environment)
            .and_then(|b| b.with_intra_threads(1).map_err(Into::into))
            .and_then(|mut b| b.commit_from_file(&path))
            .map_err(|e| format!("loading {}: {e}", path.display()))?;
        Ok(Model {
            session,
            input: card.onnx.input.clone(),
            output: card.onnx.output.clone(),
        })
    }

    /// One forward for the whole batch: `rows` holds 4 features per record; the risks in order.
    pub fn score(&mut self, rows: &[f32]) -> Result<Vec<f32>, String> {
        let count = rows.len() / 4;
        let tensor = TensorRef::from_array_view(([count, 4], rows))
            .map_err(|e| format!("input tensor: {e}"))?;
        let outputs = self
            .session
            .run(ort::inputs![self.input.as_str() => tensor])
            .map_err(|e| format!("model run: {e}"))?;
        let (_, risks) = outputs[self.output.as_str()]
            .try_extract_tensor::<f32>()
            .map_err(|e| format!("model output: {e}"))?;
        if risks.len() != count {
            return Err(format!(
                "the model gave {} risks for {count} records",
                risks.len()
            ));
        }
        Ok(risks.to_vec())
    }

    /// Refuses a runtime that does not reproduce the card's probe rows within its tolerance.
    pub fn check_probes(&mut self, card: &Card) -> Result<f64, String> {
        let rows: Vec<f32> = card.probes.iter().flat_map(|p| p.features).collect();
        let risks = self.score(&rows)?;
        let worst = card
            .probes
            .iter()
            .zip(&risks)
            .map(|(p, &r)| (f64::from(r) - p.risk).abs())
            .fold(0.0, f64::max);
        if worst > card.tolerance {
            return Err(format!("the model does not reproduce the card's probe rows: max error {worst:.3e} > tolerance {:.0e}", card.tolerance));
        }
        Ok(worst)
    }
}
