//! What a comparison reports: a [`Change`], its [`ChangeClass`], the [`ContractDiff`] of a
//! whole set, and the rule that turns a schema finding into a class.

use std::collections::HashSet;
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use super::schema::{Detail, Finding, Rule};

/// How a change affects those who use the tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeClass {
    /// A model or client that worked before may fail now.
    Breaking,
    /// Something new that nothing before could rely on.
    Additive,
    /// Text a model reads to choose a tool and fill its arguments.
    Routing,
    /// No change of meaning.
    Cosmetic,
    /// One provider's rendering changed beyond what the canonical schema says.
    DialectOnly,
}

impl ChangeClass {
    /// `breaking`, `additive`, `routing`, `cosmetic`, `dialect-only`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Breaking => "breaking",
            Self::Additive => "additive",
            Self::Routing => "routing",
            Self::Cosmetic => "cosmetic",
            Self::DialectOnly => "dialect-only",
        }
    }
}

impl fmt::Display for ChangeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One difference between a lock and a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    /// How it affects users.
    pub class: ChangeClass,
    /// The tool's name (the lock's name for a removed or renamed tool).
    pub tool: String,
    /// JSON pointer into the tool's entry in the lock (`/inputSchema/properties/limit`,
    /// `/dialects/openai/function/strict`); empty for the whole tool.
    pub pointer: String,
    /// What changed, in JSON words.
    pub what: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            ""
        } else {
            &self.pointer
        };
        write!(
            f,
            "{:<12}  {}{}  {}",
            self.class.as_str(),
            self.tool,
            pointer,
            self.what
        )
    }
}

/// Every change from a lock to a set, in tool order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ContractDiff {
    changes: Vec<Change>,
}

impl ContractDiff {
    pub(super) fn new(changes: Vec<Change>) -> Self {
        Self { changes }
    }

    /// The changes.
    #[must_use]
    pub fn changes(&self) -> &[Change] {
        &self.changes
    }

    /// Whether the set matches the lock.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Whether any change is [`ChangeClass::Breaking`].
    #[must_use]
    pub fn is_breaking(&self) -> bool {
        self.changes
            .iter()
            .any(|c| c.class == ChangeClass::Breaking)
    }

    /// How many changes of `class` there are.
    #[must_use]
    pub fn count(&self, class: ChangeClass) -> usize {
        self.changes.iter().filter(|c| c.class == class).count()
    }
}

impl fmt::Display for ContractDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let classes = [
            ChangeClass::Breaking,
            ChangeClass::Additive,
            ChangeClass::Routing,
            ChangeClass::Cosmetic,
            ChangeClass::DialectOnly,
        ];
        let counts: Vec<String> = classes
            .iter()
            .filter(|c| self.count(**c) > 0)
            .map(|c| format!("{} {c}", self.count(*c)))
            .collect();
        writeln!(f, "{} changes: {}", self.changes.len(), counts.join(", "))?;
        for change in &self.changes {
            writeln!(f, "  {change}")?;
        }
        Ok(())
    }
}

pub(super) fn change(class: ChangeClass, tool: &str, pointer: &str, what: String) -> Change {
    Change {
        class,
        tool: tool.to_owned(),
        pointer: pointer.to_owned(),
        what,
    }
}

/// Whether a schema is read by callers (input) or by readers of results (output).
#[derive(Clone, Copy)]
pub(super) enum Direction {
    Input,
    Output,
}

pub(super) fn class_of(rule: Rule, direction: Direction) -> ChangeClass {
    use ChangeClass::{Additive, Breaking, Cosmetic, Routing};
    let input = matches!(direction, Direction::Input);
    // A narrower schema refuses callers (input) and reassures readers (output).
    let breaks_when = |narrows: bool| if narrows == input { Breaking } else { Additive };
    match rule {
        Rule::Narrows => breaks_when(true),
        Rule::Widens => breaks_when(false),
        Rule::Reshapes | Rule::PropertyRemoved => Breaking,
        Rule::PropertyAdded { required } => {
            if required && input {
                Breaking
            } else {
                Additive
            }
        }
        Rule::Routing => Routing,
        Rule::Cosmetic => Cosmetic,
    }
}

pub(super) fn obj(value: &Value) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    value
        .as_object()
        .unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// The canonical schema's findings as (detail, pointer), for matching a provider's own.
pub(super) type Canonical = HashSet<(Detail, String)>;

pub(super) fn canonical(findings: &[Finding]) -> Canonical {
    findings
        .iter()
        .map(|f| (f.detail, f.pointer.clone()))
        .collect()
}
