//! [`Transform`]: the builder of a [`Transformed`] set, where every transform is checked.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;

use super::args::{ArgChanges, ArgRule};
use super::error::TransformError;
use super::hook::{AfterHook, BeforeHook};
use super::set::{Entry, Shared, Transformed};
use super::visibility::Visibility;
use crate::failure::ToolFailure;
use crate::tool::{ToolAnnotations, ToolContext, ToolExecutor, ToolSet, ToolSpec};

/// An edit of a tool's hints.
type AnnotationEdit = Box<dyn FnOnce(&mut ToolAnnotations) + Send>;

/// What changes about one tool.
#[derive(Default)]
struct ToolChange {
    name: Option<String>,
    description: Option<String>,
    title: Option<String>,
    annotations: Vec<AnnotationEdit>,
    args: Vec<(String, ArgRule)>,
}

/// Builds a [`Transformed`] set over any executor: renames, a namespace prefix, new
/// descriptions, titles and hints, argument transforms, [`Visibility`] and hooks. Tools and
/// arguments are named as the executor underneath names them; [`build`](Self::build) checks
/// every transform against its specs.
///
/// A set nobody transforms is not wrapped: keep the executor itself, which calls as fast as
/// before (BENCHMARKS.md §16).
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::transform::Transform;
///
/// /// Reads a file of a user.
/// #[tool]
/// fn read(user: String, path: String, #[arg(default)] raw: bool) -> String {
///     format!("{user}:{path}:{raw}")
/// }
///
/// # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
/// let tools = Transform::new(toolset![read])
///     .prefix("files_")
///     .rename("read", "cat")
///     .describe("read", "Prints a file.")
///     .rename_arg("read", "path", "file")
///     .fix_arg("read", "raw", json!(true))
///     .bind_arg("read", "user", |ctx| Ok(json!(ctx.session_id().unwrap_or("anonymous"))))
///     .build()
///     .unwrap();
/// let spec = &tools.specs()[0];
/// assert_eq!(spec.name, "files_cat");
/// assert_eq!(spec.input_schema["required"], json!(["file"]));
/// let ctx = ToolContext::new().with_session_id("ada");
/// let out = tools.execute_with_context("files_cat", &json!({"file": "a.txt"}), ctx).await;
/// assert_eq!(out.unwrap().output, json!("ada:a.txt:true"));
/// # });
/// ```
#[must_use]
pub struct Transform<E> {
    executor: E,
    prefix: Option<String>,
    changes: Vec<(String, ToolChange)>,
    visibility: Option<Visibility>,
    before: Vec<Arc<dyn BeforeHook>>,
    after: Vec<Arc<dyn AfterHook>>,
}

