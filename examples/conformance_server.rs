//! Every fixture of the official MCP conformance suite (`@modelcontextprotocol/conformance`
//! 0.1.16, its server scenarios), declared with this crate's macros and public API only:
//! tools with text, image, audio, embedded-resource and mixed results, logging, progress,
//! errors, sampling and elicitation; prompts; resources and a template; completion;
//! subscriptions.
//! `.ci/conformance.sh` runs the suite against it.
//!
//! ```text
//! cargo run -p examples --example conformance_server -- --http 127.0.0.1:8080   # POST /mcp
//! cargo run -p examples --example conformance_server -- --http 127.0.0.1:0      # any port
//! cargo run -p examples --example conformance_server                            # stdio
//! ```

use std::net::SocketAddr;
use std::time::Duration;

use tool_executor::McpServer;
use tool_executor::catalog::{Catalog, PromptMessage};
use tool_executor::elicit::{Answer, Form};
use tool_executor::mcp::ClientModel;
use tool_executor::prelude::*;
use tool_executor::tool::{Audio, Content, EmbeddedResource, Image, LogLevel, ResourceContents};

/// A 1x1 red PNG, base64 (the suite's own sample).
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/// A minimal WAV file, base64 (the suite's own sample).
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

// ---- tools ----

/// Returns a simple text response.
#[tool]
fn test_simple_text() -> String {
    "This is a simple text response for testing.".to_owned()
}

/// Returns a PNG image.
#[tool]
fn test_image_content() -> Image {
    Image::from_base64(PNG, "image/png")
}

/// Returns a WAV audio clip.
#[tool]
fn test_audio_content() -> Audio {
    Audio::from_base64(WAV, "audio/wav")
}

/// Returns an embedded text resource.
#[tool]
fn test_embedded_resource() -> EmbeddedResource {
    EmbeddedResource::new(ResourceContents::text(
        "test://embedded-resource",
        "text/plain",
        "This is an embedded resource content.",
    ))
}

/// Returns text, an image and an embedded resource.
#[tool]
fn test_multiple_content_types() -> Vec<Content> {
    vec![
        Content::text("Multiple content types test:"),
        Image::from_base64(PNG, "image/png").into(),
        ResourceContents::text(
            "test://mixed-content-resource",
            "application/json",
            r#"{"test":"data","value":123}"#,
        )
        .into(),
    ]
}

/// Sends three log messages while it runs.
#[tool]
async fn test_tool_with_logging(ctx: &ToolContext) -> String {
    ctx.log(LogLevel::Info, "Tool execution started").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool processing data").await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.log(LogLevel::Info, "Tool execution completed").await;
    "Logging test completed".to_owned()
}

/// Reports progress at 0, 50 and 100 percent.
#[tool]
async fn test_tool_with_progress(ctx: &ToolContext) -> String {
    ctx.progress(0.0, None).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.progress(0.5, None).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.progress(1.0, None).await;
    "Progress test completed".to_owned()
}

/// Always fails, to test error reporting.
#[tool]
fn test_error_handling() -> Result<String, ToolFailure> {
    Err(ToolFailure::terminal(
        "This tool intentionally returns an error for testing",
    ))
}

/// Asks the client's model (MCP sampling; legacy, 2025-11-25 sessions).
#[tool]
async fn test_sampling(
    /// The prompt to send to the model.
    prompt: String,
    ctx: &ToolContext,
) -> Result<String, ToolFailure> {
    let model = ctx.require_extension::<ClientModel>()?;
    let answer = model.ask(prompt, 100).await?;
    Ok(format!("LLM response: {answer}"))
}

/// What the user is asked for by `test_elicitation`.
#[derive(Form)]
struct UserInfo {
    /// User's response
    username: String,
    /// User's email address
    #[form(format = "email")]
    email: String,
}

