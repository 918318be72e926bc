//! `#[derive(ToolFailure)]`: every key, the enum-level defaults and their per-variant
//! overrides, structs, generics and lifetimes, and the source chain.

use std::error::Error as _;
use std::fmt;
use std::time::Duration;

use serde_json::json;
use tool_executor::failure::FailureCodes;
use tool_executor::failure::REDACTED_MESSAGE;
use tool_executor::{Classification, FailureKind, ToolFailure};

/// Every variant-level key, one per variant, on an enum without defaults.
#[derive(Debug, thiserror::Error, ToolFailure)]
enum Keys {
    #[error("plain")]
    Plain,
    #[error("explicitly ordinary")]
    #[failure(ordinary)]
    Ordinary,
    #[error("stop")]
    #[failure(terminal)]
    Terminal,
    #[error("not mine")]
    #[failure(unhandled)]
    Unhandled,
    #[error("named")]
    #[failure(code = "custom_code")]
    Named,
    #[error("slow down")]
    #[failure(retry_after = "250ms")]
    RetryMillis,
    #[error("much slower")]
    #[failure(retry_after = "2m")]
    RetryMinutes,
    #[error("bad input")]
    #[failure(kind = invalid_arguments)]
    KindInvalid,
    #[error("too slow")]
    #[failure(kind = timeout)]
    KindTimeout,
    #[error("gave up")]
    #[failure(kind = cancelled)]
    KindCancelled,
    #[error("tool")]
    #[failure(kind = tool)]
    KindTool,
    #[error("bug: {0}")]
    #[failure(kind = internal)]
    KindInternal(String),
    #[error("password is {0}")]
    #[failure(redact)]
    Redacted(String),
    #[error("unknown city {city}")]
    #[failure(data)]
    DataNamed { city: String, population: u64 },
    #[error("code {0}")]
    #[failure(data)]
    DataNewtype(u16),
    #[error("pair")]
    #[failure(data)]
    DataTuple(u8, String),
    #[error("HTTP {0}")]
    HTTPStatus(u16),
    #[error("everything")]
    #[failure(terminal, code = "all_of_it", kind = timeout, data)]
    Combined { limit_ms: u64 },
    #[error("shown bug")]
    #[failure(kind = internal, redact = false)]
    InternalShown,
    #[error("split")]
    #[failure(terminal)]
    #[failure(code = "split_attrs", kind = cancelled)]
    Split,
}

#[test]
fn classes() {
    let plain = ToolFailure::from(Keys::Plain);
    assert_eq!(plain.classification(), Classification::Ordinary);
    assert!(!plain.is_unhandled());
    assert_eq!(
        ToolFailure::from(Keys::Ordinary).classification(),
        Classification::Ordinary
    );
    assert!(ToolFailure::from(Keys::Terminal).is_terminal());
    let unhandled = ToolFailure::from(Keys::Unhandled);
    assert!(unhandled.is_unhandled());
    assert!(!unhandled.is_terminal());
}

#[test]
fn message_is_the_display() {
    assert_eq!(ToolFailure::from(Keys::Plain).message(), "plain");
    assert_eq!(
        ToolFailure::from(Keys::HTTPStatus(503)).message(),
        "HTTP 503"
    );
}

#[test]
fn codes_default_to_the_variant_name_in_snake_case() {
    assert_eq!(ToolFailure::from(Keys::Plain).code(), "plain");
    assert_eq!(ToolFailure::from(Keys::RetryMillis).code(), "retry_millis");
    assert_eq!(
        ToolFailure::from(Keys::HTTPStatus(500)).code(),
        "http_status"
    );
    assert_eq!(ToolFailure::from(Keys::Named).code(), "custom_code");
    assert_eq!(
        Keys::FAILURE_CODES,
        [
            "plain",
            "ordinary",
            "terminal",
            "unhandled",
            "custom_code",
            "retry_millis",
            "retry_minutes",
            "kind_invalid",
            "kind_timeout",
            "kind_cancelled",
            "kind_tool",
            "kind_internal",
            "redacted",
            "data_named",
            "data_newtype",
            "data_tuple",
            "http_status",
            "all_of_it",
            "internal_shown",
            "split_attrs",
        ]
    );
}

