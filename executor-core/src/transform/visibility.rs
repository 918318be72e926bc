//! [`Visibility`]: which tools a set shows and serves, changed at run time, and per caller.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::{Arc, PoisonError, RwLock};

use tokio::sync::watch;

use crate::auth::Principal;
use crate::tool::{ListChanges, ToolContext, ToolSpec};

/// Decides per call whether the caller may see a tool: the spec as listed and the caller's
/// context.
pub type CallerRule = Arc<dyn Fn(&ToolSpec, &ToolContext) -> bool + Send + Sync>;

/// Which tools a [`Transformed`](super::Transformed) set shows and serves. A hidden tool is
/// absent from every listing (`specs`, MCP `tools/list`, the A2A card, provider definitions)
/// and a call of it fails as an unknown tool would.
///
/// A tool is visible when it is not disabled by name, none of its tags is disabled (unless it
/// was enabled by name), the caller's [`Principal`] (in its context, as `McpServer::with_oauth`
/// and `ToolAgent::with_oauth` put it) has the scope each of its [scoped
/// tags](Self::require_scope) needs, and the caller rule, if any, accepts the caller. Names are the names
/// the set lists (after renames and prefixes).
///
/// The handle is shared: clones change the same rules, and every change that alters them
/// reaches [`ListChanges`] subscribers, which MCP servers turn into
/// `notifications/tools/list_changed`. Per-caller rules read the [`ToolContext`] (its session,
/// ids); when a principal is carried in the context, a rule reads its scopes the same way.
///
/// ```
/// use tool_executor::prelude::*;
/// use tool_executor::transform::{Transform, Visibility};
///
/// /// Reads a file.
/// #[tool(tags = ["files"])]
/// fn read(path: String) -> String { path }
/// /// Deletes a file.
/// #[tool(tags = ["files", "admin"])]
/// fn delete(path: String) -> String { path }
///
/// let visibility = Visibility::new();
/// visibility.disable_tag("admin");
/// let tools = Transform::new(toolset![read, delete])
///     .visibility(visibility.clone())
///     .build()
///     .unwrap();
/// let names = |tools: &tool_executor::transform::Transformed<_>| {
///     tools.specs().iter().map(|s| s.name.clone()).collect::<Vec<_>>()
/// };
/// assert_eq!(names(&tools), ["read"]);
/// visibility.enable("delete");
/// assert_eq!(names(&tools), ["read", "delete"]);
/// ```
#[derive(Clone)]
pub struct Visibility {
    shared: Arc<Shared>,
}

struct Shared {
    rules: RwLock<Rules>,
    /// Bumped at every change; `ListChanges` wait on it.
    version: watch::Sender<u64>,
}

#[derive(Default)]
struct Rules {
    disabled: HashSet<String>,
    enabled: HashSet<String>,
    disabled_tags: HashSet<String>,
    /// Tag → the scope a caller's [`Principal`] needs to see the tools carrying it.
    scoped_tags: HashMap<String, String>,
    caller: Option<CallerRule>,
}

impl fmt::Debug for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.read();
        f.debug_struct("Visibility")
            .field("disabled", &rules.disabled)
            .field("enabled", &rules.enabled)
            .field("disabled_tags", &rules.disabled_tags)
            .field("scoped_tags", &rules.scoped_tags)
            .field("caller_rule", &rules.caller.is_some())
            .finish()
    }
}

impl Default for Visibility {
    fn default() -> Self {
        Self::new()
    }
}

