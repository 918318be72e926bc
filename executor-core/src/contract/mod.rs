//! The contract lock: what a set of tools promises to the models and clients that use it,
//! written to a file you check in (`tools.lock.json`), and every later difference classified
//! before anyone meets it.
//!
//! [`Contract`] holds, per tool, the input and output schemas, every provider's rendering
//! (OpenAI Chat and Responses, Anthropic and its strict mode, Gemini both ways, MCP), the
//! hints, the failure codes, the description and title and the time limit. [`Contract::diff`]
//! compares a lock with the set as it is now and classifies each change
//! ([`ChangeClass`]): **breaking**, **additive**, **routing** (text a model chooses tools
//! by), **cosmetic** or **dialect-only** (one provider's rendering changed beyond what the
//! canonical schema says); each [`Change`] names its tool and JSON pointer.
//!
//! In a test, [`assert_contract!`](crate::assert_contract) compares the set with the lock
//! and fails with the classified list; `UPDATE_CONTRACT=1 cargo test` writes the lock instead
//! (review its diff like code):
//!
//! ```no_run
//! use tool_executor::prelude::*;
//!
//! /// Adds two integers.
//! #[tool(read_only)]
//! fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! #[test]
//! fn the_tools_keep_their_contract() {
//!     tool_executor::assert_contract!(toolset![add], "tools.lock.json");
//! }
//! ```
//!
//! [`check`] is the same comparison as a function, for a command in CI.

mod change;
mod dialect;
mod diff;
mod lock;
mod schema;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub use change::{Change, ChangeClass, ContractDiff};
pub use lock::{Contract, FORMAT, LockError};

/// The environment variable that makes [`assert_contract!`](crate::assert_contract) write
/// the lock instead of comparing with it: `UPDATE_CONTRACT=1`.
pub const UPDATE_VAR: &str = "UPDATE_CONTRACT";

/// Whether `UPDATE_CONTRACT=1` is set.
#[must_use]
pub fn update_requested() -> bool {
    std::env::var_os(UPDATE_VAR).is_some_and(|v| v == "1")
}

/// What [`check`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// The set matches the lock.
    Unchanged,
    /// There was no lock (or none that read), and one was written (asked for with `update`).
    Created,
    /// The lock was rewritten (asked for with `update`): the changes it accepted.
    Updated(ContractDiff),
}

/// Why [`check`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckError {
    /// There is no lock at the path.
    Missing(PathBuf),
    /// The lock could not be read or written.
    Io(PathBuf, io::Error),
    /// The file is not a lock.
    Unreadable(PathBuf, LockError),
    /// The set differs from the lock.
    Changed(PathBuf, ContractDiff),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Missing(path) => write!(
                f,
                "no tool contract lock at {}; run with {UPDATE_VAR}=1 to write it",
                path.display()
            ),
            Self::Io(path, e) => write!(f, "{}: {e}", path.display()),
            Self::Unreadable(path, e) => write!(f, "{}: {e}", path.display()),
            Self::Changed(path, diff) => write!(
                f,
                "the tools differ from their contract lock {}: {diff}review each change; run \
                 with {UPDATE_VAR}=1 to accept them into the lock",
                path.display()
            ),
        }
    }
}

impl std::error::Error for CheckError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io(_, e) => Some(e),
            Self::Unreadable(_, e) => Some(e),
            _ => None,
        }
    }
}

/// Compares `contract` with the lock at `path`; with `update`, writes the lock when it
/// differs, is missing (creating its folder) or no longer reads, instead of failing.
///
/// # Errors
/// [`CheckError`]: no lock, an unreadable one, or (without `update`) any change, of any
/// class: the lock must say what the set is, so even a cosmetic change is accepted by
/// rewriting it.
pub fn check(contract: &Contract, path: &Path, update: bool) -> Result<Checked, CheckError> {
    let lock = match std::fs::read_to_string(path) {
        Ok(text) => match Contract::from_json(&text) {
            Ok(lock) => Some(lock),
            // An update replaces a lock that no longer reads (a merge left conflict markers).
            Err(_) if update => None,
            Err(e) => return Err(CheckError::Unreadable(path.into(), e)),
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(CheckError::Io(path.into(), e)),
    };
    let diff = lock.as_ref().map(|lock| lock.diff(contract));
    match (diff, update) {
        (Some(diff), _) if diff.is_empty() => Ok(Checked::Unchanged),
        (None, false) => Err(CheckError::Missing(path.into())),
        (Some(diff), false) => Err(CheckError::Changed(path.into(), diff)),
        (diff, true) => {
            if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(folder).map_err(|e| CheckError::Io(path.into(), e))?;
            }
            std::fs::write(path, contract.to_json()).map_err(|e| CheckError::Io(path.into(), e))?;
            Ok(diff.map_or(Checked::Created, Checked::Updated))
        }
    }
}

/// What [`assert_contract!`](crate::assert_contract) calls: [`check`] with
/// [`update_requested`], panicking with the classified changes.
///
/// # Panics
/// When the check fails.
#[track_caller]
pub fn assert_lock(contract: &Contract, path: &Path) {
    match check(contract, path, update_requested()) {
        Ok(Checked::Unchanged) => {}
        Ok(Checked::Created) => eprintln!("wrote the tool contract lock {}", path.display()),
        Ok(Checked::Updated(diff)) => {
            eprintln!("updated the tool contract lock {}: {diff}", path.display());
        }
        Err(e) => panic!("{e}"),
    }
}

/// Fails the test when a set of tools differs from its contract lock, listing each change
/// with its class and JSON pointer; `UPDATE_CONTRACT=1` writes the lock instead.
///
/// `assert_contract!(tools, "tools.lock.json")`: `tools` is any executor (a `ToolSet`, a
/// `#[tools]` type, a `Runtime`), and a relative path is read from the calling crate's
/// folder (`CARGO_MANIFEST_DIR`). See [`contract`](crate::contract).
#[macro_export]
macro_rules! assert_contract {
    ($tools:expr, $path:expr $(,)?) => {
        $crate::contract::assert_lock(
            &$crate::contract::Contract::of(&$tools),
            &::std::path::Path::new(::core::env!("CARGO_MANIFEST_DIR")).join($path),
        )
    };
}
