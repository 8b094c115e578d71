//! The run's settings as the runner hands them to every app (core's benchAppEnv): BENCH_*
//! variables, the shared Kafka client settings as JSON under librdkafka's names, the guarantee.
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The delivery guarantee the runner asks for (BENCH_GUARANTEE).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Guarantee {
    /// Flush every output, then commit the consumer's offsets: a crash may replay one batch.
    AtLeastOnce,
    /// One Kafka transaction per batch under the run's transactional id, which every start of the
    /// run shares so that a restart fences the instance it replaces.
    ExactlyOnce { transactional_id: String },
}

/// The guarantee from BENCH_GUARANTEE and BENCH_TRANSACTIONAL_ID; unset is at-least-once, the
/// runner's default, so an older runner gets the behaviour it always had.
pub fn guarantee(value: Option<&str>, transactional_id: Option<&str>) -> Result<Guarantee, String> {
    match (value, transactional_id) {
        (None | Some("at-least-once"), _) => Ok(Guarantee::AtLeastOnce),
        (Some("exactly-once"), Some(id)) if !id.is_empty() => Ok(Guarantee::ExactlyOnce {
            transactional_id: id.to_string(),
        }),
        (Some("exactly-once"), _) => {
            Err("BENCH_GUARANTEE is exactly-once but BENCH_TRANSACTIONAL_ID is not set".to_string())
        }
        (Some(other), _) => Err(format!(
            "BENCH_GUARANTEE {other:?} is neither at-least-once nor exactly-once"
        )),
    }
}

pub struct BenchEnv {
    pub bootstrap: String,
    pub input_topic: String,
    pub output_topic: String,
    pub group_id: String,
    pub models_dir: PathBuf,
    /// The libonnxruntime.so prepare() fetched (the adapter sets it).
    pub onnxruntime: PathBuf,
    pub consumer_settings: BTreeMap<String, String>,
    pub producer_settings: BTreeMap<String, String>,
    pub guarantee: Guarantee,
}

fn var(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} is not set (the runner sets it)"))
}

impl BenchEnv {
    pub fn from_env() -> Result<BenchEnv, String> {
        Ok(BenchEnv {
            bootstrap: var("BENCH_BOOTSTRAP")?,
            input_topic: var("BENCH_INPUT_TOPIC")?,
            output_topic: var("BENCH_OUTPUT_TOPIC")?,
            group_id: var("BENCH_GROUP_ID")?,
            models_dir: var("BENCH_MODELS_DIR")?.into(),
            onnxruntime: var("BENCH_ONNXRUNTIME")?.into(),
            consumer_settings: client_settings(&var("BENCH_KAFKA_CONSUMER")?)?,
            producer_settings: client_settings(&var("BENCH_KAFKA_PRODUCER")?)?,
            guarantee: guarantee(
                std::env::var("BENCH_GUARANTEE").ok().as_deref(),
                std::env::var("BENCH_TRANSACTIONAL_ID").ok().as_deref(),
            )?,
        })
    }
}

/// A JSON object of librdkafka properties as the text values librdkafka's configuration takes.
pub fn client_settings(json: &str) -> Result<BTreeMap<String, String>, String> {
    let values: BTreeMap<String, sonic_rs::Value> =
        sonic_rs::from_str(json).map_err(|e| format!("client settings {json}: {e}"))?;
    Ok(values
        .into_iter()
        .map(|(name, value)| {
            use sonic_rs::JsonValueTrait;
            let text = match value.as_str() {
                Some(s) => s.to_string(),
                None => value.to_string(),
            };
            (name, text)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_strings_numbers_and_flags_as_librdkafka_text() {
        let settings =
            client_settings(r#"{"acks":"all","enable.idempotence":true,"linger.ms":5}"#).unwrap();
        let pairs: Vec<(&str, &str)> = settings
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("acks", "all"),
                ("enable.idempotence", "true"),
                ("linger.ms", "5")
            ]
        );
    }

    #[test]
    fn reads_the_guarantee_at_least_once_unless_exactly_once_is_asked_for() {
        assert_eq!(guarantee(None, None), Ok(Guarantee::AtLeastOnce));
        assert_eq!(
            guarantee(Some("at-least-once"), None),
            Ok(Guarantee::AtLeastOnce)
        );
        assert_eq!(
            guarantee(Some("exactly-once"), Some("g.tx")),
            Ok(Guarantee::ExactlyOnce {
                transactional_id: "g.tx".to_string()
            })
        );
    }

    #[test]
    fn refuses_exactly_once_without_a_transactional_id_and_an_unknown_guarantee() {
        assert!(guarantee(Some("exactly-once"), None)
            .unwrap_err()
            .contains("BENCH_TRANSACTIONAL_ID"));
        assert!(guarantee(Some("exactly-once"), Some("")).is_err());
        assert!(guarantee(Some("at-most-once"), Some("g.tx"))
            .unwrap_err()
            .contains("\"at-most-once\""));
    }
}
