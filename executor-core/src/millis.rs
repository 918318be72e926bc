//! `Option<Duration>` as whole milliseconds on the wire (`retry_after_ms`, `timeoutMs`), for
//! serde's `with = "…"`.

use std::time::Duration;

use serde::{Deserialize, Deserializer, Serializer};

#[allow(clippy::ref_option)] // serde's `with` passes `&Option<T>`
pub fn serialize<S: Serializer>(value: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(d) => s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
        None => s.serialize_none(),
    }
}

pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    Ok(Option::<u64>::deserialize(d)?.map(Duration::from_millis))
}
