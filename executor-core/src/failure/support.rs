//! What `#[derive(ToolFailure)]` and `#[tool]` expand to call. Re-exported from `__private`; not
//! part of the public API.
//!
//! Two probes pick an implementation by *autoref specialization* (the method resolution order of
//! `(&&&probe).method()`): the first impl whose bounds hold on the concrete type wins, and a type
//! that meets none of the stronger bounds still compiles through the unbounded last tier.

use std::cell::Cell;
use std::error::Error as StdError;
use std::fmt;
use std::marker::PhantomData;

use serde::Serialize;
use serde_json::Value;

use super::{FailureCodes, ToolFailure};

// ---------------------------------------------------------------------------------------------
// Failure codes in a tool's spec.
// Input (in `#[tool]`'s spec): `(&CodesProbe::<WeatherError>::new()).failure_codes()`
// Output: `WeatherError::FAILURE_CODES` when it derives `ToolFailure`, `&[]` for `String`,
// `ToolFailure`, `Box<dyn Error>` or a hand-written `From` impl.

/// Names an error type for [`DerivedCodes`] / [`NoCodes`].
pub struct CodesProbe<E: ?Sized>(PhantomData<fn() -> PhantomData<E>>);

impl<E: ?Sized> CodesProbe<E> {
    /// The probe for `E`.
    #[must_use]
    #[allow(clippy::new_without_default)] // only generated code builds it
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

/// Tier 1: the error type derives `ToolFailure` and lists its codes.
pub trait DerivedCodes {
    /// The codes.
    fn failure_codes(&self) -> &'static [&'static str];
}

impl<E: FailureCodes + ?Sized> DerivedCodes for CodesProbe<E> {
    fn failure_codes(&self) -> &'static [&'static str] {
        E::FAILURE_CODES
    }
}

/// Tier 2: any other error type lists none.
pub trait NoCodes {
    /// No codes.
    fn failure_codes(&self) -> &'static [&'static str];
}

impl<E: ?Sized> NoCodes for &CodesProbe<E> {
    fn failure_codes(&self) -> &'static [&'static str] {
        &[]
    }
}

// ---------------------------------------------------------------------------------------------
// Keeping the original error as the failure's `source()`.
// Input (in a derived `From` impl): `(&&&&SourceProbe::new(error)).attach_source(failure)`
// Output, by the first bound `E` meets:
//   1. `Error + Send + Sync + 'static`: the error itself (downcastable);
//   2. `Error`: a snapshot of its `Display`/`Debug` and of every `source()` below it;
//   3. `Debug + Display`: a snapshot of its `Display` and `Debug`;
//   4. anything else: no source.
// Generic error types skip tier 1 (`snapshot_source`): trait selection ignores lifetimes, so
// tier 1 would be picked for `E<'a>` and then fail the `'static` check.

/// Holds the error until one tier takes it.
pub struct SourceProbe<E>(Cell<Option<E>>);

impl<E> SourceProbe<E> {
    /// The probe for `error`.
    pub const fn new(error: E) -> Self {
        Self(Cell::new(Some(error)))
    }
}

/// Tier 1 of `attach_source`.
pub trait AttachOwned {
    /// Keeps the error itself.
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure;
}

impl<E: StdError + Send + Sync + 'static> AttachOwned for &&&SourceProbe<E> {
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure {
        match self.0.take() {
            Some(error) => failure.with_source(error),
            None => failure,
        }
    }
}

/// Tier 2 of `attach_source`, tier 1 of `snapshot_source`.
pub trait AttachError {
    /// Keeps a snapshot of the error and its source chain.
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure;
    /// Same as `attach_source`.
    fn snapshot_source(&self, failure: ToolFailure) -> ToolFailure {
        self.attach_source(failure)
    }
}

impl<E: StdError> AttachError for &&SourceProbe<E> {
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure {
        match self.0.take() {
            Some(error) => failure.with_source(Snapshot::of_error(&error)),
            None => failure,
        }
    }
}

