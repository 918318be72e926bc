//! Tool names each provider accepts, and the deterministic mapping onto them.
//!
//! | provider | accepted |
//! |---|---|
//! | OpenAI, Anthropic | `^[A-Za-z0-9_-]{1,64}$` |
//! | Gemini | a letter or `_` first, then `[A-Za-z0-9_.:-]`, at most 128 characters |
//! | MCP | `[A-Za-z0-9_.-]`, 1 to 128 characters |
//!
//! Every other character becomes `_`, a name is cut at the limit, and a Gemini name that does
//! not start with a letter or `_` gets a `_` in front. Two tools that map to one name are an
//! error ([`NameCollision`]), never a silent shadowing.

use std::fmt;

use super::Provider;

/// Two tools whose names map to one provider name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameCollision {
    /// The provider.
    pub provider: Provider,
    /// The name both map to.
    pub mapped: String,
    /// The first tool's own name.
    pub first: String,
    /// The second tool's own name.
    pub second: String,
}

impl fmt::Display for NameCollision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "tools `{}` and `{}` are both named `{}` for {}; rename one",
            self.first, self.second, self.mapped, self.provider
        )
    }
}

impl std::error::Error for NameCollision {}

/// `name` as `provider` accepts it.
pub(super) fn map(provider: Provider, name: &str) -> String {
    let (max, extra): (usize, &[char]) = match provider {
        Provider::Gemini | Provider::GeminiJsonSchema => (128, &['_', '-', '.', ':']),
        Provider::Mcp => (128, &['_', '-', '.']),
        _ => (64, &['_', '-']),
    };
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || extra.contains(&c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let gemini = matches!(provider, Provider::Gemini | Provider::GeminiJsonSchema);
    if out.is_empty() || (gemini && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    {
        out.insert(0, '_');
    }
    // Only ASCII is left, so a byte index is a character boundary.
    out.truncate(max);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dotted_names_lose_the_dot_where_refused() {
        assert_eq!(map(Provider::OpenAiChat, "notes.search"), "notes_search");
        assert_eq!(
            map(Provider::AnthropicStrict, "notes.search"),
            "notes_search"
        );
        assert_eq!(map(Provider::Gemini, "notes.search"), "notes.search");
        assert_eq!(map(Provider::Mcp, "notes.search"), "notes.search");
    }

    #[test]
    fn gemini_names_start_with_a_letter_or_underscore() {
        assert_eq!(map(Provider::Gemini, "1st-tool"), "_1st-tool");
        assert_eq!(map(Provider::OpenAiChat, "1st-tool"), "1st-tool");
        assert_eq!(map(Provider::Gemini, "wetter/über"), "wetter__ber");
    }

    #[test]
    fn names_are_cut_at_the_limit() {
        let long = "a".repeat(200);
        assert_eq!(map(Provider::OpenAiResponses, &long).len(), 64);
        assert_eq!(map(Provider::Gemini, &long).len(), 128);
        assert_eq!(map(Provider::Anthropic, ""), "_");
    }
}