impl<E: ToolExecutor + 'static> Transform<E> {
    /// Transforms `executor`'s tools (a [`ToolSet`](crate::ToolSet), a `#[tools]` service, an
    /// `McpToolExecutor` …).
    pub fn new(executor: E) -> Self {
        Self {
            executor,
            prefix: None,
            changes: Vec::new(),
            visibility: None,
            before: Vec::new(),
            after: Vec::new(),
        }
    }

    fn change(mut self, tool: &str, edit: impl FnOnce(&mut ToolChange)) -> Self {
        if let Some((_, change)) = self.changes.iter_mut().find(|(t, _)| t == tool) {
            edit(change);
        } else {
            let mut change = ToolChange::default();
            edit(&mut change);
            self.changes.push((tool.to_owned(), change));
        }
        self
    }

    fn arg(self, tool: &str, arg: &str, rule: ArgRule) -> Self {
        self.change(tool, |c| c.args.push((arg.to_owned(), rule)))
    }

    /// Lists every tool as `prefix` + its name (after [`rename`](Self::rename)): a namespace.
    pub fn prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = Some(prefix.into());
        self
    }

    /// Lists `tool` as `name`; calls of `name` run `tool`, and `tool`'s old name is no longer
    /// served here.
    pub fn rename(self, tool: &str, name: impl Into<String>) -> Self {
        let name = name.into();
        self.change(tool, |c| c.name = Some(name))
    }

    /// Gives `tool` a new description (the text a model chooses tools by).
    pub fn describe(self, tool: &str, description: impl Into<String>) -> Self {
        let description = description.into();
        self.change(tool, |c| c.description = Some(description))
    }

    /// Gives `tool` a new title.
    pub fn title(self, tool: &str, title: impl Into<String>) -> Self {
        let title = title.into();
        self.change(tool, |c| c.title = Some(title))
    }

    /// Changes `tool`'s hints (`read_only`, `destructive` …).
    pub fn annotate(
        self,
        tool: &str,
        edit: impl FnOnce(&mut ToolAnnotations) + Send + 'static,
    ) -> Self {
        self.change(tool, |c| c.annotations.push(Box::new(edit)))
    }

    /// Hides `tool`'s optional argument `arg`: the tool's own default applies. Hiding a
    /// required argument this way is an error when the set is built.
    pub fn hide_arg(self, tool: &str, arg: &str) -> Self {
        self.arg(tool, arg, ArgRule::Hide)
    }

    /// Hides `arg`; every call gets `value` (what the caller sends under that name is
    /// replaced).
    pub fn fix_arg(self, tool: &str, arg: &str, value: Value) -> Self {
        self.arg(tool, arg, ArgRule::Fixed(value))
    }

    /// Makes `arg` optional with default `value`, listed in the schema and filled in when
    /// the caller leaves it out.
    pub fn default_arg(self, tool: &str, arg: &str, value: Value) -> Self {
        self.arg(tool, arg, ArgRule::Default(value))
    }

    /// Hides `arg`; every call gets what `bind` reads from the call's context (a session, an
    /// id, and once the context carries it, the principal). What the caller sends under that
    /// name is replaced; an `Err` refuses the call.
    pub fn bind_arg(
        self,
        tool: &str,
        arg: &str,
        bind: impl Fn(&ToolContext) -> Result<Value, ToolFailure> + Send + Sync + 'static,
    ) -> Self {
        self.arg(tool, arg, ArgRule::Bind(Arc::new(bind)))
    }

    /// Lists `arg` as `name`; the caller's `name` reaches the tool as `arg`.
    pub fn rename_arg(self, tool: &str, arg: &str, name: impl Into<String>) -> Self {
        self.arg(tool, arg, ArgRule::Rename(name.into()))
    }

    /// Gives `arg` a new description in the schema.
    pub fn describe_arg(self, tool: &str, arg: &str, description: impl Into<String>) -> Self {
        self.arg(tool, arg, ArgRule::Describe(description.into()))
    }

    /// Shows and serves tools by `visibility`'s rules (a shared handle: change it later and
    /// the set, and its MCP clients, follow).
    pub fn visibility(mut self, visibility: Visibility) -> Self {
        self.visibility = Some(visibility);
        self
    }

    /// Adds a hook run before each call, after those added before it.
    pub fn before(mut self, hook: impl BeforeHook) -> Self {
        self.before.push(Arc::new(hook));
        self
    }

    /// Adds a hook run after each call, after those added before it.
    pub fn after(mut self, hook: impl AfterHook) -> Self {
        self.after.push(Arc::new(hook));
        self
    }

    /// The set.
    ///
    /// # Errors
    /// [`TransformError`] naming the tool (and argument) of the first transform that cannot
    /// apply: an unknown tool or argument, a required argument hidden without a value, a name
    /// collision, a name a model cannot call.
    pub fn build(mut self) -> Result<Transformed<E>, TransformError> {
        let listed = self.executor.specs();
        for (tool, _) in &self.changes {
            if !listed.iter().any(|s| s.name == *tool) {
                return Err(TransformError::UnknownTool { tool: tool.clone() });
            }
        }
        // Over a `ToolSet`, a `#[tool]` function is called directly, without the set's own
        // lookup of a name this set already looked up (BENCHMARKS.md §16).
        let set = (&self.executor as &dyn Any).downcast_ref::<ToolSet>();
        let mut entries: Vec<(String, Entry)> = Vec::with_capacity(listed.len());
        let mut owners: HashMap<String, String> = HashMap::new();
        for spec in listed.iter() {
            let change = self
                .changes
                .iter()
                .position(|(t, _)| *t == spec.name)
                .map(|i| self.changes.swap_remove(i).1);
            let (exposed, args) = match change {
                None if self.prefix.is_none() => (Arc::clone(spec), None),
                change => {
                    let (exposed, args) =
                        apply(spec, change.unwrap_or_default(), self.prefix.as_deref())?;
                    (Arc::new(exposed), args)
                }
            };
            if let Some(first) = owners.insert(exposed.name.clone(), spec.name.clone()) {
                return Err(TransformError::NameCollision {
                    name: exposed.name.clone(),
                    first,
                    second: spec.name.clone(),
                });
            }
            entries.push((
                exposed.name.clone(),
                Entry {
                    direct: set.and_then(|set| set.fn_tool(&spec.name)),
                    inner_name: spec.name.clone().into_boxed_str(),
                    spec: exposed,
                    args: args.map(Arc::new),
                },
            ));
        }
        let passthrough = listed.is_empty();
        Ok(Transformed::from_shared(Shared::new(
            self.executor,
            entries,
            self.visibility,
            self.before,
            self.after,
            passthrough,
        )))
    }
}

/// `spec` as `change` and `prefix` make it, and its call mapping.
fn apply(
    spec: &ToolSpec,
    change: ToolChange,
    prefix: Option<&str>,
) -> Result<(ToolSpec, Option<ArgChanges>), TransformError> {
    let mut exposed = spec.clone();
    let mut name = change.name.unwrap_or_else(|| spec.name.clone());
    if let Some(prefix) = prefix {
        name.insert_str(0, prefix);
    }
    if !valid_name(&name) {
        return Err(TransformError::InvalidName {
            tool: spec.name.clone(),
            name,
        });
    }
    exposed.name = name;
    if let Some(description) = change.description {
        exposed.description = description;
    }
    if let Some(title) = change.title {
        exposed.annotations.title = Some(title);
    }
    for edit in change.annotations {
        edit(&mut exposed.annotations);
    }
    let mut args = None;
    if !change.args.is_empty() {
        let (schema, changes) = ArgChanges::apply(&spec.name, &spec.input_schema, &change.args)?;
        exposed.input_schema = schema;
        args = changes;
    }
    Ok((exposed, args))
}

/// `^[A-Za-z0-9_.-]{1,64}$`, the names every provider accepts.
fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}
