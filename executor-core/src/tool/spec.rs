//! `ToolSpec`: what a client needs to know to call a tool.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::task::TaskSpec;

/// Behaviour hints, as MCP's tool annotations. They are hints: clients must not trust them for
/// security decisions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A human-readable title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(
        default,
        rename = "readOnlyHint",
        skip_serializing_if = "Option::is_none"
    )]
    pub read_only: Option<bool>,
    /// The tool may make destructive updates.
    #[serde(
        default,
        rename = "destructiveHint",
        skip_serializing_if = "Option::is_none"
    )]
    pub destructive: Option<bool>,
    /// Calling it twice with the same arguments has no further effect.
    #[serde(
        default,
        rename = "idempotentHint",
        skip_serializing_if = "Option::is_none"
    )]
    pub idempotent: Option<bool>,
    /// The tool talks to an open world (the web, other services).
    #[serde(
        default,
        rename = "openWorldHint",
        skip_serializing_if = "Option::is_none"
    )]
    pub open_world: Option<bool>,
}

/// A tool's name, description, schemas and hints.
///
/// Generated tools build theirs once per process and share it behind an `Arc`; listing specs
/// never rebuilds them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolSpec {
    /// Unique within an executor; matches `^[A-Za-z0-9_.-]{1,64}$` for generated tools.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// JSON Schema (2020-12) of the arguments object.
    pub input_schema: Value,
    /// JSON Schema (2020-12) of the result, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "is_default")]
    pub annotations: ToolAnnotations,
    /// The failure codes the tool can produce (beyond the runtime's own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failure_codes: Vec<String>,
    /// The tool's own time limit.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        rename = "timeoutMs",
        with = "crate::millis"
    )]
    pub timeout: Option<Duration>,
    /// Labels for selecting tools (`#[tool(tags = ["admin"])]`): visibility rules
    /// ([`Visibility`](crate::transform::Visibility)) enable, disable or scope tools by tag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The OAuth scopes a caller's token needs to see and call the tool, when a server checks
    /// tokens (`McpServer::with_oauth`); ignored by servers that do not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Icons a client may show for the tool (`#[tool(icon = "…")]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<super::content::Icon>,
    /// Whether calls may run as tasks, and their TTL and poll interval
    /// (`#[tool(task = "optional")]`; see [`crate::task`]). `None`: never a task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<TaskSpec>,
    /// Whether the tool may ask its user a question while it runs (`ctx.elicit`,
    /// `ctx.confirm`, `#[tool(confirm)]`, or a remote tool relaying its server's questions).
    /// `#[tool]` sets it for tools that take a `&ToolContext` or `confirm`; a provider loop
    /// ([`Definitions::answer`](crate::provider::Definitions::answer)) defers the calls of such
    /// tools when they ask, and runs the others without the machinery. Not on any wire.
    #[serde(skip)]
    pub asks_user: bool,
}

fn is_default(a: &ToolAnnotations) -> bool {
    *a == ToolAnnotations::default()
}

impl ToolSpec {
    /// A spec with no output schema, hints, failure codes or timeout.
    #[must_use]
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        input_schema: Value,
    ) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            input_schema,
            output_schema: None,
            annotations: ToolAnnotations::default(),
            failure_codes: Vec::new(),
            timeout: None,
            tags: Vec::new(),
            scopes: Vec::new(),
            icons: Vec::new(),
            task: None,
            asks_user: false,
        }
    }

    /// Says whether the tool may ask its user a question (see [`asks_user`](Self::asks_user)).
    #[must_use]
    pub const fn with_asks_user(mut self, asks: bool) -> Self {
        self.asks_user = asks;
        self
    }

    /// Sets the task settings (see [`task`](Self::task)).
    #[must_use]
    pub const fn with_task(mut self, task: TaskSpec) -> Self {
        self.task = Some(task);
        self
    }

    /// How calls of the tool relate to tasks: [`TaskSupport::Forbidden`](crate::task::TaskSupport::Forbidden)
    /// without task settings.
    #[must_use]
    pub fn task_support(&self) -> crate::task::TaskSupport {
        self.task.map(|t| t.support).unwrap_or_default()
    }

    /// Sets the output schema.
    #[must_use]
    pub fn with_output_schema(mut self, schema: Value) -> Self {
        self.output_schema = Some(schema);
        self
    }

    /// Sets the hints.
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = annotations;
        self
    }

    /// Sets the failure codes.
    #[must_use]
    pub fn with_failure_codes<I, S>(mut self, codes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.failure_codes = codes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets the icons.
    #[must_use]
    pub fn with_icons(mut self, icons: impl IntoIterator<Item = super::content::Icon>) -> Self {
        self.icons = icons.into_iter().collect();
        self
    }

    /// Sets the tags.
    #[must_use]
    pub fn with_tags<I, S>(mut self, tags: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.tags = tags.into_iter().map(Into::into).collect();
        self
    }

    /// Whether the tool carries `tag`.
    #[must_use]
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }

    /// Sets the tool's own time limit.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sets the OAuth scopes a caller needs (see [`scopes`](Self::scopes)).
    #[must_use]
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The first of the tool's scopes that `granted` lacks, if any.
    #[must_use]
    pub fn missing_scope<'a>(&'a self, granted: &crate::auth::Principal) -> Option<&'a str> {
        self.scopes
            .iter()
            .map(String::as_str)
            .find(|scope| !granted.has_scope(scope))
    }
}
