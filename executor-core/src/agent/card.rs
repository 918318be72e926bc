//! Agent cards: the [`Agent`] trait, and the static description `#[agent]` builds one from.

use a2a_protocol_server::AgentExecutor;
use a2a_protocol_types::agent_card::{
    AgentCapabilities, AgentCard, AgentInterface, AgentProvider, AgentSkill,
};

/// An [`AgentExecutor`] that describes itself: its agent card, for the public URL it is served
/// at. `#[agent]` and [`ToolAgent`](super::ToolAgent) implement it; [`serve`](super::serve)
/// needs it.
pub trait Agent: AgentExecutor {
    /// The agent card, valid for A2A 1.0, with its interfaces at `url` (JSON-RPC at `url`,
    /// HTTP+JSON under `url`).
    fn card(&self, url: &str) -> AgentCard;

    /// The resource server that checks this agent's callers, if any: binding it installs the
    /// bearer check, serves the RFC 9728 metadata and declares the scheme in the card
    /// (`ToolAgent::with_oauth`).
    #[cfg(feature = "oauth")]
    #[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
    fn oauth(&self) -> Option<crate::auth::ResourceServer> {
        None
    }
}

/// The card an `#[agent]` declares, as constants. Not covered by semver.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct CardSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub version: &'static str,
    /// `(organization, url)`.
    pub provider: Option<(&'static str, &'static str)>,
    pub documentation_url: Option<&'static str>,
    pub icon_url: Option<&'static str>,
    pub streaming: bool,
    pub push_notifications: bool,
    pub input_modes: &'static [&'static str],
    pub output_modes: &'static [&'static str],
    pub skills: &'static [SkillSpec],
}

/// One skill of a [`CardSpec`]. Not covered by semver.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub struct SkillSpec {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub tags: &'static [&'static str],
    pub examples: &'static [&'static str],
    pub input_modes: Option<&'static [&'static str]>,
    pub output_modes: Option<&'static [&'static str]>,
}

impl CardSpec {
    /// The card, served at `url`.
    #[must_use]
    pub fn card(&self, url: &str) -> AgentCard {
        let mut capabilities = AgentCapabilities::none().with_streaming(self.streaming);
        if self.push_notifications {
            capabilities = capabilities.with_push_notifications(true);
        }
        let mut card = base_card(self.name, self.version, url)
            .with_description(self.description)
            .with_capabilities(capabilities)
            .with_input_modes(self.input_modes.iter().copied())
            .with_output_modes(self.output_modes.iter().copied());
        if let Some((organization, url)) = self.provider {
            card = card.with_provider(AgentProvider {
                organization: organization.to_owned(),
                url: url.to_owned(),
            });
        }
        if let Some(docs) = self.documentation_url {
            card = card.with_documentation_url(docs);
        }
        if let Some(icon) = self.icon_url {
            card = card.with_icon_url(icon);
        }
        for skill in self.skills {
            card = card.with_skill(skill.skill());
        }
        card
    }
}

/// A card with both interfaces this crate serves at `url`: JSON-RPC at `url` and HTTP+JSON
/// under it.
pub(crate) fn base_card(name: &str, version: &str, url: &str) -> AgentCard {
    AgentCard::new(name, version, AgentInterface::jsonrpc(url))
        .with_interface(AgentInterface::rest(url))
}

impl SkillSpec {
    fn skill(&self) -> AgentSkill {
        let mut skill = AgentSkill::new(self.id, self.name, self.description)
            .with_tags(self.tags.iter().copied());
        if !self.examples.is_empty() {
            skill = skill.with_examples(self.examples.iter().copied());
        }
        if let Some(modes) = self.input_modes {
            skill = skill.with_input_modes(modes.iter().copied());
        }
        if let Some(modes) = self.output_modes {
            skill = skill.with_output_modes(modes.iter().copied());
        }
        skill
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_card_is_valid_a2a_1_0() {
        const SPEC: CardSpec = CardSpec {
            name: "Weather",
            description: "Answers weather questions.",
            version: "1.0.0",
            provider: Some(("Example Org", "https://example.org")),
            documentation_url: Some("https://example.org/docs"),
            icon_url: None,
            streaming: true,
            push_notifications: false,
            input_modes: &["text/plain"],
            output_modes: &["text/plain", "application/json"],
            skills: &[SkillSpec {
                id: "forecast",
                name: "Forecast",
                description: "Forecasts.",
                tags: &["weather"],
                examples: &["weather in Paris?"],
                input_modes: None,
                output_modes: Some(&["application/json"]),
            }],
        };
        let card = SPEC.card("http://127.0.0.1:3000");
        assert_eq!(card.validate(), Ok(()));
        let json = serde_json::to_value(&card).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "name": "Weather",
                "description": "Answers weather questions.",
                "supportedInterfaces": [
                    {"url": "http://127.0.0.1:3000", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                    {"url": "http://127.0.0.1:3000", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}
                ],
                "provider": {"organization": "Example Org", "url": "https://example.org"},
                "version": "1.0.0",
                "documentationUrl": "https://example.org/docs",
                "capabilities": {"streaming": true},
                "defaultInputModes": ["text/plain"],
                "defaultOutputModes": ["text/plain", "application/json"],
                "skills": [{
                    "id": "forecast", "name": "Forecast", "description": "Forecasts.",
                    "tags": ["weather"], "examples": ["weather in Paris?"],
                    "outputModes": ["application/json"]
                }]
            })
        );
    }
}
