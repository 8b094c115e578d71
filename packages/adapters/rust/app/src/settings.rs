//! The run's settings as the runner hands them to every app (core's benchAppEnv): BENCH_*
//! variables, the shared Kafka client settings as JSON under librdkafka's names.
use std::collections::BTreeMap;
use std::path::PathBuf;

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
}
