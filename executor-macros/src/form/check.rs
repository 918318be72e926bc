//! Rules across a form's fields, one commented function per rule.

use super::model::{FormType, Shape};
use crate::diag::Errors;

/// Every rule, in order.
pub fn check_type(model: &FormType<'_>, errors: &mut Errors) {
    match &model.shape {
        Shape::Form(fields) => {
            check_secrets(fields, errors);
            check_formats(fields, errors);
            check_style_on_choices(model, errors);
        }
        Shape::Choice(choices) => check_unique_values(choices, errors),
    }
}

/// `untitled` and `enum_names` say how a choice enum's choices are written; a form struct has
/// none.
fn check_style_on_choices(model: &FormType<'_>, errors: &mut Errors) {
    if let Some((_, span)) = model.style {
        errors.at(
            span,
            "`untitled` and `enum_names` go on a choice enum (`#[derive(Form)] enum …`), not on \
             a form struct",
        );
    }
}

/// Words that name a secret when they are a whole word of a field's name.
const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "pwd",
    "secret",
    "token",
    "key",
    "apikey",
    "credential",
    "credentials",
    "pin",
    "otp",
    "cvv",
    "cvc",
    "ssn",
];

/// Form mode must never ask for a secret (the client, and every hop between it and the
/// server, reads the answer): a field named like one is refused, pointing to URL mode.
/// `#[form(not_secret)]` keeps a field whose name only looks like one (`sort_key`).
fn check_secrets(fields: &[super::model::FormField<'_>], errors: &mut Errors) {
    for field in fields {
        if field.attr.not_secret.is_some() {
            continue;
        }
        let lower = field.name.to_ascii_lowercase();
        let secret = lower.split('_').any(|word| SECRET_WORDS.contains(&word))
            || ["password", "secret", "token", "apikey"]
                .iter()
                .any(|w| lower.contains(w));
        if secret {
            errors.spanned(
                field.ident,
                format!(
                    "`{}` looks like a secret, and form mode must never ask for one (the client \
                     and every hop can read the answer); send the user to your own page with \
                     `ctx.elicit_url(message, url)`, or mark the field `#[form(not_secret)]` if \
                     it is not a secret",
                    field.name
                ),
            );
        }
    }
}

/// `format` takes the four words form mode has.
fn check_formats(fields: &[super::model::FormField<'_>], errors: &mut Errors) {
    const FORMATS: &[&str] = &["email", "uri", "date", "date-time"];
    for field in fields {
        if let Some(format) = &field.attr.format
            && !FORMATS.contains(&format.value.value().as_str())
        {
            errors.spanned(
                &format.value,
                format!(
                    "unknown format `{}`; form mode has `email`, `uri`, `date` and `date-time`",
                    format.value.value()
                ),
            );
        }
    }
}

/// Two variants with one value could not be told apart in an answer.
fn check_unique_values(choices: &[super::model::Choice<'_>], errors: &mut Errors) {
    for (i, choice) in choices.iter().enumerate() {
        if let Some(first) = choices[..i].iter().find(|c| c.value == choice.value) {
            errors.spanned(
                choice.ident,
                format!(
                    "`{}` has the value `{}` of `{}`; give one of them `#[form(value = \"…\")]`",
                    choice.ident, choice.value, first.ident
                ),
            );
        }
    }
}
