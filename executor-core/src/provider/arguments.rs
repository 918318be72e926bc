//! A provider's tool-call arguments back in our declared shape: `null`s that mean "not given"
//! removed (OpenAI strict), renamed parameters under their own names again (Gemini).

use serde_json::{Map, Value};

use super::Declared;

impl Declared {
    /// Whether `args` need [`restore`](Self::restore): a `null` for an argument whose `null`
    /// means "not given", or an argument under its declared name. Most calls need neither, so
    /// they are decoded without a copy.
    pub(super) fn rewrites(&self, args: &Map<String, Value>) -> bool {
        self.absent_when_null
            .iter()
            .any(|name| args.get(name).is_some_and(Value::is_null))
            || self
                .renamed_arguments
                .iter()
                .any(|(declared, _)| args.contains_key(declared))
    }

    /// `args` with those `null`s removed and renamed arguments under our names.
    pub(super) fn restore(&self, args: &Map<String, Value>) -> Map<String, Value> {
        args.iter()
            .filter(|(k, v)| !(v.is_null() && self.absent_when_null.contains(k)))
            .map(|(k, v)| {
                let ours = self
                    .renamed_arguments
                    .iter()
                    .find(|(declared, _)| declared == k)
                    .map_or(k, |(_, ours)| ours);
                (ours.clone(), v.clone())
            })
            .collect()
    }
}