#[test]
fn retry_hints() {
    assert_eq!(
        ToolFailure::from(Keys::RetryMillis).retry_after(),
        Some(Duration::from_millis(250))
    );
    assert_eq!(
        ToolFailure::from(Keys::RetryMinutes).retry_after(),
        Some(Duration::from_secs(120))
    );
    assert_eq!(ToolFailure::from(Keys::Plain).retry_after(), None);
}

#[test]
fn kinds() {
    assert_eq!(ToolFailure::from(Keys::Plain).kind(), FailureKind::Tool);
    assert_eq!(
        ToolFailure::from(Keys::KindInvalid).kind(),
        FailureKind::InvalidArguments
    );
    assert_eq!(
        ToolFailure::from(Keys::KindTimeout).kind(),
        FailureKind::Timeout
    );
    assert_eq!(
        ToolFailure::from(Keys::KindCancelled).kind(),
        FailureKind::Cancelled
    );
    assert_eq!(ToolFailure::from(Keys::KindTool).kind(), FailureKind::Tool);
    // The kind says whose fault it was; the class still decides retrying.
    assert!(!ToolFailure::from(Keys::KindCancelled).is_terminal());
}

#[test]
fn internal_is_redacted_by_default() {
    let failure = ToolFailure::from(Keys::KindInternal("index out of bounds".into()));
    assert_eq!(failure.kind(), FailureKind::Internal);
    assert_eq!(failure.message(), REDACTED_MESSAGE);
    assert_eq!(failure.withheld_message(), Some("bug: index out of bounds"));
}

#[test]
fn redact_withholds_the_message_but_keeps_it_for_logs() {
    let failure = ToolFailure::from(Keys::Redacted("hunter2".into()));
    assert_eq!(failure.message(), REDACTED_MESSAGE);
    assert_eq!(failure.to_string(), REDACTED_MESSAGE);
    assert!(failure.is_redacted());
    assert_eq!(failure.withheld_message(), Some("password is hunter2"));
    assert!(format!("{failure:?}").contains("hunter2"));
    let source = failure.source().expect("the original error is the source");
    assert_eq!(source.to_string(), "password is hunter2");
    assert!(matches!(source.downcast_ref::<Keys>(), Some(Keys::Redacted(p)) if p == "hunter2"));
    assert_eq!(failure.code(), "redacted");
}

#[test]
fn data_is_the_fields_serialized() {
    let named = ToolFailure::from(Keys::DataNamed {
        city: "Atlantis".into(),
        population: 0,
    });
    assert_eq!(
        named.data(),
        Some(&json!({"city": "Atlantis", "population": 0}))
    );
    assert_eq!(
        ToolFailure::from(Keys::DataNewtype(404)).data(),
        Some(&json!(404))
    );
    assert_eq!(
        ToolFailure::from(Keys::DataTuple(7, "x".into())).data(),
        Some(&json!([7, "x"]))
    );
    assert_eq!(ToolFailure::from(Keys::Plain).data(), None);
    // Without `data` the fields stay private even when they could be serialized.
    assert_eq!(ToolFailure::from(Keys::HTTPStatus(404)).data(), None);
}

#[test]
fn internal_can_be_shown() {
    let failure = ToolFailure::from(Keys::InternalShown);
    assert_eq!(failure.kind(), FailureKind::Internal);
    assert_eq!(failure.message(), "shown bug");
    assert!(!failure.is_redacted());
}

#[test]
fn several_failure_attributes_merge() {
    let failure = ToolFailure::from(Keys::Split);
    assert!(failure.is_terminal());
    assert_eq!(failure.code(), "split_attrs");
    assert_eq!(failure.kind(), FailureKind::Cancelled);
}

/// A field whose `Serialize` fails at run time (a map with non-string keys) becomes `null`;
/// the failure itself is never lost.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[error("grid")]
#[failure(data)]
struct Grid {
    cells: std::collections::BTreeMap<(u8, u8), u8>,
    size: u8,
}

