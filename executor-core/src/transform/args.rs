//! Argument transforms: what one tool's input schema becomes ([`ArgChanges::apply`]) and how a
//! call's arguments are mapped back to the arguments the tool takes ([`ArgChanges::map`]).

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::error::TransformError;
use crate::failure::ToolFailure;
use crate::tool::ToolContext;

/// Reads a bound argument's value from the call's context: the session, the ids, and (when
/// the identity work lands) the principal.
pub type Binder = Arc<dyn Fn(&ToolContext) -> Result<Value, ToolFailure> + Send + Sync>;

/// What happens to one argument of a tool.
#[derive(Clone)]
pub(crate) enum ArgRule {
    /// Left out of the schema; the tool's own default applies (the argument must be optional).
    Hide,
    /// Left out of the schema; every call gets this value.
    Fixed(Value),
    /// Stays in the schema, optional, with this default filled in when the caller leaves it out.
    Default(Value),
    /// Left out of the schema; every call gets what the binder reads from its context.
    Bind(Binder),
    /// Listed (and sent) under another name.
    Rename(String),
    /// A new description in the schema.
    Describe(String),
}

impl fmt::Debug for ArgRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Hide => f.write_str("Hide"),
            Self::Fixed(v) => f.debug_tuple("Fixed").field(v).finish(),
            Self::Default(v) => f.debug_tuple("Default").field(v).finish(),
            Self::Bind(_) => f.write_str("Bind(..)"),
            Self::Rename(n) => f.debug_tuple("Rename").field(n).finish(),
            Self::Describe(d) => f.debug_tuple("Describe").field(d).finish(),
        }
    }
}

/// One step of the call mapping, for an argument named `arg` in the tool's own schema.
#[derive(Clone)]
enum Step {
    /// Drop what the caller sent under `arg` (so the tool's default applies).
    Remove,
    /// Set `arg` to this value whatever the caller sent.
    Set(Value),
    /// Set `arg` to this value when the caller sent nothing.
    Fill(Value),
    /// Set `arg` from the context.
    Bind(Binder),
    /// Take the caller's `exposed` as `arg`; drop anything the caller sent as `arg`.
    From(String),
}

/// The argument transforms of one tool, resolved against its schema when the set is built.
#[derive(Clone, Default)]
pub(crate) struct ArgChanges {
    /// In the order the rules were given, each for a tool argument.
    steps: Vec<(String, Step)>,
}

impl ArgChanges {
    /// Applies `rules` (tool argument → rule) to `schema`, the input schema of `tool`, and
    /// returns the new schema with the call mapping; `None` when nothing changes the calls.
    pub(crate) fn apply(
        tool: &str,
        schema: &Value,
        rules: &[(String, ArgRule)],
    ) -> Result<(Value, Option<Self>), TransformError> {
        let mut schema = schema.clone();
        let Some(object) = schema.as_object_mut() else {
            return Err(TransformError::NoArguments { tool: tool.into() });
        };
        let mut properties = match object.remove("properties") {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let mut required: Vec<String> = match object.remove("required") {
            Some(Value::Array(names)) => names
                .into_iter()
                .filter_map(|n| n.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        let mut changes = Self::default();
        // The name each renamed argument is listed under now.
        let mut listed_as: Vec<(String, String)> = Vec::new();
        for (arg, rule) in rules {
            let key = listed_as
                .iter()
                .find(|(a, _)| a == arg)
                .map_or(arg.as_str(), |(_, n)| n.as_str())
                .to_owned();
            let Some(property) = properties.get_mut(&key) else {
                return Err(TransformError::UnknownArgument {
                    tool: tool.into(),
                    argument: arg.clone(),
                });
            };
            let is_required = required.contains(&key);
            let step = match rule {
                ArgRule::Describe(text) => {
                    if let Value::Object(p) = property {
                        p.insert("description".into(), Value::String(text.clone()));
                    }
                    None
                }
                ArgRule::Default(value) => {
                    if let Value::Object(p) = property {
                        p.insert("default".into(), value.clone());
                    }
                    required.retain(|r| *r != key);
                    Some(Step::Fill(value.clone()))
                }
                ArgRule::Hide if is_required => {
                    return Err(TransformError::HiddenRequired {
                        tool: tool.into(),
                        argument: arg.clone(),
                    });
                }
                ArgRule::Hide | ArgRule::Fixed(_) | ArgRule::Bind(_) => {
                    properties.remove(&key);
                    required.retain(|r| *r != key);
                    // A hidden argument is no longer read under its listed name.
                    changes
                        .steps
                        .retain(|(a, step)| a != arg || !matches!(step, Step::From(_)));
                    Some(match rule {
                        ArgRule::Fixed(value) => Step::Set(value.clone()),
                        ArgRule::Bind(binder) => Step::Bind(Arc::clone(binder)),
                        _ => Step::Remove,
                    })
                }
                ArgRule::Rename(new) => {
                    if properties.contains_key(new) {
                        return Err(TransformError::ArgumentCollision {
                            tool: tool.into(),
                            argument: arg.clone(),
                            name: new.clone(),
                        });
                    }
                    if let Some(p) = properties.remove(&key) {
                        properties.insert(new.clone(), p);
                    }
                    for r in &mut required {
                        if *r == key {
                            r.clone_from(new);
                        }
                    }
                    listed_as.retain(|(a, _)| a != arg);
                    listed_as.push((arg.clone(), new.clone()));
                    changes
                        .steps
                        .retain(|(a, step)| a != arg || !matches!(step, Step::From(_)));
                    Some(Step::From(new.clone()))
                }
            };
            if let Some(step) = step {
                changes.steps.push((arg.clone(), step));
            }
        }
        object.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            object.insert(
                "required".into(),
                Value::Array(required.into_iter().map(Value::String).collect()),
            );
        }
        let changes = (!changes.steps.is_empty()).then_some(changes);
        Ok((schema, changes))
    }

    /// The arguments the tool takes, from what the caller sent.
    pub(crate) fn map(&self, params: &Value, ctx: &ToolContext) -> Result<Value, ToolFailure> {
        let mut args = match params {
            Value::Object(map) => map.clone(),
            Value::Null => Map::new(),
            _ => {
                return Err(ToolFailure::invalid_arguments(
                    "the arguments must be an object",
                ));
            }
        };
        // Renames first: the caller's names read before anything is written, and nothing the
        // caller sent under a renamed argument's own name kept.
        let mut renamed = Vec::new();
        for (arg, step) in &self.steps {
            if let Step::From(exposed) = step {
                renamed.push((arg, args.remove(exposed)));
            }
        }
        for (arg, value) in renamed {
            args.remove(arg);
            if let Some(value) = value {
                args.insert(arg.clone(), value);
            }
        }
        for (arg, step) in &self.steps {
            match step {
                Step::Remove => {
                    args.remove(arg);
                }
                Step::Set(value) => {
                    args.insert(arg.clone(), value.clone());
                }
                Step::Fill(value) => {
                    args.entry(arg.clone()).or_insert_with(|| value.clone());
                }
                Step::Bind(binder) => {
                    args.insert(arg.clone(), binder(ctx)?);
                }
                Step::From(_) => {}
            }
        }
        Ok(Value::Object(args))
    }
}
