//! The input record decoded whole into a struct, and the kit's complete-record rule
//! (models/bench_kit.py `record_problem`), reproduced case by case.
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// One field's JSON value as decoded: strings unescaped, numbers parsed, containers skipped
/// (no field of the record is a container; one that is fails the rule or is not read).
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Text(String),
    Integer(i64),
    Unsigned(u64),
    Float(f64),
    Bool(bool),
    Null,
    List,
    Object,
}

impl Field {
    /// The value as the model reads it: finite numbers only. JSON's true is no number.
    pub fn finite_number(&self) -> Option<f64> {
        match *self {
            Field::Integer(i) => Some(i as f64),
            Field::Unsigned(u) => Some(u as f64),
            Field::Float(f) if f.is_finite() => Some(f),
            _ => None,
        }
    }

    /// The value as Python's repr shows it (bench_kit's reason text), containers abridged.
    fn repr(&self) -> String {
        match self {
            Field::Text(s) => format!("'{s}'"),
            Field::Integer(i) => i.to_string(),
            Field::Unsigned(u) => u.to_string(),
            Field::Float(f) => format!("{f:?}"),
            Field::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Field::Null => "None".to_string(),
            Field::List => "[...]".to_string(),
            Field::Object => "{...}".to_string(),
        }
    }
}

/// The 19 fields of the telemetry record (core's schema.ts); each is None when absent.
#[derive(Debug, Default)]
pub struct Record {
    pub event_id: Option<Field>,
    pub ts_ms: Option<Field>,
    pub partition_key: Option<Field>,
    pub service: Option<Field>,
    pub host: Option<Field>,
    pub region: Option<Field>,
    pub zone: Option<Field>,
    pub status: Option<Field>,
    pub method: Option<Field>,
    pub endpoint: Option<Field>,
    pub http_status: Option<Field>,
    pub latency_ms: Option<Field>,
    pub queue_depth: Option<Field>,
    pub cpu_usage: Option<Field>,
    pub error_count: Option<Field>,
    pub bytes_in: Option<Field>,
    pub bytes_out: Option<Field>,
    pub trace_id: Option<Field>,
    pub app_version: Option<Field>,
}

/// A record the model can score: the values the row reads after the rule has passed.
#[derive(Debug, Clone, PartialEq)]
pub struct Scorable {
    pub event_id: String,
    /// Written back exactly as decoded (an integer stays an integer).
    pub ts_ms: Field,
    /// latency_ms, queue_depth, cpu_usage, error_count: the order the model takes them.
    pub metrics: [f64; 4],
    pub key: Option<String>,
}

/// Decodes a message's value and applies the complete-record rule: the record to score, or why not.
pub fn decode(bytes: &[u8]) -> Result<Scorable, String> {
    match sonic_rs::from_slice::<Decoded>(bytes) {
        Ok(Decoded::Object(record)) => record.into_scorable(),
        Ok(Decoded::Other(kind)) => Err(format!("not a JSON object: {kind}")),
        // sonic-rs follows its message with the input around the error on further lines (raw
        // bytes for a binary value): the reason is its first line, so a skip stays one log line.
        Err(error) => Err(format!(
            "not JSON: {}",
            error.to_string().lines().next().unwrap_or("unreadable")
        )),
    }
}

impl Record {
    /// bench_kit.record_problem: a string event_id, then ts_ms and the four metrics finite numbers, in that order.
    fn into_scorable(self) -> Result<Scorable, String> {
        let Some(Field::Text(event_id)) = self.event_id else {
            return Err("no event_id string".to_string());
        };
        let ts_ms = self.ts_ms.unwrap_or(Field::Null);
        finite("ts_ms", &Some(ts_ms.clone()))?;
        let metrics = [
            finite("latency_ms", &self.latency_ms)?,
            finite("queue_depth", &self.queue_depth)?,
            finite("cpu_usage", &self.cpu_usage)?,
            finite("error_count", &self.error_count)?,
        ];
        let key = match self.partition_key {
            Some(Field::Text(key)) => Some(key),
            _ => None,
        };
        Ok(Scorable {
            event_id,
            ts_ms,
            metrics,
            key,
        })
    }
}

fn finite(name: &str, value: &Option<Field>) -> Result<f64, String> {
    let value = value.as_ref().unwrap_or(&Field::Null);
    value
        .finite_number()
        .ok_or_else(|| format!("{name} is not a finite number: {}", value.repr()))
}

/// The top-level value: a record, or the Python type name of what came instead. The record is
/// moved once per message; boxing it would cost an allocation per message instead.
#[allow(clippy::large_enum_variant)]
enum Decoded {
    Object(Record),
    Other(&'static str),
}

#[derive(serde::Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Name {
    EventId,
    TsMs,
    PartitionKey,
    Service,
    Host,
    Region,
    Zone,
    Status,
    Method,
    Endpoint,
    HttpStatus,
    LatencyMs,
    QueueDepth,
    CpuUsage,
    ErrorCount,
    BytesIn,
    BytesOut,
    TraceId,
    AppVersion,
    #[serde(other)]
    Unknown,
}

