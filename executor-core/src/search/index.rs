//! [`ToolIndex`]: BM25 over each tool's name, title, description and parameters.
//!
//! Written here rather than taken from a crate: the whole ranking is a tokenizer and one
//! formula (Robertson's BM25 with the usual k1 = 1.2, b = 0.75), and the crates that offer it
//! bring stemmers, language detection or an embedder with them.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use crate::tool::ToolSpec;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// BM25's length normalisation.
const B: f64 = 0.75;

/// How much each field counts: a word of the name counts three times a word of the
/// description (the name is the densest statement of what a tool does).
const NAME_WEIGHT: u32 = 3;
const TITLE_WEIGHT: u32 = 2;
const PARAMETER_WEIGHT: u32 = 2;
const TEXT_WEIGHT: u32 = 1;

/// Words too common to rank by.
const STOP_WORDS: [&str; 24] = [
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "is", "it", "of", "on",
    "or", "that", "the", "this", "to", "with", "me", "my", "i",
];

/// One ranked tool.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// The tool's spec.
    pub spec: Arc<ToolSpec>,
    /// Its BM25 score (higher is better; only relative order means anything).
    pub score: f64,
}

struct Document {
    spec: Arc<ToolSpec>,
    terms: HashMap<String, u32>,
    len: u32,
}

/// A search index over tool specs.
///
/// ```
/// use std::sync::Arc;
/// use tool_executor::ToolSpec;
/// use tool_executor::search::ToolIndex;
/// use serde_json::json;
///
/// let specs = [
///     ToolSpec::new("get_weather", "Current weather for a city.", json!({"type": "object"})),
///     ToolSpec::new("send_email", "Sends an email to a recipient.", json!({"type": "object"})),
/// ];
/// let index = ToolIndex::new(specs.into_iter().map(Arc::new));
/// let hits = index.search("what's the weather in Paris", 5);
/// assert_eq!(hits[0].spec.name, "get_weather");
/// assert_eq!(hits.len(), 1); // nothing in `send_email` matches
/// ```
pub struct ToolIndex {
    documents: Vec<Document>,
    /// In how many documents each term appears.
    frequency: HashMap<String, u32>,
    average_len: f64,
}

impl std::fmt::Debug for ToolIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolIndex")
            .field("tools", &self.documents.len())
            .field("terms", &self.frequency.len())
            .finish_non_exhaustive()
    }
}

impl ToolIndex {
    /// The index of `specs`.
    pub fn new(specs: impl IntoIterator<Item = Arc<ToolSpec>>) -> Self {
        let documents: Vec<Document> = specs.into_iter().map(document).collect();
        let mut frequency: HashMap<String, u32> = HashMap::new();
        for doc in &documents {
            for term in doc.terms.keys() {
                *frequency.entry(term.clone()).or_default() += 1;
            }
        }
        let total: f64 = documents.iter().map(|d| f64::from(d.len)).sum();
        let average_len = (total / count(documents.len())).max(1.0);
        Self {
            documents,
            frequency,
            average_len,
        }
    }

    /// How many tools it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.documents.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.documents.is_empty()
    }

    /// The `limit` best matches of `query`, best first; tools that share no word with the
    /// query are left out, ties keep the order the tools were listed in.
    #[must_use]
    pub fn search(&self, query: &str, limit: usize) -> Vec<SearchHit> {
        let mut words = Vec::new();
        tokens(query, &mut words);
        words.sort();
        words.dedup();
        let n = count(self.documents.len());
        let mut hits: Vec<(usize, f64)> = self
            .documents
            .iter()
            .enumerate()
            .filter_map(|(at, doc)| {
                let score: f64 = words
                    .iter()
                    .filter_map(|word| {
                        let tf = f64::from(*doc.terms.get(word)?);
                        let df = f64::from(self.frequency.get(word).copied().unwrap_or(0));
                        let idf = ((n - df + 0.5) / (df + 0.5) + 1.0).ln();
                        let norm = 1.0 - B + B * f64::from(doc.len) / self.average_len;
                        Some(idf * tf * (K1 + 1.0) / (tf + K1 * norm))
                    })
                    .sum();
                (score > 0.0).then_some((at, score))
            })
            .collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits.truncate(limit);
        hits.into_iter()
            .map(|(at, score)| SearchHit {
                spec: Arc::clone(&self.documents[at].spec),
                score,
            })
            .collect()
    }
}

/// A number of documents as a float (a set of more than 2^32 tools counts as 2^32).
fn count(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

fn document(spec: Arc<ToolSpec>) -> Document {
    let mut terms: HashMap<String, u32> = HashMap::new();
    let mut add = |text: &str, weight: u32| {
        let mut words = Vec::new();
        tokens(text, &mut words);
        for word in words {
            *terms.entry(word).or_default() += weight;
        }
    };
    add(&spec.name, NAME_WEIGHT);
    if let Some(title) = &spec.annotations.title {
        add(title, TITLE_WEIGHT);
    }
    add(&spec.description, TEXT_WEIGHT);
    if let Some(Value::Object(properties)) = spec.input_schema.get("properties") {
        for (name, schema) in properties {
            add(name, PARAMETER_WEIGHT);
            if let Some(text) = schema.get("description").and_then(Value::as_str) {
                add(text, TEXT_WEIGHT);
            }
        }
    }
    let len = terms.values().sum();
    Document { spec, terms, len }
}

/// The words of `text`, lower case: split at anything not a letter or digit and between a
/// lower-case letter and an upper-case one (`getWeather`, `get_weather`, `notes.search`),
/// stop words dropped, a plural `s` taken off.
fn tokens(text: &str, out: &mut Vec<String>) {
    let mut word = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        let boundary = !c.is_alphanumeric() || (previous_lower && c.is_uppercase());
        if boundary {
            push(&mut word, out);
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    push(&mut word, out);
}

fn push(word: &mut String, out: &mut Vec<String>) {
    if word.is_empty() {
        return;
    }
    let mut taken = std::mem::take(word);
    if STOP_WORDS.contains(&taken.as_str()) {
        return;
    }
    if taken.len() > 3 && taken.ends_with('s') && !taken.ends_with("ss") {
        taken.pop();
    }
    out.push(taken);
}

#[cfg(test)]
mod tests {
    use super::tokens;

    fn words(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        tokens(text, &mut out);
        out
    }

    #[test]
    fn names_split_into_words() {
        assert_eq!(words("getWeather"), ["get", "weather"]);
        assert_eq!(
            words("notes.search_all-items"),
            ["note", "search", "all", "item"]
        );
        assert_eq!(words("Send the emails to Ada"), ["send", "email", "ada"]);
        assert_eq!(words("address"), ["address"]);
    }
}
