//! Prompts: [`PromptSpec`] (what `prompts/list` shows), [`PromptMessage`] and
//! [`PromptResult`] (what `prompts/get` answers), [`Prompt`], what `#[prompt]` implements, and
//! [`Prompts`], what `#[prompts]` implements on an `impl` block.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::failure::ToolFailure;
use crate::tool::{BoxFuture, Content, Icon, Role, ToolContext};

/// One argument of a prompt. MCP prompt arguments are strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What it is (the parameter's doc comment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the caller must give it (`Option` parameters are not required).
    pub required: bool,
}

/// What `prompts/list` shows of one prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptSpec {
    /// Its name.
    pub name: String,
    /// A title for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is for (the function's doc comment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its arguments, in the function's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<PromptArgument>,
    /// Icons a client may show for it (`#[prompt(icon = "…")]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub icons: Vec<Icon>,
}

/// One message of a prompt's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: text, an image, audio or an embedded resource.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    #[must_use]
    pub fn user(content: impl Into<Content>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message from the assistant.
    #[must_use]
    pub fn assistant(content: impl Into<Content>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// What `prompts/get` answers: the messages, and optionally a description.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct PromptResult {
    /// A description of this rendering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}

/// What a `#[prompt]` function may return: messages, one message, a text (one user message),
/// a [`PromptResult`], or a `Result` of one of them whose error converts into a
/// [`ToolFailure`].
#[diagnostic::on_unimplemented(
    message = "a `#[prompt]` cannot return `{Self}`",
    note = "return a `PromptMessage`, a `Vec<PromptMessage>`, a `String` (one user message), a `PromptResult`, or a `Result` of one of them"
)]
pub trait IntoPromptResult {
    /// The result, or the failure the client is told.
    ///
    /// # Errors
    /// The function's own error.
    fn into_prompt_result(self) -> Result<PromptResult, ToolFailure>;
}

impl IntoPromptResult for PromptResult {
    fn into_prompt_result(self) -> Result<PromptResult, ToolFailure> {
        Ok(self)
    }
}

impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<PromptResult, ToolFailure> {
        Ok(PromptResult {
            description: None,
            messages: self,
        })
    }
}

impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<PromptResult, ToolFailure> {
        vec![self].into_prompt_result()
    }
}

impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<PromptResult, ToolFailure> {
        PromptMessage::user(self).into_prompt_result()
    }
}

impl<T: IntoPromptResult, E: Into<ToolFailure>> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<PromptResult, ToolFailure> {
        self.map_err(Into::into)?.into_prompt_result()
    }
}

/// A prompt: what `#[prompt]` implements on the struct it generates beside the function.
pub trait Prompt: 'static {
    /// The prompt's listing, built once.
    fn spec() -> &'static PromptSpec;

    /// Renders the prompt with `arguments` (each a JSON string), for the caller `ctx`
    /// describes (a function that takes `&ToolContext` gets it).
    fn get<'a>(
        arguments: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<PromptResult, ToolFailure>>;

    /// Values for `argument` that start like `value` (`completion/complete`); none by default.
    #[must_use]
    fn complete(argument: &str, value: &str) -> Vec<String> {
        let _ = (argument, value);
        Vec::new()
    }
}

/// Prompts served by a value: what `#[prompts]` implements on the type of an `impl` block
/// whose `#[prompt]` methods take `&self`. Each prompt is known by its place in
/// [`prompt_specs`](Self::prompt_specs).
pub trait Prompts: Send + Sync + 'static {
    /// The prompts' listings, in the block's order.
    fn prompt_specs(&self) -> Vec<PromptSpec>;

    /// Renders prompt number `index` with `arguments`, for the caller `ctx` describes.
    fn get_prompt<'a>(
        &'a self,
        index: usize,
        arguments: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<PromptResult, ToolFailure>>;

    /// Values for `argument` of prompt number `index` that start like `value`; none by
    /// default.
    #[must_use]
    fn complete_prompt(&self, index: usize, argument: &str, value: &str) -> Vec<String> {
        let _ = (index, argument, value);
        Vec::new()
    }
}

/// A value shared with the rest of the program serves the same prompts.
impl<T: Prompts> Prompts for std::sync::Arc<T> {
    fn prompt_specs(&self) -> Vec<PromptSpec> {
        (**self).prompt_specs()
    }

    fn get_prompt<'a>(
        &'a self,
        index: usize,
        arguments: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<PromptResult, ToolFailure>> {
        (**self).get_prompt(index, arguments, ctx)
    }

    fn complete_prompt(&self, index: usize, argument: &str, value: &str) -> Vec<String> {
        (**self).complete_prompt(index, argument, value)
    }
}

/// One `#[prompt]` function as [`Prompts`] (its only prompt is number 0).
pub(crate) struct FnPrompt<P>(std::marker::PhantomData<fn() -> P>);

impl<P> FnPrompt<P> {
    pub(crate) fn new() -> Self {
        Self(std::marker::PhantomData)
    }
}

impl<P: Prompt> Prompts for FnPrompt<P> {
    fn prompt_specs(&self) -> Vec<PromptSpec> {
        vec![P::spec().clone()]
    }

    fn get_prompt<'a>(
        &'a self,
        _: usize,
        arguments: &'a Map<String, Value>,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<PromptResult, ToolFailure>> {
        P::get(arguments, ctx)
    }

    fn complete_prompt(&self, _: usize, argument: &str, value: &str) -> Vec<String> {
        P::complete(argument, value)
    }
}
