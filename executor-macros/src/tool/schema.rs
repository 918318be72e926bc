//! Compile-time schemas for types the macro can see through: primitives, `String`/`str`,
//! `Cow<str>`, `Option<T>`, `Vec<T>` and slices of those. The JSON is what schemars 1.x emits
//! for the same types (a test in tool-executor compares them), so a literal and a runtime
//! schema never disagree.

use syn::{GenericArgument, PathArguments, Type};

/// The JSON text of `ty`'s schema, or `None` when only schemars can tell.
pub fn literal(ty: &Type) -> Option<String> {
    match ty {
        Type::Reference(r) => match &*r.elem {
            Type::Slice(s) => array(&s.elem),
            elem => literal(elem),
        },
        Type::Slice(s) => array(&s.elem),
        Type::Paren(p) => literal(&p.elem),
        Type::Group(g) => literal(&g.elem),
        Type::Tuple(t) if t.elems.is_empty() => Some(r#"{"type":"null"}"#.to_owned()),
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            match &last.arguments {
                PathArguments::None => primitive(&name).map(str::to_owned),
                PathArguments::AngleBracketed(args) => {
                    let types: Vec<&Type> = args
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            GenericArgument::Type(t) => Some(t),
                            _ => None,
                        })
                        .collect();
                    match (name.as_str(), types.as_slice()) {
                        ("Option", [inner]) => nullable(inner),
                        ("Vec", [inner]) => array(inner),
                        ("Cow" | "Box", [inner]) => literal(inner),
                        _ => None,
                    }
                }
                PathArguments::Parenthesized(_) => None,
            }
        }
        _ => None,
    }
}

fn primitive(name: &str) -> Option<&'static str> {
    Some(match name {
        "bool" => r#"{"type":"boolean"}"#,
        "String" | "str" => r#"{"type":"string"}"#,
        "i8" => r#"{"type":"integer","format":"int8","minimum":-128,"maximum":127}"#,
        "i16" => r#"{"type":"integer","format":"int16","minimum":-32768,"maximum":32767}"#,
        "i32" => r#"{"type":"integer","format":"int32"}"#,
        "i64" => r#"{"type":"integer","format":"int64"}"#,
        "isize" => r#"{"type":"integer","format":"int"}"#,
        "u8" => r#"{"type":"integer","format":"uint8","minimum":0,"maximum":255}"#,
        "u16" => r#"{"type":"integer","format":"uint16","minimum":0,"maximum":65535}"#,
        "u32" => r#"{"type":"integer","format":"uint32","minimum":0}"#,
        "u64" => r#"{"type":"integer","format":"uint64","minimum":0}"#,
        "usize" => r#"{"type":"integer","format":"uint","minimum":0}"#,
        "f32" => r#"{"type":"number","format":"float"}"#,
        "f64" => r#"{"type":"number","format":"double"}"#,
        _ => return None,
    })
}

fn array(item: &Type) -> Option<String> {
    Some(format!(r#"{{"type":"array","items":{}}}"#, literal(item)?))
}

/// schemars' `allow_null` for the schemas this module writes: `"type"` grows a `"null"`
/// (`anyOf` is only used for schemas with `anyOf`/`oneOf`/`allOf`/`$ref`, which these are not).
fn nullable(inner: &Type) -> Option<String> {
    let schema = literal(inner)?;
    // Already nullable at the top (`Option<Option<T>>`); a `null` deeper down does not count.
    if schema.starts_with(r#"{"type":["#) {
        return Some(schema);
    }
    let start = schema.find(r#""type":""#)? + r#""type":"#.len();
    let end = start + schema[start + 1..].find('"')? + 2;
    Some(format!(
        "{}[{},\"null\"]{}",
        &schema[..start],
        &schema[start..end],
        &schema[end..]
    ))
}

/// Adds `"description"` to an object schema literal.
pub fn with_description(schema: &str, description: Option<&str>) -> String {
    match description {
        Some(text) => format!(
            "{},\"description\":{}}}",
            &schema[..schema.len() - 1],
            crate::util::json_string(text)
        ),
        None => schema.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(ty: &str) -> Option<String> {
        literal(&syn::parse_str(ty).unwrap())
    }

    #[test]
    fn shapes() {
        assert_eq!(
            lit("u32").unwrap(),
            r#"{"type":"integer","format":"uint32","minimum":0}"#
        );
        assert_eq!(
            lit("Option<u32>").unwrap(),
            r#"{"type":["integer","null"],"format":"uint32","minimum":0}"#
        );
        assert_eq!(
            lit("Option<Vec<String>>").unwrap(),
            r#"{"type":["array","null"],"items":{"type":"string"}}"#
        );
        assert_eq!(
            lit("&'a [&str]").unwrap(),
            r#"{"type":"array","items":{"type":"string"}}"#
        );
        assert_eq!(
            lit("Option<Option<bool>>").unwrap(),
            r#"{"type":["boolean","null"]}"#
        );
        assert_eq!(
            lit("Option<Vec<Option<bool>>>").unwrap(),
            r#"{"type":["array","null"],"items":{"type":["boolean","null"]}}"#
        );
        assert!(lit("Unit").is_none());
        assert!(lit("HashMap<String, u8>").is_none());
    }
}
