//! Expansion snapshots of `#[derive(ToolFailure)]` (see `crate::snapshot`), and the
//! one-pass error report.

use quote::quote;

use crate::snapshot::assert_expansion;

/// Expansion snapshots (`UPDATE_EXPECT=1` rewrites them); read them when the output changes.
#[test]
fn snapshot_enum() {
    let out = super::derive_tool_failure(quote! {
        #[failure(redact)]
        enum WeatherError {
            #[error("unknown city `{city}`")]
            #[failure(terminal, data, redact = false)]
            UnknownCity { city: String, #[failure(skip)] source: Box<dyn std::error::Error> },
            #[failure(retry_after = "200ms", code = "service_down")]
            Unavailable,
            #[failure(kind = timeout, unhandled)]
            Slow(u64),
        }
    });
    assert_expansion("failure_enum", out);
}

#[test]
fn snapshot_generic_struct() {
    let out = super::derive_tool_failure(quote! {
        #[failure(crate = ::renamed::tool_executor, data)]
        struct Missing<'a, T: Clone> where T: Send { key: &'a str, value: T }
    });
    assert_expansion("failure_generic_struct", out);
}

#[test]
fn snapshot_fallback() {
    let out = super::derive_tool_failure(quote! {
        enum E<T> { #[failure(retyr = "1s")] A(T) }
    });
    assert_expansion("failure_fallback", out);
}

/// Every bad attribute is reported in one pass, not just the first.
#[test]
fn reports_every_error_at_once() {
    let out = super::derive_tool_failure(quote! {
        #[failure(code = "x", colour)]
        enum E {
            #[failure(retyr = "1s", terminal, ordinary)]
            A,
            #[failure(kind = network)]
            B(#[failure(terminal)] u8),
            #[failure(code = "a")]
            C,
        }
    })
    .to_string();
    let messages: Vec<&str> = out
        .split("compile_error !")
        .skip(1)
        .map(|m| m.split('"').nth(1).unwrap_or_default())
        .collect();
    assert_eq!(messages.len(), 7, "{messages:#?}");
    for (message, expected) in messages.iter().zip([
        "`code` goes on each variant",
        "unknown #[failure] key `colour`",
        "unknown #[failure] key `retyr`",
        "two classes: `terminal` and `ordinary`",
        "unknown failure kind `network`",
        "`terminal` goes on the variant or the type, not on a field",
        "variants `A` and `C` both have failure code `a`",
    ]) {
        assert!(
            message.starts_with(expected),
            "{message} should start with {expected}"
        );
    }
    assert!(
        out.contains("unreachable"),
        "the fallback impl is emitted: {out}"
    );
}
