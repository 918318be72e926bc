//! A server's questions (`elicitation/create`) as the application's [`Question`]s, and the
//! application's [`Reply`] as the `ElicitResult`, with the form's defaults filled in
//! (SEP-1034: a field the answer leaves out takes its schema's `default`).

use serde_json::{Map, Value, json};

use crate::elicit::{Action, Question, Reply};

/// The question `params` (an `elicitation/create` request's params) asks.
pub(super) fn question(params: &Value) -> Result<Question, String> {
    let message = params["message"].as_str().unwrap_or_default().to_owned();
    match params["mode"].as_str() {
        Some("url") => match params["url"].as_str() {
            Some(url) => Ok(Question::Url {
                message,
                url: url.to_owned(),
            }),
            None => Err("a URL-mode elicitation without a url".to_owned()),
        },
        None | Some("form") => match params.get("requestedSchema") {
            Some(schema) if schema.is_object() => Ok(Question::Form {
                message,
                schema: schema.clone(),
            }),
            _ => Err("a form-mode elicitation without a requestedSchema object".to_owned()),
        },
        Some(other) => Err(format!("unknown elicitation mode `{other}`")),
    }
}

/// `reply` as an `ElicitResult`: an accepted form's content completed with the `default` of
/// each property of `schema` it leaves out.
pub(super) fn answer(reply: Reply, schema: Option<&Value>) -> Value {
    let action = match reply.action {
        Action::Accept => "accept",
        Action::Decline => "decline",
        Action::Cancel => "cancel",
    };
    if reply.action != Action::Accept {
        return json!({ "action": action });
    }
    let mut content = reply.content.unwrap_or_default();
    if let Some(properties) = schema.and_then(|s| s["properties"].as_object()) {
        with_defaults(&mut content, properties);
    }
    json!({ "action": action, "content": content })
}

fn with_defaults(content: &mut Map<String, Value>, properties: &Map<String, Value>) {
    for (name, property) in properties {
        if let Some(default) = property.get("default")
            && content.get(name).is_none_or(Value::is_null)
        {
            content.insert(name.clone(), default.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_accepted_form_gets_the_defaults_it_leaves_out() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "Ada"},
            "age": {"type": "integer", "default": 36},
            "tier": {"type": "string", "enum": ["a", "b"], "default": "b"},
            "note": {"type": "string"},
        }});
        let reply = Reply {
            action: Action::Accept,
            content: Some(
                json!({"age": 7, "tier": null})
                    .as_object()
                    .cloned()
                    .unwrap(),
            ),
        };
        assert_eq!(
            answer(reply, Some(&schema)),
            json!({"action": "accept", "content": {"name": "Ada", "age": 7, "tier": "b"}})
        );
        let declined = Reply {
            action: Action::Decline,
            content: None,
        };
        assert_eq!(
            answer(declined, Some(&schema)),
            json!({"action": "decline"})
        );
    }

    #[test]
    fn questions_by_mode() {
        let form =
            json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {}}});
        assert!(matches!(question(&form), Ok(Question::Form { .. })));
        let url = json!({"mode": "url", "message": "Pay", "url": "https://pay.example", "elicitationId": "1"});
        assert!(matches!(question(&url), Ok(Question::Url { .. })));
        assert!(question(&json!({"mode": "url", "message": "x"})).is_err());
        assert!(question(&json!({"mode": "voice"})).is_err());
    }
}
