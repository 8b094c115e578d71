//! The output record every row writes: {event_id, ts_ms, risk}.
use serde::ser::{Serialize, Serializer};

use crate::record::Field;

#[derive(serde::Serialize)]
struct Output<'a> {
    event_id: &'a str,
    ts_ms: TsMs<'a>,
    risk: f64,
}

/// ts_ms written back as it was decoded: an integer stays an integer.
struct TsMs<'a>(&'a Field);

impl Serialize for TsMs<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self.0 {
            Field::Integer(i) => serializer.serialize_i64(i),
            Field::Unsigned(u) => serializer.serialize_u64(u),
            Field::Float(f) => serializer.serialize_f64(f),
            // The record rule lets only finite numbers through.
            _ => Err(serde::ser::Error::custom("ts_ms is not a number")),
        }
    }
}

/// Appends the output record's JSON to `out`. The risk is the model's float32, widened as the
/// Python rows' float() does.
pub fn encode(out: &mut Vec<u8>, event_id: &str, ts_ms: &Field, risk: f32) -> Result<(), String> {
    sonic_rs::to_writer(
        out,
        &Output {
            event_id,
            ts_ms: TsMs(ts_ms),
            risk: f64::from(risk),
        },
    )
    .map_err(|e| format!("encoding {event_id:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_three_fields_with_event_id_escaped() {
        let mut out = Vec::new();
        encode(&mut out, "e1/\"é\"\n", &Field::Unsigned(1764547200000), 0.5).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"event_id":"e1/\"é\"\n","ts_ms":1764547200000,"risk":0.5}"#
        );
    }
}
