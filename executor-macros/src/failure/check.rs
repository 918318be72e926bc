//! Rules that look at more than one node: a variant against the enum's defaults, or variants
//! against each other (serde's `check.rs`). Each rule reports every violation it finds.

use std::collections::HashMap;

use super::model::{FailureType, MAX_CODE_LEN, Shape, Variant, is_valid_code, snake_case};
use super::parse::Class;
use crate::diag::Errors;

pub fn check_type(model: &FailureType<'_>, errors: &mut Errors) {
    check_codes_valid(model, errors);
    check_duplicate_codes(model, errors);
    check_retry_after_class(model, errors);
    check_data_fields(model, errors);
    check_data_redact(model, errors);
    check_skip_without_data(model, errors);
}

/// Every code, written or derived from the variant's name, is lowercase `snake_case`: codes are
/// matched by programs (a client's `match`, a dashboard's filter) and must not need escaping
/// in any transport.
fn check_codes_valid(model: &FailureType<'_>, errors: &mut Errors) {
    let rule =
        format!("a letter `a-z`, then `a-z`, `0-9` or `_`, at most {MAX_CODE_LEN} characters");
    for variant in &model.variants {
        let code = &variant.settings.code;
        if is_valid_code(code) {
            continue;
        }
        let message = if variant.attr.code.is_some() {
            let suggestion = snake_case(code).replace(|c: char| !c.is_ascii_alphanumeric(), "_");
            let example = if is_valid_code(&suggestion) {
                suggestion
            } else {
                "not_found".to_owned()
            };
            format!(
                "invalid failure code `{code}`; a code is lowercase snake_case ({rule}), e.g. `code = \"{example}\"`"
            )
        } else {
            format!(
                "the code derived from `{}` would be `{code}`, which is not lowercase snake_case ({rule}); \
                 name it with `#[failure(code = \"…\")]`",
                variant.ident
            )
        };
        errors.at(variant.settings.code_span, message);
    }
}

/// Two variants with one code would be indistinguishable to a client.
fn check_duplicate_codes(model: &FailureType<'_>, errors: &mut Errors) {
    let mut seen: HashMap<&str, &Variant<'_>> = HashMap::new();
    for variant in &model.variants {
        let code = variant.settings.code.as_str();
        if let Some(first) = seen.get(code) {
            errors.at(
                variant.settings.code_span,
                format!(
                    "variants `{}` and `{}` both have failure code `{code}`; give one of them another with `#[failure(code = \"…\")]`",
                    first.ident, variant.ident
                ),
            );
        } else {
            seen.insert(code, variant);
        }
    }
}

/// A retry hint only means something on an ordinary failure: a terminal one is never retried
/// and an unhandled one goes to a fallback executor.
fn check_retry_after_class(model: &FailureType<'_>, errors: &mut Errors) {
    let defaults = &model.defaults;
    if let (Some((_, lit)), Some((class, _))) = (&defaults.retry_after, &defaults.class) {
        // The enum's hint is a default for the variants that opt back into `ordinary`.
        let used = model
            .variants
            .iter()
            .any(|v| v.settings.class == Class::Ordinary && v.attr.retry_after.is_none());
        if *class != Class::Ordinary && !used {
            errors.at(
                lit.span(),
                format!(
                    "`retry_after` is never used here: the enum is `{}` and no variant is `ordinary`, \
                     and only ordinary failures are retried; remove it, or put it on the variants that retry",
                    class.name()
                ),
            );
        }
    }
    for variant in &model.variants {
        let Some((_, lit)) = &variant.attr.retry_after else {
            continue;
        };
        let class = variant.settings.class;
        if class == Class::Ordinary {
            continue;
        }
        let origin = if variant.attr.class.is_some() {
            ""
        } else {
            " (inherited from the enum)"
        };
        let what = if model.shape == Shape::Enum {
            "this variant"
        } else {
            "this type"
        };
        let message = format!(
            "`retry_after` is never used: {what} is `{}`{origin}, and only ordinary failures are retried; \
             remove it, or make {what} `ordinary`",
            class.name(),
        );
        errors.at(lit.span(), message);
    }
}

/// An explicit `data` needs a field to serialize.
fn check_data_fields(model: &FailureType<'_>, errors: &mut Errors) {
    for variant in &model.variants {
        let Some(span) = variant.attr.data.filter(|f| f.value).map(|f| f.span) else {
            continue;
        };
        if variant.fields.is_empty() {
            errors.at(
                span,
                format!(
                    "`{}` has no fields for `data` to serialize; remove `data`, or add the fields the client should see",
                    variant.ident
                ),
            );
        } else if variant.data_fields().next().is_none() {
            errors.at(
                span,
                format!(
                    "every field of `{}` is `skip`ped, so `data` would be empty; remove `data` or a `skip`",
                    variant.ident
                ),
            );
        }
    }
}

/// Redaction withholds the message and drops data; asking for both is a contradiction that
/// would silently send nothing.
fn check_data_redact(model: &FailureType<'_>, errors: &mut Errors) {
    let defaults = &model.defaults;
    if let (Some(data), Some(redact)) = (defaults.data, defaults.redact)
        && data.value
        && redact.value
    {
        errors.at(
            data.span,
            "`data` and `redact` on the enum contradict each other: a redacted failure drops its data; \
             keep one, and put the other on the variants that need it",
        );
    }
    for variant in &model.variants {
        let (settings, own) = (&variant.settings, &variant.attr);
        let own_span = own
            .data
            .map(|f| f.span)
            .or(own.redact.map(|f| f.span))
            .or(own.kind.as_ref().map(|(_, k)| k.span()));
        let Some(span) = own_span.filter(|_| settings.data && settings.redact) else {
            continue;
        };
        let why = if own.redact.is_some() {
            "it is `redact`"
        } else if defaults.redact.is_some() {
            "it inherits `redact` from the enum"
        } else {
            "`kind = internal` is redacted unless it says `redact = false`"
        };
        errors.at(
            span,
            format!(
                "`{}` would send no `data`: {why}, and a redacted failure drops its data; \
                 remove `data`, or write `redact = false`",
                variant.ident
            ),
        );
    }
}

/// `skip` only shapes `data`; on a variant without data it is a mistake (often a `data`
/// forgotten, or a `redact` that dropped it).
fn check_skip_without_data(model: &FailureType<'_>, errors: &mut Errors) {
    for variant in &model.variants {
        let requested = variant
            .attr
            .data
            .or(model.defaults.data)
            .is_some_and(|f| f.value);
        if requested {
            continue;
        }
        for field in variant.field_attrs.iter().filter_map(|f| f.skip) {
            errors.at(
                field,
                format!(
                    "`skip` has no effect: `{}` does not attach `data`; remove `skip`, or add `#[failure(data)]`",
                    variant.ident
                ),
            );
        }
    }
}
