//! Resources: [`ResourceSpec`] (a fixed URI or a [`UriTemplate`]), what a read returns
//! ([`IntoContents`]), and [`Resource`], what `#[resource]` implements.

use serde_json::{Map, Value};

use crate::failure::ToolFailure;
use crate::tool::{BoxFuture, Icon, ResourceContents, ToolContext};

/// A URI template of MCP's resource templates (RFC 6570 level 1): literal text and
/// `{name}` variables, each matching one or more characters other than `/`.
///
/// ```
/// use tool_executor::catalog::UriTemplate;
///
/// let t = UriTemplate::parse("test://template/{id}/data").unwrap();
/// assert_eq!(t.variables().collect::<Vec<_>>(), ["id"]);
/// let vars = t.matches("test://template/123/data").unwrap();
/// assert_eq!(vars["id"], "123");
/// assert!(t.matches("test://template/1/2/data").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable(String),
}

impl UriTemplate {
    /// Parses `text`.
    ///
    /// # Errors
    /// An unclosed or empty `{}`, a variable that is not an identifier, two variables with
    /// nothing between them, or one variable twice.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            } else if matches!(parts.last(), Some(Part::Variable(_))) {
                return Err("two variables need text between them, as in `{a}/{b}`".into());
            }
            let close = rest[open..]
                .find('}')
                .ok_or_else(|| format!("`{{` at `{}` is never closed", &rest[open..]))?;
            let name = &rest[open + 1..open + close];
            let valid = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !valid {
                return Err(format!(
                    "`{{{name}}}` is not a variable; write a name such as `{{id}}`"
                ));
            }
            if parts.iter().any(|p| *p == Part::Variable(name.to_owned())) {
                return Err(format!("variable `{name}` appears twice"));
            }
            parts.push(Part::Variable(name.to_owned()));
            rest = &rest[open + close + 1..];
        }
        if rest.contains('}') {
            return Err("`}` without a `{` before it".into());
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        Ok(Self {
            text: text.to_owned(),
            parts,
        })
    }

    /// The template as written.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The variables' names, in order.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable(name) => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// The variables' values when `uri` matches (each a JSON string).
    #[must_use]
    pub fn matches(&self, uri: &str) -> Option<Map<String, Value>> {
        let mut vars = Map::new();
        let mut rest = uri;
        let mut parts = self.parts.iter().peekable();
        while let Some(part) = parts.next() {
            match part {
                Part::Literal(text) => rest = rest.strip_prefix(text.as_str())?,
                Part::Variable(name) => {
                    let end = match parts.peek() {
                        Some(Part::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let value = &rest[..end];
                    if value.is_empty() || value.contains('/') {
                        return None;
                    }
                    vars.insert(name.clone(), Value::String(value.to_owned()));
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(vars)
    }
}

/// Where a resource lives: one URI, or every URI a template matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceUri {
    /// A fixed URI (`resources/list`).
    Fixed(String),
    /// A template (`resources/templates/list`).
    Template(UriTemplate),
}

/// The address of a `#[resource(template = …)]` (what generated code calls): the macro checked
/// the template with the same rules, so the fallback, a fixed URI that is the text itself, is
/// never taken.
#[doc(hidden)]
#[must_use]
pub fn template(text: &str) -> ResourceUri {
    UriTemplate::parse(text).map_or_else(
        |_| ResourceUri::Fixed(text.to_owned()),
        ResourceUri::Template,
    )
}

/// What `resources/list` (or `resources/templates/list`) shows of one resource.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceSpec {
    /// Its URI or template.
    pub uri: ResourceUri,
    /// Its name.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it is (the function's doc comment).
    pub description: Option<String>,
    /// The MIME type of its contents.
    pub mime_type: Option<String>,
    /// Icons a client may show for it (`#[resource(icon = "…")]`).
    pub icons: Vec<Icon>,
}

/// What a `#[resource]` function may return: a text (with the resource's MIME type), bytes
/// (`Vec<u8>`, base64 on the wire), [`ResourceContents`], a list of them, or a `Result` of one
/// of them whose error converts into a [`ToolFailure`].
#[diagnostic::on_unimplemented(
    message = "a `#[resource]` cannot return `{Self}`",
    note = "return a `String` (text), a `Vec<u8>` (bytes), `ResourceContents`, a `Vec<ResourceContents>`, or a `Result` of one of them"
)]
pub trait IntoContents {
    /// The contents of `uri` (whose listing says `mime_type`).
    ///
    /// # Errors
    /// The function's own error.
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ToolFailure>;
}

impl IntoContents for String {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ToolFailure> {
        Ok(vec![ResourceContents::Text {
            uri: uri.to_owned(),
            mime_type: Some(mime_type.unwrap_or("text/plain").to_owned()),
            text: self,
        }])
    }
}

