//! Rich results: [`Content`] blocks (text, [`Image`], [`Audio`], [`ResourceLink`],
//! [`EmbeddedResource`]) with [`Annotations`], in MCP's wire shape.
//!
//! A tool that returns one of these types, or a `Vec<Content>`, answers MCP `tools/call` with
//! those blocks as its `content` (no `structuredContent`, no output schema). Their JSON Schema
//! says so: it carries [`CONTENT_SCHEMA_KEY`], which is how the MCP server tells a content
//! result from structured output (by the type's `JsonSchema` impl, not by its name). Other
//! transports see the blocks as JSON.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// The key the output schema of a content type carries: a tool returning it answers with
/// content blocks rather than structured output. Its value is the block's MCP `type`
/// (`"image"`), or `"any"` for [`Content`].
pub const CONTENT_SCHEMA_KEY: &str = "x-executor-content";

/// Who a block is meant for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The human using the client.
    User,
    /// The model.
    Assistant,
}

/// Hints about a block or resource: who it is for, how important it is, when it changed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who the block is meant for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<Role>>,
    /// From 0 (least) to 1 (most important).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// When the content last changed, as an ISO 8601 timestamp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
}

impl Annotations {
    /// For `audience`.
    #[must_use]
    pub fn for_audience(audience: impl IntoIterator<Item = Role>) -> Self {
        Self {
            audience: Some(audience.into_iter().collect()),
            ..Self::default()
        }
    }

    /// With a priority, clamped to 0..=1.
    #[must_use]
    pub fn with_priority(mut self, priority: f64) -> Self {
        self.priority = Some(priority.clamp(0.0, 1.0));
        self
    }

    /// With the time the content last changed (ISO 8601).
    #[must_use]
    pub fn with_last_modified(mut self, at: impl Into<String>) -> Self {
        self.last_modified = Some(at.into());
        self
    }
}

/// An icon a client may show for a tool, prompt, resource or server: an `https:` or `data:`
/// URI, with its MIME type, sizes (`"48x48"`, `"any"`) and theme when known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Icon {
    /// Where the image is (`https:` or `data:`).
    pub src: String,
    /// Its MIME type (`image/png`, `image/svg+xml`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The sizes it is drawn for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Vec<String>>,
    /// `"light"` or `"dark"`: the theme it is drawn for (any when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
}

impl Icon {
    /// An icon at `src`.
    #[must_use]
    pub fn new(src: impl Into<String>) -> Self {
        Self {
            src: src.into(),
            mime_type: None,
            sizes: None,
            theme: None,
        }
    }

    /// With its MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// With the sizes it is drawn for.
    #[must_use]
    pub fn with_sizes<I: IntoIterator<Item = S>, S: Into<String>>(mut self, sizes: I) -> Self {
        self.sizes = Some(sizes.into_iter().map(Into::into).collect());
        self
    }
}

/// A text block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Text {
    /// The text.
    pub text: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// Base64 media (an image or audio clip) and its MIME type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Media {
    /// The bytes, base64-encoded.
    pub data: String,
    /// The MIME type (`image/png`, `audio/wav`).
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

/// An image block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Image(pub Media);

/// An audio block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Audio(pub Media);

impl Media {
    fn from_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Self {
        Self {
            data: crate::base64::encode(bytes),
            mime_type: mime_type.into(),
            annotations: None,
        }
    }
}

macro_rules! media_builders {
    ($ty:ident, $what:literal) => {
        impl $ty {
            #[doc = concat!("An ", $what, " of `mime_type` from its raw bytes (base64-encoded here).")]
            #[must_use]
            pub fn new(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Self {
                Self(Media::from_bytes(bytes.as_ref(), mime_type))
            }

            #[doc = concat!("An ", $what, " whose bytes are already base64-encoded.")]
            #[must_use]
            pub fn from_base64(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
                Self(Media {
                    data: data.into(),
                    mime_type: mime_type.into(),
                    annotations: None,
                })
            }

            /// With annotations.
            #[must_use]
            pub fn with_annotations(mut self, annotations: Annotations) -> Self {
                self.0.annotations = Some(annotations);
                self
            }
        }
    };
}
media_builders!(Image, "image");
media_builders!(Audio, "audio clip");

/// A link to a resource the client may read (it need not be listed in `resources/list`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

impl ResourceLink {
    /// A link to `uri` named `name`.
    #[must_use]
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Self {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
            annotations: None,
        }
    }

    /// With a description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// With a MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// With annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// What a resource holds: text or base64 bytes, with its URI and MIME type (the shape of
/// `resources/read` contents and of an embedded resource).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text.
    #[serde(rename_all = "camelCase")]
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Bytes.
    #[serde(rename_all = "camelCase")]
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The bytes, base64-encoded.
        blob: String,
    },
}