impl Record {
    fn slot(&mut self, name: Name) -> Option<&mut Option<Field>> {
        Some(match name {
            Name::EventId => &mut self.event_id,
            Name::TsMs => &mut self.ts_ms,
            Name::PartitionKey => &mut self.partition_key,
            Name::Service => &mut self.service,
            Name::Host => &mut self.host,
            Name::Region => &mut self.region,
            Name::Zone => &mut self.zone,
            Name::Status => &mut self.status,
            Name::Method => &mut self.method,
            Name::Endpoint => &mut self.endpoint,
            Name::HttpStatus => &mut self.http_status,
            Name::LatencyMs => &mut self.latency_ms,
            Name::QueueDepth => &mut self.queue_depth,
            Name::CpuUsage => &mut self.cpu_usage,
            Name::ErrorCount => &mut self.error_count,
            Name::BytesIn => &mut self.bytes_in,
            Name::BytesOut => &mut self.bytes_out,
            Name::TraceId => &mut self.trace_id,
            Name::AppVersion => &mut self.app_version,
            Name::Unknown => return None,
        })
    }
}

impl<'de> Deserialize<'de> for Decoded {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(TopLevel)
    }
}

struct TopLevel;

impl<'de> Visitor<'de> for TopLevel {
    type Value = Decoded;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Decoded, A::Error> {
        let mut record = Record::default();
        while let Some(name) = map.next_key::<Name>()? {
            // A repeated key keeps its last value, as Python's JSON parsers do.
            match record.slot(name) {
                Some(slot) => *slot = Some(map.next_value::<Field>()?),
                None => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(Decoded::Object(record))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Decoded, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Decoded::Other("list"))
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Decoded, E> {
        Ok(Decoded::Other("str"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Decoded, E> {
        Ok(Decoded::Other("int"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Decoded, E> {
        Ok(Decoded::Other("int"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Decoded, E> {
        Ok(Decoded::Other("float"))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Decoded, E> {
        Ok(Decoded::Other("bool"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Decoded, E> {
        Ok(Decoded::Other("NoneType"))
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FieldVisitor)
    }
}

struct FieldVisitor;

impl<'de> Visitor<'de> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
        Ok(Field::Text(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Field, E> {
        Ok(Field::Text(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Field, E> {
        Ok(Field::Integer(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
        Ok(Field::Unsigned(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Field, E> {
        Ok(Field::Float(v))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Field, E> {
        Ok(Field::Bool(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Field, E> {
        Ok(Field::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Field, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Field::List)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Field, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Field::Object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"event_id":"e1","ts_ms":1764547200000,"partition_key":"k0","latency_ms":120,"queue_depth":30.5,"cpu_usage":50,"error_count":3}"#;

    #[test]
    fn scores_a_complete_record() {
        let scorable = decode(GOOD.as_bytes()).unwrap();
        assert_eq!(scorable.event_id, "e1");
        assert_eq!(scorable.ts_ms, Field::Unsigned(1764547200000));
        assert_eq!(scorable.metrics, [120.0, 30.5, 50.0, 3.0]);
        assert_eq!(scorable.key.as_deref(), Some("k0"));
    }

    #[test]
    fn reads_escapes_and_non_ascii_in_event_id() {
        let text = r#"{"event_id":"e2\/\u00e9\ud83d\ude80 \"q\"","ts_ms":1,"latency_ms":1,"queue_depth":1,"cpu_usage":1,"error_count":1}"#;
        assert_eq!(decode(text.as_bytes()).unwrap().event_id, "e2/é🚀 \"q\"");
    }

    #[test]
    fn gives_the_kits_reasons() {
        let reason = |text: &str| decode(text.as_bytes()).unwrap_err();
        let reason_of = |bytes: &[u8]| decode(bytes).unwrap_err();
        assert_eq!(reason(r#"[{"event_id":"p1"}]"#), "not a JSON object: list");
        assert_eq!(reason(r#"{"ts_ms":1}"#), "no event_id string");
        assert_eq!(
            reason(r#"{"event_id":"p1","ts_ms":"yesterday"}"#),
            "ts_ms is not a finite number: 'yesterday'"
        );
        assert_eq!(
            reason(r#"{"event_id":"p1","ts_ms":1,"latency_ms":true}"#),
            "latency_ms is not a finite number: True"
        );
        assert_eq!(
            reason(r#"{"event_id":"p1","ts_ms":1,"latency_ms":1,"queue_depth":null}"#),
            "queue_depth is not a finite number: None"
        );
        assert_eq!(
            reason(r#"{"event_id":"p1","ts_ms":1,"latency_ms":1,"queue_depth":1,"cpu_usage":1}"#),
            "error_count is not a finite number: None"
        );
        assert!(reason("").starts_with("not JSON: "));
        let binary = reason_of(&[0x00, 0xff, 0xfe, b'{', b'"', 0x80, b'\n', b'x']);
        assert!(
            binary.starts_with("not JSON: ") && !binary.contains('\n'),
            "{binary:?}"
        );
        // A double overflows at 1e999: sonic-rs refuses the text where Python reads Infinity; skipped either way.
        let out_of_range = r#"{"event_id":"p1","ts_ms":1,"latency_ms":1e999,"queue_depth":3,"cpu_usage":40,"error_count":1}"#;
        assert!(reason(out_of_range).starts_with("not JSON: "));
    }

    #[test]
    fn keeps_the_last_of_a_repeated_key_and_ignores_nested_decoys() {
        let text = "{\"meta\":{\"event_id\":\"decoy\",\"latency_ms\":4999},\"event_id\":\"x\",\"event_id\":\"e3\",\
            \"ts_ms\":2,\"latency_ms\":1,\"queue_depth\":1,\"cpu_usage\":1,\"error_count\":1}";
        let scorable = decode(text.as_bytes()).unwrap();
        assert_eq!(
            (scorable.event_id.as_str(), scorable.metrics[0]),
            ("e3", 1.0)
        );
    }
}