impl IntoContents for Vec<u8> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ToolFailure> {
        let mime_type = mime_type.unwrap_or("application/octet-stream");
        Ok(vec![ResourceContents::blob(uri, mime_type, self)])
    }
}

impl IntoContents for ResourceContents {
    fn into_contents(self, _: &str, _: Option<&str>) -> Result<Vec<ResourceContents>, ToolFailure> {
        Ok(vec![self])
    }
}

impl IntoContents for Vec<ResourceContents> {
    fn into_contents(self, _: &str, _: Option<&str>) -> Result<Vec<ResourceContents>, ToolFailure> {
        Ok(self)
    }
}

impl<T: IntoContents, E: Into<ToolFailure>> IntoContents for Result<T, E> {
    fn into_contents(
        self,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, ToolFailure> {
        self.map_err(Into::into)?.into_contents(uri, mime_type)
    }
}

/// A resource: what `#[resource]` implements on the struct it generates beside the function.
pub trait Resource: 'static {
    /// The resource's listing, built once.
    fn spec() -> &'static ResourceSpec;

    /// Reads `uri` for the caller `ctx` describes; `variables` holds a template's values
    /// (empty for a fixed URI).
    fn read<'a>(
        uri: &'a str,
        variables: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ToolFailure>>;

    /// Values for the template variable `variable` that start like `value`
    /// (`completion/complete`); none by default.
    #[must_use]
    fn complete(variable: &str, value: &str) -> Vec<String> {
        let _ = (variable, value);
        Vec::new()
    }
}

/// Resources served by a value: what `#[resources]` implements on the type of an `impl` block
/// whose `#[resource]` methods take `&self`. Each resource is known by its place in
/// [`resource_specs`](Self::resource_specs).
pub trait Resources: Send + Sync + 'static {
    /// The resources' and templates' listings, in the block's order.
    fn resource_specs(&self) -> Vec<ResourceSpec>;

    /// Reads `uri` with resource number `index`, for the caller `ctx` describes; `variables`
    /// holds a template's values.
    fn read_resource<'a>(
        &'a self,
        index: usize,
        uri: &'a str,
        variables: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ToolFailure>>;

    /// Values for `variable` of resource number `index` that start like `value`; none by
    /// default.
    #[must_use]
    fn complete_resource(&self, index: usize, variable: &str, value: &str) -> Vec<String> {
        let _ = (index, variable, value);
        Vec::new()
    }
}

/// A value shared with the rest of the program serves the same resources.
impl<T: Resources> Resources for std::sync::Arc<T> {
    fn resource_specs(&self) -> Vec<ResourceSpec> {
        (**self).resource_specs()
    }

    fn read_resource<'a>(
        &'a self,
        index: usize,
        uri: &'a str,
        variables: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ToolFailure>> {
        (**self).read_resource(index, uri, variables, ctx)
    }

    fn complete_resource(&self, index: usize, variable: &str, value: &str) -> Vec<String> {
        (**self).complete_resource(index, variable, value)
    }
}

/// One `#[resource]` function as [`Resources`] (its only resource is number 0).
pub(crate) struct FnResource<R>(std::marker::PhantomData<fn() -> R>);

impl<R> FnResource<R> {
    pub(crate) fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<R: Resource> Resources for FnResource<R> {
    fn resource_specs(&self) -> Vec<ResourceSpec> {
        vec![R::spec().clone()]
    }

    fn read_resource<'a>(
        &'a self,
        _: usize,
        uri: &'a str,
        variables: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<Vec<ResourceContents>, ToolFailure>> {
        R::read(uri, variables, ctx)
    }

    fn complete_resource(&self, _: usize, variable: &str, value: &str) -> Vec<String> {
        R::complete(variable, value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_and_refuse() {
        let t = UriTemplate::parse("notes://{user}/n/{id}").unwrap();
        let vars = t.matches("notes://ann/n/7").unwrap();
        assert_eq!(
            serde_json::Value::Object(vars),
            serde_json::json!({"user": "ann", "id": "7"})
        );
        assert!(t.matches("notes://ann/n/").is_none());
        assert!(t.matches("notes://ann/x/7").is_none());
        assert!(t.matches("notes://a/b/n/7").is_none());
        for (bad, why) in [
            ("a://{id", "`{` at `{id` is never closed"),
            (
                "a://{}",
                "`{}` is not a variable; write a name such as `{id}`",
            ),
            (
                "a://{a}{b}",
                "two variables need text between them, as in `{a}/{b}`",
            ),
            ("a://{a}/{a}", "variable `a` appears twice"),
            ("a://}", "`}` without a `{` before it"),
        ] {
            assert_eq!(UriTemplate::parse(bad).unwrap_err(), why, "{bad}");
        }
    }
}
