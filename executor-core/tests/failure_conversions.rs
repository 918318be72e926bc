//! The blanket conversions: text is an ordinary failure shown as is; an arbitrary error
//! (boxed, or `anyhow` behind its feature) is ordinary and redacted unless revealed.

use std::error::Error as _;

use tool_executor::failure::REDACTED_MESSAGE;
use tool_executor::prelude::*;
use tool_executor::{Classification, FailureKind};

#[test]
fn text_is_ordinary_and_shown() {
    for failure in [
        ToolFailure::from("disk full"),
        ToolFailure::from(String::from("disk full")),
    ] {
        assert_eq!(failure.classification(), Classification::Ordinary);
        assert_eq!(failure.kind(), FailureKind::Tool);
        assert_eq!(failure.code(), "tool_error");
        assert_eq!(failure.message(), "disk full");
        assert!(!failure.is_redacted());
    }
    // The seed sniffed "unknown tool" to reroute calls; text never does that here.
    assert!(!ToolFailure::from("unknown tool: read_file").is_unhandled());
}

#[test]
fn boxed_errors_are_ordinary_and_redacted_with_their_source() {
    let boxed: Box<dyn std::error::Error + Send + Sync> =
        Box::new(std::io::Error::other("at /home/ada/.ssh"));
    let failure = ToolFailure::from(boxed);
    assert_eq!(failure.classification(), Classification::Ordinary);
    assert_eq!(failure.message(), REDACTED_MESSAGE);
    assert_eq!(failure.withheld_message(), Some("at /home/ada/.ssh"));
    let source = failure.source().expect("kept");
    assert!(source.downcast_ref::<std::io::Error>().is_some());

    let shown = failure.reveal();
    assert_eq!(shown.message(), "at /home/ada/.ssh");
    assert!(!shown.is_redacted());
    assert!(shown.source().is_some());
}

#[test]
fn from_error_and_reveal() {
    let failure = ToolFailure::from_error(std::io::Error::other("quota"));
    assert_eq!(failure.message(), REDACTED_MESSAGE);
    assert!(
        failure
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .is_some()
    );
    assert_eq!(failure.reveal().message(), "quota");
    // Revealing a failure that was never redacted changes nothing.
    let plain = ToolFailure::terminal("x").with_code("x");
    assert_eq!(plain.clone().reveal(), plain);
}

/// A tool can return boxed errors with `?`.
#[tool]
fn parse(text: &str) -> Result<u32, Box<dyn std::error::Error + Send + Sync>> {
    Ok(text.parse::<u32>()?)
}

#[tokio::test]
async fn a_tool_returning_boxed_errors() {
    let tools = toolset![parse];
    assert_eq!(
        tools.execute("parse", &json!({"text": "42"})).await,
        Ok(json!(42))
    );
    let failure = tools
        .execute_with_context("parse", &json!({"text": "x"}), ToolContext::new())
        .await
        .unwrap_err();
    assert_eq!(failure.message(), REDACTED_MESSAGE);
    assert_eq!(
        failure.withheld_message(),
        Some("invalid digit found in string")
    );
    assert!(parse::spec().failure_codes.is_empty());
}

#[cfg(feature = "anyhow")]
mod anyhow_errors {
    use super::*;
    use anyhow::Context as _;

    #[test]
    fn anyhow_is_ordinary_redacted_and_keeps_the_chain() {
        let error = Err::<(), _>(std::io::Error::other("permission denied"))
            .context("reading /etc/app.toml")
            .unwrap_err();
        let failure = ToolFailure::from(error);
        assert_eq!(failure.classification(), Classification::Ordinary);
        assert_eq!(failure.message(), REDACTED_MESSAGE);
        assert_eq!(
            failure.withheld_message(),
            Some("reading /etc/app.toml: permission denied")
        );
        let source = failure.source().expect("kept");
        assert_eq!(source.to_string(), "reading /etc/app.toml");
        assert_eq!(
            source.source().map(ToString::to_string).as_deref(),
            Some("permission denied")
        );
        assert_eq!(
            failure.reveal().message(),
            "reading /etc/app.toml: permission denied"
        );
    }

    /// Reads the config.
    #[tool]
    fn config() -> anyhow::Result<String> {
        anyhow::bail!("no config at /srv/secret")
    }

    #[tokio::test]
    async fn a_tool_returning_anyhow() {
        let tools = toolset![config];
        assert_eq!(
            tools.execute("config", &json!({})).await,
            Err(REDACTED_MESSAGE.to_owned())
        );
        assert!(config::spec().failure_codes.is_empty());
    }
}
