//! The output audit's reader: the records of partition 0 of one topic at offsets [from, until),
//! written to stdout as frames the runner's audit reads (core's native-output-reader.ts). A
//! well-formed output (a JSON object whose event_id names a produced record, whose ts_ms is a
//! number or absent and whose risk is a number) is decoded here into a fixed frame; any other
//! record goes out whole, and the runner judges it as it judges every record it reads itself.
//! The JavaScript binding builds an object per record on the runner's thread (about 6 µs each);
//! decoded here, a record costs the runner one frame.
//!
//! Frames, little-endian:
//!   1 offset:f64 seq:f64 ts_ms:f64 risk:f64 timestamp:f64     a well-formed output
//!   2 offset:f64 timestamp:f64 length:u32 value:[u8; length]   any other record, as read
//!
//! The reader stops when a record at or past `until` comes, when until - from records were
//! read, or when nothing new came for idle-ms (transaction markers take offsets); it exits 0
//! after the last frame is flushed, and non-zero with the reason on stderr.
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rdkafka::config::ClientConfig;
use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::message::Message;
use rdkafka::{Offset, TopicPartitionList};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

const GOOD: u8 = 1;
const RAW: u8 = 2;
/** Number.MAX_SAFE_INTEGER: core's seqOfEventId takes no sequence number above it. */
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

struct Args {
    bootstrap: String,
    topic: String,
    from: i64,
    until: i64,
    idle: Duration,
    timeout: Duration,
    produced: f64,
    passthrough: bool,
    settings: Vec<(String, String)>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        bootstrap: String::new(),
        topic: String::new(),
        from: 0,
        until: i64::MAX,
        idle: Duration::from_secs(5),
        timeout: Duration::from_secs(600),
        produced: 0.0,
        passthrough: false,
        settings: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--passthrough" {
            a.passthrough = true;
            continue;
        }
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |v: &str| v.parse::<i64>().map_err(|_| format!("{flag} {v}: not an integer"));
        match flag.as_str() {
            "--bootstrap" => a.bootstrap = value,
            "--topic" => a.topic = value,
            "--from" => a.from = number(&value)?,
            "--until" => a.until = number(&value)?,
            "--idle-ms" => a.idle = Duration::from_millis(number(&value)? as u64),
            "--timeout-ms" => a.timeout = Duration::from_millis(number(&value)? as u64),
            "--produced" => a.produced = number(&value)? as f64,
            "-X" => {
                let (k, v) = value.split_once('=').ok_or_else(|| format!("-X {value}: not key=value"))?;
                a.settings.push((k.to_string(), v.to_string()));
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if a.bootstrap.is_empty() || a.topic.is_empty() {
        return Err("--bootstrap and --topic are required".into());
    }
    Ok(a)
}

/// A field that is present, whatever its value (null included), as Some; absent fields default to None.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The fields the audit reads. A duplicate key, an escaped event_id or any syntax error fails
/// here and the record goes out whole.
#[derive(Deserialize)]
struct Output<'a> {
    #[serde(borrow)]
    event_id: Option<&'a str>,
    #[serde(default, deserialize_with = "present")]
    ts_ms: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    risk: Option<Value>,
}

/// core's seqOfEventId: /^e(\d+)(?:\/[\s\S]*)?$/, the digits as a safe integer.
fn seq_of_event_id(id: &str) -> Option<f64> {
    let rest = id.strip_prefix('e')?;
    let digits_end = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
    if digits_end == 0 || !(digits_end == rest.len() || rest[digits_end..].starts_with('/')) {
        return None;
    }
    let seq: f64 = rest[..digits_end].parse().ok()?;
    (seq <= MAX_SAFE_INTEGER).then_some(seq)
}

/// [seq, ts_ms, risk] of a well-formed output; None sends the record whole.
fn decode(value: &[u8], produced: f64, passthrough: bool) -> Option<[f64; 3]> {
    // JSON.parse takes the same four whitespace bytes; a struct would also accept an array.
    let first = value.iter().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))?;
    if *first != b'{' {
        return None;
    }
    let out: Output = serde_json::from_slice(value).ok()?;
    let seq = seq_of_event_id(out.event_id?)?;
    if seq >= produced {
        return None;
    }
    let ts = match out.ts_ms {
        None => f64::NAN,
        Some(Value::Number(n)) => n.as_f64()?,
        Some(_) => return None,
    };
    let risk = match (passthrough, out.risk) {
        (true, _) => f64::NAN,
        (false, Some(Value::Number(n))) => n.as_f64()?,
        (false, _) => return None,
    };
    Some([seq, ts, risk])
}