#[test]
fn unserializable_data_becomes_null() {
    let failure = ToolFailure::from(Grid {
        cells: [((0, 0), 1)].into_iter().collect(),
        size: 1,
    });
    assert_eq!(failure.data(), Some(&json!({"cells": null, "size": 1})));
    assert_eq!(failure.message(), "grid");
}

#[test]
fn keys_combine() {
    let failure = ToolFailure::from(Keys::Combined { limit_ms: 500 });
    assert!(failure.is_terminal());
    assert_eq!(failure.code(), "all_of_it");
    assert_eq!(failure.kind(), FailureKind::Timeout);
    assert_eq!(failure.data(), Some(&json!({"limit_ms": 500})));
    assert_eq!(failure.retry_after(), None);
}

/// Enum-level defaults, each overridden by some variant.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[failure(terminal, kind = timeout, redact, retry_after = "1s")]
enum Defaults {
    #[error("inherits everything: secret")]
    Inherits,
    #[error("ordinary again: secret")]
    #[failure(ordinary)]
    Ordinary,
    #[error("shown")]
    #[failure(redact = false, kind = tool)]
    Shown,
    #[error("not mine")]
    #[failure(unhandled)]
    Unhandled,
    #[error("own hint")]
    #[failure(ordinary, retry_after = "5s", redact = false)]
    OwnHint,
    #[error("with data")]
    #[failure(redact = false, data)]
    WithData { attempt: u32 },
}

#[test]
fn enum_defaults_apply_and_variants_override_them() {
    let inherits = ToolFailure::from(Defaults::Inherits);
    assert!(inherits.is_terminal());
    assert_eq!(inherits.kind(), FailureKind::Timeout);
    assert_eq!(inherits.message(), REDACTED_MESSAGE);
    // An inherited hint does not reach a terminal variant: it would never be used.
    assert_eq!(inherits.retry_after(), None);

    let ordinary = ToolFailure::from(Defaults::Ordinary);
    assert!(!ordinary.is_terminal());
    assert_eq!(ordinary.retry_after(), Some(Duration::from_secs(1)));
    assert_eq!(ordinary.message(), REDACTED_MESSAGE);

    let shown = ToolFailure::from(Defaults::Shown);
    assert!(shown.is_terminal());
    assert_eq!(shown.kind(), FailureKind::Tool);
    assert_eq!(shown.message(), "shown");

    let unhandled = ToolFailure::from(Defaults::Unhandled);
    assert!(unhandled.is_unhandled());
    assert_eq!(unhandled.retry_after(), None);

    let own = ToolFailure::from(Defaults::OwnHint);
    assert_eq!(own.retry_after(), Some(Duration::from_secs(5)));
    assert_eq!(own.message(), "own hint");

    let data = ToolFailure::from(Defaults::WithData { attempt: 3 });
    assert_eq!(data.data(), Some(&json!({"attempt": 3})));
}