impl ResourceContents {
    /// Text contents of `uri`.
    #[must_use]
    pub fn text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Self::Text {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
        }
    }

    /// Binary contents of `uri` from raw bytes (base64-encoded here).
    #[must_use]
    pub fn blob(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl AsRef<[u8]>,
    ) -> Self {
        Self::Blob {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            blob: crate::base64::encode(bytes.as_ref()),
        }
    }

    /// The URI.
    #[must_use]
    pub fn uri(&self) -> &str {
        match self {
            Self::Text { uri, .. } | Self::Blob { uri, .. } => uri,
        }
    }
}

/// A resource's contents inside a result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: ResourceContents,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
}

impl EmbeddedResource {
    /// `contents`, embedded.
    #[must_use]
    pub fn new(contents: ResourceContents) -> Self {
        Self {
            resource: contents,
            annotations: None,
        }
    }

    /// With annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = Some(annotations);
        self
    }
}

/// One content block of a tool result or prompt message. Serializes as MCP's block
/// (`{"type":"image","data":…,"mimeType":…}`).
///
/// ```
/// use tool_executor::tool::{Annotations, Content, Image, Role};
///
/// let png = [0x89, b'P', b'N', b'G'];
/// let blocks = vec![
///     Content::text("A chart:"),
///     Content::from(Image::new(png, "image/png"))
///         .with_annotations(Annotations::for_audience([Role::User]).with_priority(0.5)),
/// ];
/// assert_eq!(
///     serde_json::to_value(&blocks).unwrap(),
///     serde_json::json!([
///         {"type": "text", "text": "A chart:"},
///         {"type": "image", "data": "iVBORw==", "mimeType": "image/png",
///          "annotations": {"audience": ["user"], "priority": 0.5}}
///     ])
/// );
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// Text.
    Text(Text),
    /// An image.
    Image(Image),
    /// An audio clip.
    Audio(Audio),
    /// A link to a resource.
    ResourceLink(ResourceLink),
    /// A resource's contents.
    Resource(EmbeddedResource),
}

impl Content {
    /// A text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        Self::Text(Text {
            text: text.into(),
            annotations: None,
        })
    }

    /// The same block with `annotations`.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        let slot = match &mut self {
            Self::Text(b) => &mut b.annotations,
            Self::Image(Image(b)) | Self::Audio(Audio(b)) => &mut b.annotations,
            Self::ResourceLink(b) => &mut b.annotations,
            Self::Resource(b) => &mut b.annotations,
        };
        *slot = Some(annotations);
        self
    }
}

impl From<Image> for Content {
    fn from(block: Image) -> Self {
        Self::Image(block)
    }
}

impl From<Audio> for Content {
    fn from(block: Audio) -> Self {
        Self::Audio(block)
    }
}

impl From<ResourceLink> for Content {
    fn from(block: ResourceLink) -> Self {
        Self::ResourceLink(block)
    }
}

impl From<EmbeddedResource> for Content {
    fn from(block: EmbeddedResource) -> Self {
        Self::Resource(block)
    }
}

impl From<ResourceContents> for Content {
    fn from(contents: ResourceContents) -> Self {
        Self::Resource(EmbeddedResource::new(contents))
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Self::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Self::text(text)
    }
}

/// The schema of a content type: an object marked with [`CONTENT_SCHEMA_KEY`], always inline
/// so `Vec<Content>` is an array of marked items.
macro_rules! content_schema {
    ($ty:ident, $tag:literal, $what:literal) => {
        impl JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($ty))
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!({
                    "type": "object",
                    "description": $what,
                    CONTENT_SCHEMA_KEY: $tag,
                })
            }
        }
    };
}
content_schema!(Content, "any", "An MCP content block.");
content_schema!(Image, "image", "An MCP image block.");
content_schema!(Audio, "audio", "An MCP audio block.");
content_schema!(ResourceLink, "resource_link", "An MCP resource link.");
content_schema!(EmbeddedResource, "resource", "An MCP embedded resource.");

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_block_serializes_in_mcp_shape() {
        let blocks = vec![
            Content::text("hi"),
            Audio::new(b"RIFF", "audio/wav").into(),
            ResourceLink::new("notes://1", "note one")
                .with_mime_type("text/plain")
                .into(),
            ResourceContents::text("test://r", "text/plain", "body").into(),
            ResourceContents::blob("test://b", "image/png", [1, 2, 3]).into(),
        ];
        assert_eq!(
            serde_json::to_value(&blocks).unwrap(),
            json!([
                {"type": "text", "text": "hi"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
                {"type": "resource_link", "uri": "notes://1", "name": "note one", "mimeType": "text/plain"},
                {"type": "resource", "resource": {"uri": "test://r", "mimeType": "text/plain", "text": "body"}},
                {"type": "resource", "resource": {"uri": "test://b", "mimeType": "image/png", "blob": "AQID"}}
            ])
        );
        let back: Vec<Content> =
            serde_json::from_value(serde_json::to_value(&blocks).unwrap()).unwrap();
        assert_eq!(back, blocks);
    }
}