fn write_record(w: &mut impl Write, offset: i64, timestamp: f64, value: &[u8], a: &Args) -> io::Result<()> {
    match decode(value, a.produced, a.passthrough) {
        Some([seq, ts, risk]) => {
            w.write_all(&[GOOD])?;
            for x in [offset as f64, seq, ts, risk, timestamp] {
                w.write_all(&x.to_le_bytes())?;
            }
        }
        None => {
            w.write_all(&[RAW])?;
            w.write_all(&(offset as f64).to_le_bytes())?;
            w.write_all(&timestamp.to_le_bytes())?;
            w.write_all(&(value.len() as u32).to_le_bytes())?;
            w.write_all(value)?;
        }
    }
    Ok(())
}

fn consumer(a: &Args) -> Result<BaseConsumer, String> {
    let mut config = ClientConfig::new();
    config.set("bootstrap.servers", &a.bootstrap).set("group.id", "bench-reader").set("enable.auto.commit", "false");
    for (k, v) in &a.settings {
        config.set(k, v);
    }
    let c: BaseConsumer = config.create().map_err(|e| format!("creating the consumer: {e}"))?;
    let mut tpl = TopicPartitionList::new();
    tpl.add_partition_offset(&a.topic, 0, Offset::Offset(a.from)).map_err(|e| e.to_string())?;
    c.assign(&tpl).map_err(|e| format!("assigning {}: {e}", a.topic))?;
    Ok(c)
}

fn read(a: &Args) -> Result<u64, String> {
    let c = consumer(a)?;
    let stop_at = (a.until - a.from).max(0) as u64;
    let deadline = Instant::now() + a.timeout;
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut read = 0u64;
    let mut last_progress = Instant::now();
    while read < stop_at && Instant::now() < deadline && last_progress.elapsed() < a.idle {
        let Some(polled) = c.poll(Duration::from_millis(100)) else { continue };
        let m = polled.map_err(|e| format!("reading {}: {e}", a.topic))?;
        if m.offset() >= a.until {
            break;
        }
        let timestamp = m.timestamp().to_millis().map_or(0.0, |t| t as f64);
        write_record(&mut out, m.offset(), timestamp, m.payload().unwrap_or(&[]), a).map_err(|e| format!("writing frames: {e}"))?;
        read += 1;
        last_progress = Instant::now();
    }
    out.flush().map_err(|e| format!("writing frames: {e}"))?;
    Ok(read)
}

fn main() -> ExitCode {
    let result = parse_args().and_then(|a| read(&a));
    match result {
        Ok(_) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("output-reader: {why}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_event_ids_as_core_does() {
        assert_eq!(seq_of_event_id("e42"), Some(42.0));
        assert_eq!(seq_of_event_id("e007/x\ny"), Some(7.0));
        assert_eq!(seq_of_event_id("e/1"), None);
        assert_eq!(seq_of_event_id("e12a"), None);
        assert_eq!(seq_of_event_id("E12"), None);
        assert_eq!(seq_of_event_id("e9007199254740992"), None);
    }

    #[test]
    fn decodes_only_well_formed_outputs() {
        let d = |s: &str| decode(s.as_bytes(), 100.0, false);
        assert_eq!(d(r#"{"event_id":"e5","ts_ms":17,"risk":0.25}"#), Some([5.0, 17.0, 0.25]));
        assert!(d(r#" {"risk":1,"event_id":"e5"}"#).unwrap()[1].is_nan());
        for whole in [
            r#"["e5",1,0.5]"#,
            r#"{"event_id":"e5","ts_ms":null,"risk":0.5}"#,
            r#"{"event_id":"e5","ts_ms":"17","risk":0.5}"#,
            r#"{"event_id":"e5","risk":null}"#,
            r#"{"event_id":"e5"}"#,
            r#"{"event_id":"e100","risk":0.5}"#,
            r#"{"event_id":"e5","event_id":"e6","risk":0.5}"#,
            r#"{"event_id":"\u00655","risk":0.5}"#,
            "\u{feff}{\"event_id\":\"e5\",\"risk\":0.5}",
            "{",
            "",
        ] {
            assert_eq!(d(whole), None, "{whole}");
        }
        assert_eq!(decode(br#"{"event_id":"e5","ts_ms":1}"#, 100.0, true).map(|x| x[0]), Some(5.0));
    }
}
