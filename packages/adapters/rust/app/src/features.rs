//! The model's four inputs: clip(value / maximum, 0, 1) as float32 (risk_model.normalise).

/// One feature row: the division and the clip in double precision, then float32, as the
/// Python rows compute it before building their float32 tensor.
pub fn feature_row(metrics: &[f64; 4], maxima: &[f64; 4]) -> [f32; 4] {
    let mut row = [0.0f32; 4];
    for ((slot, value), maximum) in row.iter_mut().zip(metrics).zip(maxima) {
        *slot = (value / maximum).clamp(0.0, 1.0) as f32;
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divides_and_clips() {
        let maxima = [5000.0, 1000.0, 100.0, 50.0];
        assert_eq!(
            feature_row(&[2500.0, 1500.0, -3.0, 5.0], &maxima),
            [0.5, 1.0, 0.0, 0.1]
        );
    }
}