/// `data` on the enum: every variant with fields attaches them; `data = false` and `skip`
/// opt out.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[failure(data)]
enum DataDefault {
    #[error("no fields")]
    Unit,
    #[error("quota {used}/{limit}")]
    Quota { used: u32, limit: u32 },
    #[error("private {0}")]
    #[failure(data = false)]
    Private(String),
    #[error("upstream said {status}")]
    Upstream {
        status: u16,
        #[failure(skip)]
        #[source]
        source: std::io::Error,
    },
    #[error("type {type}")]
    Raw { r#type: String },
    #[error("positional")]
    Positional(#[failure(skip)] String, u8, bool),
    #[error("all skipped")]
    AllSkipped(#[failure(skip)] String),
}

#[test]
fn enum_level_data_and_skip() {
    assert_eq!(ToolFailure::from(DataDefault::Unit).data(), None);
    assert_eq!(
        ToolFailure::from(DataDefault::Quota { used: 5, limit: 5 }).data(),
        Some(&json!({"used": 5, "limit": 5}))
    );
    assert_eq!(
        ToolFailure::from(DataDefault::Private("x".into())).data(),
        None
    );
    let upstream = ToolFailure::from(DataDefault::Upstream {
        status: 502,
        source: std::io::Error::other("connection reset"),
    });
    assert_eq!(upstream.data(), Some(&json!({"status": 502})));
    let chain = upstream
        .source()
        .and_then(std::error::Error::source)
        .map(ToString::to_string);
    assert_eq!(chain.as_deref(), Some("connection reset"));
    assert_eq!(
        ToolFailure::from(DataDefault::Raw { r#type: "t".into() }).data(),
        Some(&json!({"type": "t"}))
    );
    assert_eq!(
        ToolFailure::from(DataDefault::Positional("hidden".into(), 1, true)).data(),
        Some(&json!([1, true]))
    );
    // An inherited `data` with nothing left to serialize attaches nothing.
    assert_eq!(
        ToolFailure::from(DataDefault::AllSkipped("hidden".into())).data(),
        None
    );
}

/// A struct is one failure.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[error("rate limited, {remaining} left")]
#[failure(retry_after = "30s", data, code = "rate_limited")]
struct RateLimited {
    remaining: u32,
}

/// A unit struct with everything defaulted.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[error("the session expired")]
struct SessionExpired;

/// A tuple struct.
#[derive(Debug, thiserror::Error, ToolFailure)]
#[error("denied: {0}")]
#[failure(terminal, redact)]
struct Denied(String);

#[test]
fn structs() {
    let limited = ToolFailure::from(RateLimited { remaining: 0 });
    assert_eq!(limited.code(), "rate_limited");
    assert_eq!(limited.retry_after(), Some(Duration::from_secs(30)));
    assert_eq!(limited.data(), Some(&json!({"remaining": 0})));
    assert_eq!(limited.message(), "rate limited, 0 left");
    assert_eq!(RateLimited::FAILURE_CODES, ["rate_limited"]);

    let expired = ToolFailure::from(SessionExpired);
    assert_eq!(expired.code(), "session_expired");
    assert_eq!(expired.classification(), Classification::Ordinary);
    assert_eq!(SessionExpired::FAILURE_CODES, ["session_expired"]);

    let denied = ToolFailure::from(Denied("token abc".into()));
    assert!(denied.is_terminal());
    assert_eq!(denied.message(), REDACTED_MESSAGE);
    assert_eq!(denied.code(), "denied");
}

/// thiserror's `#[error(transparent)]` and `#[from]`: the message is the inner error's and
/// the chain is kept.
#[derive(Debug, thiserror::Error)]
#[error("config file missing")]
struct ConfigMissing(#[source] std::io::Error);

#[derive(Debug, thiserror::Error, ToolFailure)]
enum Wrapping {
    #[error(transparent)]
    #[failure(terminal)]
    Config(#[from] ConfigMissing),
    #[error("i/o failed")]
    Io(#[from] std::io::Error),
}

#[test]
fn thiserror_transparent_and_from_chains() {
    fn load() -> Result<(), Wrapping> {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file: app.toml");
        Err(ConfigMissing(io))?
    }
    let failure = ToolFailure::from(load().unwrap_err());
    assert_eq!(failure.message(), "config file missing");
    assert!(failure.is_terminal());
    assert_eq!(failure.code(), "config");
    let top = failure.source().expect("kept");
    assert!(top.downcast_ref::<Wrapping>().is_some());
    // transparent forwards `source()` to the inner error's.
    assert_eq!(
        top.source().map(ToString::to_string).as_deref(),
        Some("no such file: app.toml")
    );

    let failure = ToolFailure::from(Wrapping::from(std::io::Error::other("disk")));
    assert_eq!(failure.message(), "i/o failed");
    let mut chain = Vec::new();
    let mut next = failure.source();
    while let Some(error) = next {
        chain.push(error.to_string());
        next = error.source();
    }
    assert_eq!(chain, ["i/o failed", "disk"]);
}

/// `?` in a function returning `Result<_, ToolFailure>` converts through the derive.
#[test]
fn question_mark_converts() {
    fn inner() -> Result<(), Keys> {
        Err(Keys::Terminal)
    }
    fn outer() -> Result<(), ToolFailure> {
        inner()?;
        Ok(())
    }
    assert!(outer().unwrap_err().is_terminal());
}

/// Generics and lifetimes: the impls are generic too.
#[derive(Debug, ToolFailure)]
#[failure(terminal)]
enum Borrowed<'a, T: fmt::Display> {
    #[failure(data)]
    Missing {
        key: &'a str,
    },
    #[failure(ordinary, retry_after = "10ms", data)]
    Busy(T),
    Other(&'a T),
}

impl<T: fmt::Display> fmt::Display for Borrowed<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing { key } => write!(f, "missing {key}"),
            Self::Busy(t) => write!(f, "busy with {t}"),
            Self::Other(t) => write!(f, "busy with {t}"),
        }
    }
}

#[test]
fn generics_and_lifetimes() {
    let key = String::from("user:1");
    let missing: Borrowed<'_, u32> = Borrowed::Missing { key: &key };
    let failure = ToolFailure::from(missing);
    assert!(failure.is_terminal());
    assert_eq!(failure.data(), Some(&json!({"key": "user:1"})));
    assert_eq!(failure.message(), "missing user:1");

    let busy = ToolFailure::from(Borrowed::<'static, &str>::Busy("job 7"));
    assert!(!busy.is_terminal());
    assert_eq!(busy.retry_after(), Some(Duration::from_millis(10)));
    assert_eq!(busy.data(), Some(&json!("job 7")));

    let n = 3;
    assert_eq!(
        ToolFailure::from(Borrowed::Other(&n)).message(),
        "busy with 3"
    );
    assert_eq!(
        <Borrowed<'_, u8>>::FAILURE_CODES,
        ["missing", "busy", "other"]
    );
}

/// A generic error that is `Error`: its text and chain are kept as a snapshot, since the
/// generic impl cannot require `'static`.
#[derive(Debug, thiserror::Error, ToolFailure)]
enum Parsing<'a> {
    #[error("cannot parse `{input}`")]
    Invalid {
        input: &'a str,
        #[source]
        cause: std::num::ParseIntError,
    },
}

#[test]
fn borrowed_errors_keep_a_snapshot_of_their_chain() {
    let text = String::from("12x");
    let cause = text.parse::<u8>().unwrap_err();
    let failure = ToolFailure::from(Parsing::Invalid {
        input: &text,
        cause,
    });
    let source = failure.source().expect("a snapshot");
    assert_eq!(source.to_string(), "cannot parse `12x`");
    assert!(format!("{source:?}").starts_with("Invalid { input: \"12x\""));
    assert_eq!(
        source.source().map(ToString::to_string).as_deref(),
        Some("invalid digit found in string")
    );
}

/// A type that is only `Display` (not `Debug`, not `Error`) converts without a source.
#[derive(ToolFailure)]
enum DisplayOnly {
    Nope,
}

impl fmt::Display for DisplayOnly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("nope")
    }
}

/// `Debug + Display` but not `Error`, and not `Send`: a snapshot.
#[derive(Debug, ToolFailure)]
enum NotSend {
    Held(std::rc::Rc<u8>),
}

impl fmt::Display for NotSend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self::Held(n) = self;
        write!(f, "held {n}")
    }
}

#[test]
fn sources_by_what_the_type_implements() {
    let failure = ToolFailure::from(DisplayOnly::Nope);
    assert_eq!(failure.message(), "nope");
    assert!(failure.source().is_none());

    let failure = ToolFailure::from(NotSend::Held(std::rc::Rc::new(1)));
    let source = failure.source().expect("a snapshot");
    assert_eq!(source.to_string(), "held 1");
    assert_eq!(format!("{source:?}"), "Held(1)");
}

/// An empty enum converts (the impl is `match e {}`) and lists no codes.
#[derive(Debug, thiserror::Error, ToolFailure)]
enum Never {}

#[test]
fn empty_enum() {
    assert!(Never::FAILURE_CODES.is_empty());
    let _: fn(Never) -> ToolFailure = ToolFailure::from;
}

/// `crate = …` reaches the runtime through a re-export.
mod reexport {
    pub use tool_executor as core_again;
}

#[derive(Debug, thiserror::Error, tool_executor::ToolFailure)]
#[error("via a re-export")]
#[failure(crate = crate::reexport::core_again, terminal)]
struct ViaReexport;

#[test]
fn crate_path_override() {
    assert!(ToolFailure::from(ViaReexport).is_terminal());
}