/// Tier 3 of `attach_source`, tier 2 of `snapshot_source`.
pub trait AttachDebug {
    /// Keeps a snapshot of the error's `Display` and `Debug`.
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure;
    /// Same as `attach_source`.
    fn snapshot_source(&self, failure: ToolFailure) -> ToolFailure {
        self.attach_source(failure)
    }
}

impl<E: fmt::Debug + fmt::Display> AttachDebug for &SourceProbe<E> {
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure {
        match self.0.take() {
            Some(error) => failure.with_source(Snapshot {
                display: error.to_string(),
                debug: format!("{error:?}"),
                source: None,
            }),
            None => failure,
        }
    }
}

/// The last tier: no source.
pub trait AttachNone {
    /// Returns the failure unchanged.
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure;
    /// Same as `attach_source`.
    fn snapshot_source(&self, failure: ToolFailure) -> ToolFailure {
        self.attach_source(failure)
    }
}

impl<E> AttachNone for SourceProbe<E> {
    fn attach_source(&self, failure: ToolFailure) -> ToolFailure {
        failure
    }
}

/// An error's text, taken when the error itself cannot be kept (it borrows, or is not `Send`).
/// `Display` and `Debug` print what the original printed; `source()` continues the chain.
#[derive(Clone)]
pub struct Snapshot {
    display: String,
    debug: String,
    source: Option<Box<Snapshot>>,
}

impl Snapshot {
    /// How deep a source chain is copied; real chains are a handful of links.
    const MAX_DEPTH: usize = 32;

    fn of_error(error: &dyn StdError) -> Self {
        let mut links = Vec::new();
        let mut next = Some(error);
        while let Some(link) = next {
            if links.len() == Self::MAX_DEPTH {
                break;
            }
            links.push((link.to_string(), format!("{link:?}")));
            next = link.source();
        }
        let mut chain: Option<Box<Self>> = None;
        while let Some((display, debug)) = links.pop() {
            chain = Some(Box::new(Self {
                display,
                debug,
                source: chain,
            }));
        }
        chain.map_or_else(
            || Self {
                display: String::new(),
                debug: String::new(),
                source: None,
            },
            |b| *b,
        )
    }
}

impl fmt::Display for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display)
    }
}

impl fmt::Debug for Snapshot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.debug)
    }
}

impl StdError for Snapshot {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source
            .as_deref()
            .map(|s| s as &(dyn StdError + 'static))
    }
}

// ---------------------------------------------------------------------------------------------
// The message and `#[failure(data)]`, behind traits whose diagnostics say what to do.
// Input:  `failure_message::<WeatherError>(&error)`, `data_value::<String>(field)`
// Output: the `Display` text; the field as JSON.

/// The failure's message: the type's `Display`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no `Display`, which #[derive(ToolFailure)] uses as the failure's message",
    label = "`{Self}` needs `Display`",
    note = "derive `thiserror::Error` and give each variant an `#[error(\"…\")]`, or implement `std::fmt::Display`"
)]
pub trait FailureMessage {
    /// The text models and peers read.
    fn failure_message(&self) -> String;
}

impl<T: fmt::Display + ?Sized> FailureMessage for T {
    fn failure_message(&self) -> String {
        self.to_string()
    }
}

/// `E`'s message.
pub fn failure_message<E: FailureMessage + ?Sized>(error: &E) -> String {
    error.failure_message()
}

/// A field `#[failure(data)]` serializes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot go into the failure's `data`: it does not implement `serde::Serialize`",
    label = "not `serde::Serialize`",
    note = "derive `serde::Serialize` for it, or leave the field out of `data` with `#[failure(skip)]`"
)]
pub trait FailureData {
    /// The field as JSON.
    fn failure_data(&self) -> Value;
}

impl<T: Serialize + ?Sized> FailureData for T {
    /// A field whose `Serialize` impl fails (a map with non-string keys, say) becomes `null`
    /// rather than losing the failure.
    fn failure_data(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// One field of a `data` variant as JSON.
pub fn data_value<T: FailureData + ?Sized>(value: &T) -> Value {
    value.failure_data()
}
