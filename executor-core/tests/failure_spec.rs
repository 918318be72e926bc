//! A `#[tool]` returning `Result<T, E>` lists `E`'s failure codes in its spec when `E` derives
//! `ToolFailure`, and none (while still compiling) for any other error type.

use serde_json::Value;
use tool_executor::prelude::*;

#[derive(Debug, thiserror::Error, ToolFailure)]
enum WeatherError {
    #[error("unknown city `{0}`")]
    #[failure(terminal, data)]
    UnknownCity(String),
    #[error("weather service unavailable")]
    #[failure(retry_after = "200ms")]
    Unavailable,
    #[error("quota exhausted")]
    #[failure(code = "quota")]
    QuotaExhausted,
}

/// Looks up the weather.
#[tool]
async fn weather(city: &str) -> Result<String, WeatherError> {
    tokio::task::yield_now().await;
    match city {
        "Paris" => Ok("sunny".into()),
        "Busy" => Err(WeatherError::Unavailable),
        other => Err(WeatherError::UnknownCity(other.into())),
    }
}

/// Plain-text errors.
#[tool]
fn stringly(fail: bool) -> Result<u8, String> {
    if fail { Err("no".into()) } else { Ok(1) }
}

/// Already a failure.
#[tool]
fn typed(fail: bool) -> Result<u8, ToolFailure> {
    if fail {
        Err(ToolFailure::terminal("no"))
    } else {
        Ok(1)
    }
}

/// An error with a hand-written conversion.
#[derive(Debug)]
struct Manual;

impl From<Manual> for ToolFailure {
    fn from(_: Manual) -> Self {
        Self::ordinary("manual").with_code("manual")
    }
}

/// Hand-written conversions list no codes: nothing declares them.
#[tool]
fn manual() -> Result<(), Manual> {
    Err(Manual)
}

/// A borrowed, generic error type named with a lifetime in the return type.
#[derive(Debug, ToolFailure)]
enum Lookup<'a> {
    #[failure(code = "missing_key")]
    Missing(&'a str),
}

impl std::fmt::Display for Lookup<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self::Missing(key) = self;
        write!(f, "missing {key}")
    }
}

/// Returns an error that borrows nothing from the request.
#[tool]
fn lookup() -> Result<u8, Lookup<'static>> {
    Err(Lookup::Missing("k"))
}

#[derive(Default, Clone)]
struct Service;

#[tools]
impl Service {
    /// A method tool.
    #[tool]
    async fn forecast(&self, days: u8) -> Result<u8, WeatherError> {
        tokio::task::yield_now().await;
        if days > 7 {
            Err(WeatherError::QuotaExhausted)
        } else {
            Ok(days)
        }
    }
}

/// A generic service: the probe runs inside a generic impl.
#[derive(Default, Clone)]
struct Generic<T>(std::marker::PhantomData<fn() -> T>);

/// A derived error generic over the service's parameter.
#[derive(Debug, ToolFailure)]
enum ParamError<T: std::fmt::Display> {
    #[failure(code = "bad_param")]
    Bad(T),
}

impl<T: std::fmt::Display> std::fmt::Display for ParamError<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Self::Bad(t) = self;
        write!(f, "bad {t}")
    }
}

#[tools]
#[allow(clippy::unused_self)] // `#[tools]` methods take `&self`; these need no state
impl<T: std::fmt::Display + Default + Send + Sync + 'static> Generic<T> {
    /// The error type is concrete.
    #[tool]
    fn concrete(&self) -> Result<u8, WeatherError> {
        Err(WeatherError::Unavailable)
    }

    /// The error type names `T`, which is `Display` here, so its codes are visible.
    #[tool]
    fn generic(&self) -> Result<u8, ParamError<T>> {
        Err(ParamError::Bad(T::default()))
    }
}

#[test]
fn generic_impls_list_codes_too() {
    let service = Generic::<u32>::default();
    let specs = service.specs();
    assert_eq!(
        specs[0].failure_codes,
        ["unknown_city", "unavailable", "quota"]
    );
    assert_eq!(specs[1].failure_codes, ["bad_param"]);
}

#[test]
fn derived_errors_list_their_codes() {
    assert_eq!(
        weather::spec().failure_codes,
        ["unknown_city", "unavailable", "quota"]
    );
    assert_eq!(lookup::spec().failure_codes, ["missing_key"]);
    let service = Service;
    let specs = service.specs();
    assert_eq!(
        specs[0].failure_codes,
        ["unknown_city", "unavailable", "quota"]
    );
}

#[test]
fn other_errors_list_none() {
    assert!(stringly::spec().failure_codes.is_empty());
    assert!(typed::spec().failure_codes.is_empty());
    assert!(manual::spec().failure_codes.is_empty());
}

#[test]
fn codes_are_in_the_serialized_spec() {
    let spec = serde_json::to_value(&**weather::spec()).unwrap();
    assert_eq!(
        spec["failureCodes"],
        serde_json::json!(["unknown_city", "unavailable", "quota"])
    );
    let spec = serde_json::to_value(&**stringly::spec()).unwrap();
    assert_eq!(spec.get("failureCodes"), None::<&Value>);
}

#[tokio::test]
async fn a_call_fails_with_one_of_the_listed_codes() {
    let tools = toolset![weather, stringly, manual];
    let ctx = || ToolContext::new();
    let failure = tools
        .execute_with_context("weather", &json!({"city": "Atlantis"}), ctx())
        .await
        .unwrap_err();
    assert!(
        weather::spec()
            .failure_codes
            .iter()
            .any(|c| c == failure.code())
    );
    assert!(failure.is_terminal());
    assert_eq!(failure.data(), Some(&json!("Atlantis")));
    assert_eq!(failure.message(), "unknown city `Atlantis`");

    let failure = tools
        .execute_with_context("weather", &json!({"city": "Busy"}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "unavailable");
    assert_eq!(
        failure.retry_after(),
        Some(std::time::Duration::from_millis(200))
    );

    assert_eq!(
        tools.execute("weather", &json!({"city": "Atlantis"})).await,
        Err("unknown city `Atlantis`".to_owned())
    );
    let failure = tools
        .execute_with_context("manual", &json!({}), ctx())
        .await
        .unwrap_err();
    assert_eq!(failure.code(), "manual");
}
