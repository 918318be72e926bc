//! [`TransformError`]: why a transformed set could not be built.

use std::fmt;

/// A transform that cannot apply, found when the set is built: each names the tool (by its
/// name in the executor underneath) and, where one is at fault, the argument.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransformError {
    /// A transform names a tool the executor does not list.
    UnknownTool {
        /// The name given.
        tool: String,
    },
    /// A transform names an argument the tool's input schema does not list (or one an earlier
    /// transform already hid).
    UnknownArgument {
        /// The tool.
        tool: String,
        /// The argument.
        argument: String,
    },
    /// A required argument hidden without a value: no call could supply it.
    HiddenRequired {
        /// The tool.
        tool: String,
        /// The argument.
        argument: String,
    },
    /// An argument renamed to a name another argument of the tool already has.
    ArgumentCollision {
        /// The tool.
        tool: String,
        /// The argument renamed.
        argument: String,
        /// The name it was given.
        name: String,
    },
    /// The tool's input schema is not an object, so it has no arguments to transform.
    NoArguments {
        /// The tool.
        tool: String,
    },
    /// Two tools would be listed under one name after renames and prefixes.
    NameCollision {
        /// The name.
        name: String,
        /// The first tool listed under it.
        first: String,
        /// The second.
        second: String,
    },
    /// A new name a model could not call: tool names match `^[A-Za-z0-9_.-]{1,64}$`.
    InvalidName {
        /// The tool.
        tool: String,
        /// The name it would get.
        name: String,
    },
}

impl fmt::Display for TransformError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownTool { tool } => write!(f, "no tool `{tool}` to transform"),
            Self::UnknownArgument { tool, argument } => {
                write!(f, "tool `{tool}` has no argument `{argument}` to transform")
            }
            Self::HiddenRequired { tool, argument } => write!(
                f,
                "tool `{tool}`: argument `{argument}` is required, so it cannot be hidden \
                 without a value; fix it to a value, give it a default or bind it"
            ),
            Self::ArgumentCollision {
                tool,
                argument,
                name,
            } => write!(
                f,
                "tool `{tool}`: argument `{argument}` cannot be renamed to `{name}`, \
                 which another argument is named"
            ),
            Self::NoArguments { tool } => write!(
                f,
                "tool `{tool}`: its input schema is not an object, so it has no argument to transform"
            ),
            Self::NameCollision {
                name,
                first,
                second,
            } => write!(
                f,
                "tools `{first}` and `{second}` would both be listed as `{name}`"
            ),
            Self::InvalidName { tool, name } => write!(
                f,
                "tool `{tool}` cannot be named `{name}`: a tool name is 1 to 64 letters, \
                 digits, `_`, `-` or `.`"
            ),
        }
    }
}

impl std::error::Error for TransformError {}