/// Asks the user for their name and email (MCP elicitation).
#[tool]
async fn test_elicitation(
    /// The message to show the user.
    message: String,
    ctx: &ToolContext,
) -> Result<String, ToolFailure> {
    Ok(match ctx.elicit::<UserInfo>(message).await? {
        Answer::Accepted(user) => format!(
            "User response: action=accept, content={}",
            json!({"username": user.username, "email": user.email})
        ),
        Answer::Declined => "User response: action=decline".to_owned(),
        Answer::Cancelled => "User response: action=cancel".to_owned(),
    })
}

/// The suite's result text for a form: `Elicitation completed: action=…, content=…`.
fn completed<T: std::fmt::Debug>(answer: &Answer<T>) -> String {
    match answer {
        Answer::Accepted(content) => {
            format!("Elicitation completed: action=accept, content={content:?}")
        }
        Answer::Declined => "Elicitation completed: action=decline, content={}".to_owned(),
        Answer::Cancelled => "Elicitation completed: action=cancel, content={}".to_owned(),
    }
}

/// A status, written as a plain `enum` (SEP-1034's enum default).
#[derive(Form, Debug)]
#[form(untitled)]
enum Status {
    #[form(value = "active")]
    Active,
    #[form(value = "inactive")]
    Inactive,
    #[form(value = "pending")]
    Pending,
}

/// Every primitive with a default (SEP-1034).
#[derive(Form, Debug)]
#[allow(dead_code)] // read only through `Debug`, in the result text
struct Defaults {
    /// User name
    #[form(default = "John Doe")]
    name: String,
    /// User age
    #[form(default = 30)]
    age: i64,
    /// User score
    #[form(default = 95.5)]
    score: f64,
    /// User status
    #[form(default = Status::Active)]
    status: Status,
    /// Verification status
    #[form(default = true)]
    verified: bool,
}

/// Asks with a form whose fields have defaults (SEP-1034).
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: &ToolContext) -> Result<String, ToolFailure> {
    let answer = ctx
        .elicit::<Defaults>("Please review and update the form fields with defaults")
        .await?;
    Ok(completed(&answer))
}

/// Untitled choices: a plain `enum`.
#[derive(Form, Debug)]
#[form(untitled)]
enum Untitled {
    #[form(value = "option1")]
    One,
    #[form(value = "option2")]
    Two,
    #[form(value = "option3")]
    Three,
}

/// Titled choices (`oneOf` of `{const, title}`).
#[derive(Form, Debug)]
enum TitledOption {
    #[form(value = "value1", title = "First Option")]
    One,
    #[form(value = "value2", title = "Second Option")]
    Two,
    #[form(value = "value3", title = "Third Option")]
    Three,
}

/// Legacy titled choices (`enum` with `enumNames`).
#[derive(Form, Debug)]
#[form(enum_names)]
enum Legacy {
    #[form(value = "opt1", title = "Option One")]
    One,
    #[form(value = "opt2", title = "Option Two")]
    Two,
    #[form(value = "opt3", title = "Option Three")]
    Three,
}

/// Titled choices for the multi-select (`anyOf` of `{const, title}`).
#[derive(Form, Debug)]
enum TitledChoice {
    #[form(value = "value1", title = "First Choice")]
    One,
    #[form(value = "value2", title = "Second Choice")]
    Two,
    #[form(value = "value3", title = "Third Choice")]
    Three,
}

/// SEP-1330's five ways of writing choices.
#[derive(Form, Debug)]
#[allow(clippy::struct_field_names)] // the suite's names
#[allow(dead_code)] // read only through `Debug`, in the result text
struct Choices {
    /// Select one option
    #[form(rename = "untitledSingle")]
    untitled_single: Untitled,
    /// Select one option with titles
    #[form(rename = "titledSingle")]
    titled_single: TitledOption,
    /// Select one option (legacy)
    #[form(rename = "legacyEnum")]
    legacy_enum: Legacy,
    /// Select multiple options
    #[form(rename = "untitledMulti")]
    untitled_multi: Vec<Untitled>,
    /// Select multiple options with titles
    #[form(rename = "titledMulti")]
    titled_multi: Vec<TitledChoice>,
}