impl Visibility {
    /// Every tool visible to every caller.
    #[must_use]
    pub fn new() -> Self {
        Self {
            shared: Arc::new(Shared {
                rules: RwLock::new(Rules::default()),
                version: watch::Sender::new(0),
            }),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Rules> {
        self.shared
            .rules
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Applies `change`; tells subscribers when it changed something.
    fn edit(&self, change: impl FnOnce(&mut Rules) -> bool) {
        let changed = {
            let mut rules = self
                .shared
                .rules
                .write()
                .unwrap_or_else(PoisonError::into_inner);
            change(&mut rules)
        };
        if changed {
            self.shared.version.send_modify(|v| *v += 1);
        }
    }

    /// Hides the tool listed as `name`.
    pub fn disable(&self, name: &str) {
        self.edit(|r| r.enabled.remove(name) | r.disabled.insert(name.to_owned()));
    }

    /// Shows the tool listed as `name`, even when one of its tags is disabled.
    pub fn enable(&self, name: &str) {
        self.edit(|r| r.disabled.remove(name) | r.enabled.insert(name.to_owned()));
    }

    /// Hides every tool tagged `tag` (except those enabled by name).
    pub fn disable_tag(&self, tag: &str) {
        self.edit(|r| r.disabled_tags.insert(tag.to_owned()));
    }

    /// Undoes [`disable_tag`](Self::disable_tag).
    pub fn enable_tag(&self, tag: &str) {
        self.edit(|r| r.disabled_tags.remove(tag));
    }

    /// Shows the tools tagged `tag` only to callers whose [`Principal`] has `scope` (a caller
    /// without one sees none of them); replaces an earlier scope for that tag.
    pub fn require_scope(&self, tag: &str, scope: &str) {
        self.edit(|r| {
            r.scoped_tags
                .insert(tag.to_owned(), scope.to_owned())
                .as_deref()
                != Some(scope)
        });
    }

    /// Shows a tool to a caller only when `rule` accepts the tool's spec and the caller's
    /// context; replaces an earlier rule. Listings without a caller (`specs`, provider
    /// definitions, the A2A card) ask it with an empty context.
    ///
    /// Changing what the rule answers (say, a session's role) does not notify anyone by
    /// itself; call [`notify`](Self::notify) after such a change.
    pub fn for_callers(
        &self,
        rule: impl Fn(&ToolSpec, &ToolContext) -> bool + Send + Sync + 'static,
    ) {
        let rule: CallerRule = Arc::new(rule);
        self.edit(|r| {
            r.caller = Some(rule);
            true
        });
    }

    /// Removes the caller rule.
    pub fn for_every_caller(&self) {
        self.edit(|r| r.caller.take().is_some());
    }

    /// Tells subscribers the listing changed (for changes the handle cannot see, such as what
    /// a caller rule answers).
    pub fn notify(&self) {
        self.shared.version.send_modify(|v| *v += 1);
    }

    /// A subscription to this handle's changes.
    #[must_use]
    pub fn changes(&self) -> ListChanges {
        ListChanges::new(self.shared.version.subscribe())
    }

    /// How many changes there have been; a listing cached at one version is current while the
    /// version stays the same.
    pub(crate) fn version(&self) -> u64 {
        *self.shared.version.borrow()
    }

    /// Whether `spec` is visible by the rules that do not depend on the caller.
    fn shown(rules: &Rules, spec: &ToolSpec) -> bool {
        if rules.disabled.contains(&spec.name) {
            return false;
        }
        rules.enabled.contains(&spec.name)
            || !spec.tags.iter().any(|t| rules.disabled_tags.contains(t))
    }

    /// Whether the caller `ctx` may see and call `spec`.
    #[must_use]
    pub fn allows(&self, spec: &ToolSpec, ctx: &ToolContext) -> bool {
        let rules = self.read();
        Self::shown(&rules, spec)
            && Self::scoped(&rules, spec, ctx)
            && rules.caller.as_ref().is_none_or(|rule| rule(spec, ctx))
    }

    /// Whether the caller has the scope each of `spec`'s scoped tags needs.
    fn scoped(rules: &Rules, spec: &ToolSpec, ctx: &ToolContext) -> bool {
        if rules.scoped_tags.is_empty() {
            return true;
        }
        let principal = ctx.extension::<Principal>();
        spec.tags
            .iter()
            .all(|tag| match rules.scoped_tags.get(tag) {
                None => true,
                Some(scope) => principal.is_some_and(|p| p.has_scope(scope)),
            })
    }

    /// Whether a caller rule is set (listings then depend on the caller).
    pub(crate) fn per_caller(&self) -> bool {
        let rules = self.read();
        rules.caller.is_some() || !rules.scoped_tags.is_empty()
    }
}