/// Asks with every enum shape (SEP-1330).
#[tool]
async fn test_elicitation_sep1330_enums(ctx: &ToolContext) -> Result<String, ToolFailure> {
    let answer = ctx
        .elicit::<Choices>("Please select options from the enum fields")
        .await?;
    Ok(completed(&answer))
}

// ---- prompts ----

/// A simple prompt without arguments.
#[prompt]
fn test_simple_prompt() -> PromptMessage {
    PromptMessage::user("This is a simple prompt for testing.")
}

fn cities(prefix: &str) -> Vec<String> {
    ["paris", "park", "party", "london"]
        .iter()
        .filter(|c| c.starts_with(prefix))
        .map(|c| (*c).to_owned())
        .collect()
}

/// A prompt with two arguments.
#[prompt]
fn test_prompt_with_arguments(
    /// First test argument.
    #[arg(complete = cities)]
    arg1: &str,
    /// Second test argument.
    arg2: &str,
) -> PromptMessage {
    PromptMessage::user(format!(
        "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
    ))
}

/// A prompt with an embedded resource.
#[prompt]
fn test_prompt_with_embedded_resource(
    /// URI of the resource to embed.
    #[arg(rename = "resourceUri")]
    resource_uri: String,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(ResourceContents::text(
            resource_uri,
            "text/plain",
            "Embedded resource content for testing.",
        )),
        PromptMessage::user("Please process the embedded resource above."),
    ]
}

/// A prompt with an image.
#[prompt]
fn test_prompt_with_image() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(Image::from_base64(PNG, "image/png")),
        PromptMessage::user("Please analyze the image above."),
    ]
}

// ---- resources ----

/// A static text resource for testing.
#[resource(
    uri = "test://static-text",
    name = "static-text",
    mime_type = "text/plain"
)]
fn static_text() -> String {
    "This is the content of the static text resource.".to_owned()
}

/// A static binary resource (image) for testing.
#[resource(
    uri = "test://static-binary",
    name = "static-binary",
    mime_type = "image/png"
)]
fn static_binary() -> ResourceContents {
    ResourceContents::Blob {
        uri: "test://static-binary".to_owned(),
        mime_type: Some("image/png".to_owned()),
        blob: PNG.to_owned(),
    }
}

/// A resource template with parameter substitution.
#[resource(
    template = "test://template/{id}/data",
    name = "template",
    mime_type = "application/json"
)]
fn template_data(id: &str) -> String {
    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string()
}

/// A resource clients subscribe to.
#[resource(
    uri = "test://watched-resource",
    name = "watched-resource",
    mime_type = "text/plain"
)]
fn watched_resource() -> String {
    "Watched resource content".to_owned()
}

/// The server: every tool, prompt and resource above.
fn server() -> McpServer {
    let tools = toolset![
        test_simple_text,
        test_image_content,
        test_audio_content,
        test_embedded_resource,
        test_multiple_content_types,
        test_tool_with_logging,
        test_tool_with_progress,
        test_error_handling,
        test_sampling,
        test_elicitation,
        test_elicitation_sep1034_defaults,
        test_elicitation_sep1330_enums,
    ];
    let catalog: Catalog = catalog![
        test_simple_prompt,
        test_prompt_with_arguments,
        test_prompt_with_embedded_resource,
        test_prompt_with_image,
        static_text,
        static_binary,
        template_data,
        watched_resource,
    ];
    tool_executor::mcp_server!(tools)
        .with_name("conformance-server")
        .with_catalog(catalog)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().position(|a| a == "--http") {
        Some(i) => {
            let addr: SocketAddr = args
                .get(i + 1)
                .map_or("127.0.0.1:8080", String::as_str)
                .parse()?;
            let listener = tokio::net::TcpListener::bind(addr).await?;
            // `.ci/conformance.sh` and `.ci/mcp-peer.sh` wait for this line before connecting.
            eprintln!("listening on http://{}/mcp", listener.local_addr()?);
            server()
                .serve_http_on(listener, tokio_util::sync::CancellationToken::new())
                .await?;
        }
        None => server().serve_stdio().await?,
    }
    Ok(())
}
