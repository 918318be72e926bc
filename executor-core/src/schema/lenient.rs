//! Reading a value as its schema allows: the argument decoder's second try (issue 22, point 6).
//!
//! A tool's arguments decode straight from the request JSON. When that fails, the decoder reads
//! the value again through [`Lenient`], a `serde::Deserializer` over the same `&Value` guided by
//! the tool's input schema, which accepts two things the schema accepts and serde does not:
//!
//! - a `null` for a property that is not `required` and whose schema does not accept `null`
//!   means the property is absent (OpenAI strict makes every optional property
//!   required-and-nullable, which invites `"genres": null` for a `#[serde(default)]` field);
//! - a whole float (`2.0`, within ±2^53 where a double is exact) where the schema says
//!   `integer` is that integer (JSON Schema counts `2.0` as an integer).
//!
//! It reads the request in place (strings still borrow from it) and runs only after a failure,
//! so a call whose arguments decode the first time never runs it. Where the schema says
//! nothing clear (an unresolvable `$ref`, a schema that accepts anything), the value is read as
//! sent: the rules only ever relax a position the schema describes.

use serde::de::value::StrDeserializer;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
    Unexpected, VariantAccess, Visitor,
};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Number, Value};

/// How deep `$ref`s and `anyOf`/`oneOf`/`allOf` are followed from one position: schemars'
/// schemas nest a few levels, and a cycle of `$ref`s stops here.
const MAX_DEPTH: usize = 16;

/// A position in a schema: the root (for `$ref`) and the subschema there, when known.
#[derive(Clone, Copy)]
pub(crate) struct Node<'s> {
    root: &'s Value,
    at: Option<&'s Value>,
}

impl<'s> Node<'s> {
    /// Property `name` of the object schema `root` (a tool's input schema and an argument).
    pub(crate) fn property(root: &'s Value, name: &str) -> Self {
        Self {
            root,
            at: Some(root),
        }
        .member(name)
        .0
    }

    /// No schema: values are read as sent, except that nothing is relaxed.
    pub(crate) const NONE: Node<'static> = Node {
        root: &Value::Null,
        at: None,
    };

    fn resolve(self, schema: &'s Value) -> Option<&'s Value> {
        let mut schema = schema;
        for _ in 0..MAX_DEPTH {
            match schema.get("$ref").and_then(Value::as_str) {
                Some(reference) => schema = self.root.pointer(reference.strip_prefix('#')?)?,
                None => return Some(schema),
            }
        }
        None
    }

    /// The schema here and every `anyOf`/`oneOf`/`allOf` member, `$ref`s resolved.
    fn branches(self) -> Vec<&'s Value> {
        fn walk<'s>(node: Node<'s>, schema: &'s Value, depth: usize, out: &mut Vec<&'s Value>) {
            let Some(schema) = node.resolve(schema) else {
                return;
            };
            if depth >= MAX_DEPTH || out.len() >= 64 {
                return;
            }
            out.push(schema);
            for key in ["anyOf", "oneOf", "allOf"] {
                for member in schema
                    .get(key)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    walk(node, member, depth + 1, out);
                }
            }
        }
        let mut out = Vec::new();
        if let Some(schema) = self.at {
            walk(self, schema, 0, &mut out);
        }
        out
    }

    /// The schema of member `key` of an object here, and whether a `null` there means absent:
    /// some branch declares `key`, none requires it, and none of their schemas accepts `null`.
    fn member(self, key: &str) -> (Self, bool) {
        let mut child = None;
        let (mut declared, mut required, mut nullable) = (false, false, false);
        let branches = self.branches();
        for branch in &branches {
            if let Some(schema) = branch.get("properties").and_then(|p| p.get(key)) {
                declared = true;
                child.get_or_insert(schema);
                nullable |= self.accepts_null(schema, 0);
            }
            required |= branch
                .get("required")
                .and_then(Value::as_array)
                .is_some_and(|names| names.iter().any(|n| n == key));
        }
        if child.is_none() {
            child = branches.iter().find_map(|b| {
                b.get("additionalProperties")
                    .filter(|s| s.is_object() || s.is_boolean())
            });
        }
        let node = Self {
            root: self.root,
            at: child,
        };
        (node, declared && !required && !nullable)
    }

    /// The schema of item `index` of an array here.
    fn item(self, index: usize) -> Self {
        let at = self.at.and_then(|_| {
            self.branches().into_iter().find_map(|branch| {
                branch
                    .get("prefixItems")
                    .and_then(|items| items.get(index))
                    .or_else(|| branch.get("items").filter(|s| !s.is_array()))
            })
        });
        Self {
            root: self.root,
            at,
        }
    }

    /// Whether the schema here says `integer` (in any branch).
    fn accepts_integer(self) -> bool {
        self.at.is_some()
            && self
                .branches()
                .iter()
                .any(|branch| match branch.get("type") {
                    Some(Value::String(t)) => t == "integer",
                    Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
                    _ => false,
                })
    }

    /// Whether `schema` accepts `null`; when unsure, yes (the `null` is then read as sent).
    fn accepts_null(self, schema: &'s Value, depth: usize) -> bool {
        let Value::Object(map) = schema else {
            return schema != &Value::Bool(false);
        };
        if depth >= MAX_DEPTH || map.get("nullable") == Some(&Value::Bool(true)) {
            return true;
        }
        if map.contains_key("$ref") {
            return self
                .resolve(schema)
                .is_none_or(|target| self.accepts_null(target, depth + 1));
        }
        let all = |key: &str| {
            map.get(key)
                .and_then(Value::as_array)
                .is_none_or(|members| members.iter().all(|m| self.accepts_null(m, depth + 1)))
        };
        let any = |key: &str| {
            map.get(key)
                .and_then(Value::as_array)
                .is_none_or(|members| members.iter().any(|m| self.accepts_null(m, depth + 1)))
        };
        let typed = match map.get("type") {
            Some(Value::String(t)) => t == "null",
            Some(Value::Array(types)) => types.iter().any(|t| t == "null"),
            _ => true,
        };
        let constant = map.get("const").is_none_or(Value::is_null);
        let listed = map
            .get("enum")
            .and_then(Value::as_array)
            .is_none_or(|values| values.iter().any(Value::is_null));
        typed && constant && listed && any("anyOf") && any("oneOf") && all("allOf")
    }
}

/// `value` read as `node` allows (the module's two rules), everything else as
/// `serde_json`'s `&Value` reads it, with the same errors.
pub(crate) struct Lenient<'de, 's> {
    value: &'de Value,
    node: Node<'s>,
}

impl<'de, 's> Lenient<'de, 's> {
    pub(crate) fn new(value: &'de Value, node: Node<'s>) -> Self {
        Self { value, node }
    }

    /// A whole float where the schema says integer, as that integer.
    fn integer(&self) -> Option<Number> {
        const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
        let f = self.value.as_f64().filter(|_| self.value.is_f64())?;
        if f.fract() != 0.0 || f.abs() > EXACT || !self.node.accepts_integer() {
            return None;
        }
        // In range and whole, so the casts are exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(if f >= 0.0 {
            Number::from(f as u64)
        } else {
            Number::from(f as i64)
        })
    }
}

macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.integer() {
                Some(n) => n.$method(visitor),
                None => self.value.$method(visitor),
            }
        }
    )*};
}

macro_rules! as_sent {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.value.$method(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Lenient<'de, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) => visit_array(items, self.node, visitor),
            Value::Object(map) => visit_object(map, self.node, visitor),
            Value::Number(_) => match self.integer() {
                Some(n) => n.deserialize_any(visitor),
                None => self.value.deserialize_any(visitor),
            },
            other => other.deserialize_any(visitor),
        }
    }

    numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    }

    as_sent! {
        deserialize_bool deserialize_char deserialize_str deserialize_string deserialize_bytes
        deserialize_byte_buf deserialize_unit deserialize_identifier deserialize_ignored_any
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.value.deserialize_unit_struct(name, visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) => visit_array(items, self.node, visitor),
            other => other.deserialize_seq(visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => visit_object(map, self.node, visitor),
            other => other.deserialize_map(visitor),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) => visit_array(items, self.node, visitor),
            Value::Object(map) => visit_object(map, self.node, visitor),
            other => other.deserialize_struct(name, fields, visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) if map.len() == 1 => {
                let Some((variant, value)) = map.iter().next() else {
                    unreachable!("an object of one member has a first member")
                };
                let node = self.node.member(variant).0;
                visitor.visit_enum(Variant {
                    name: variant,
                    value,
                    node,
                })
            }
            other => other.deserialize_enum(name, variants, visitor),
        }
    }
}

/// As `serde_json` reads an array: every item, or an error naming how many there were.
fn visit_array<'de, V: Visitor<'de>>(
    items: &'de [Value],
    node: Node<'_>,
    visitor: V,
) -> Result<V::Value, Error> {
    let mut seq = Items {
        items: items.iter().enumerate(),
        node,
    };
    let out = visitor.visit_seq(&mut seq)?;
    if seq.items.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(
            items.len(),
            &"fewer elements in array",
        ))
    }
}

/// As `serde_json` reads an object, without the members whose `null` means absent.
fn visit_object<'de, V: Visitor<'de>>(
    map: &'de Map<String, Value>,
    node: Node<'_>,
    visitor: V,
) -> Result<V::Value, Error> {
    let mut members = Members {
        entries: map.iter(),
        node,
        next: None,
    };
    let out = visitor.visit_map(&mut members)?;
    if members.entries.len() == 0 {
        Ok(out)
    } else {
        Err(de::Error::invalid_length(
            map.len(),
            &"fewer elements in map",
        ))
    }
}

struct Items<'de, 's> {
    items: std::iter::Enumerate<std::slice::Iter<'de, Value>>,
    node: Node<'s>,
}

impl<'de> SeqAccess<'de> for Items<'de, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.items.next() {
            Some((index, value)) => seed
                .deserialize(Lenient::new(value, self.node.item(index)))
                .map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.items.len())
    }
}

struct Members<'de, 's> {
    entries: serde_json::map::Iter<'de>,
    node: Node<'s>,
    next: Option<(&'de Value, Node<'s>)>,
}

impl<'de> MapAccess<'de> for Members<'de, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        for (key, value) in self.entries.by_ref() {
            let (node, absent_when_null) = self.node.member(key);
            if value.is_null() && absent_when_null {
                continue;
            }
            self.next = Some((value, node));
            return seed.deserialize(Key(key)).map(Some);
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.next.take() {
            Some((value, node)) => seed.deserialize(Lenient::new(value, node)),
            None => Err(de::Error::custom("value is missing")),
        }
    }
}

/// An object's key, read as `serde_json` reads keys: a string, or the number or boolean it
/// spells for a map with such keys.
struct Key<'de>(&'de str);

macro_rules! parsed_keys {
    ($($method:ident $visit:ident $ty:ty)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            match self.0.parse::<$ty>() {
                Ok(n) => visitor.$visit(n),
                Err(_) => Err(de::Error::invalid_type(Unexpected::Str(self.0), &visitor)),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.0)
    }

    parsed_keys! {
        deserialize_i8 visit_i8 i8 deserialize_i16 visit_i16 i16 deserialize_i32 visit_i32 i32
        deserialize_i64 visit_i64 i64 deserialize_i128 visit_i128 i128
        deserialize_u8 visit_u8 u8 deserialize_u16 visit_u16 u16 deserialize_u32 visit_u32 u32
        deserialize_u64 visit_u64 u64 deserialize_u128 visit_u128 u128
        deserialize_f32 visit_f32 f32 deserialize_f64 visit_f64 f64
        deserialize_bool visit_bool bool
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let key: StrDeserializer<'de, Error> = self.0.into_deserializer();
        key.deserialize_enum(name, variants, visitor)
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// An externally tagged enum's `{"variant": value}`.
struct Variant<'de, 's> {
    name: &'de str,
    value: &'de Value,
    node: Node<'s>,
}

impl<'de> EnumAccess<'de> for Variant<'de, '_> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let key: StrDeserializer<'de, Error> = self.name.into_deserializer();
        seed.deserialize(key).map(|v| (v, self))
    }
}

impl<'de> VariantAccess<'de> for Variant<'de, '_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(self.value)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(Lenient::new(self.value, self.node))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Value::Array(items) if items.is_empty() => visitor.visit_unit(),
            Value::Array(items) => visit_array(items, self.node, visitor),
            other => Err(de::Error::invalid_type(unexpected(other), &"tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Value::Object(map) => visit_object(map, self.node, visitor),
            other => Err(de::Error::invalid_type(
                unexpected(other),
                &"struct variant",
            )),
        }
    }
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (_, Some(i), _) => Unexpected::Signed(i),
            (_, _, f) => Unexpected::Float(f.unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::json;

    use super::*;

    fn read<'de, T: Deserialize<'de>>(
        value: &'de Value,
        schema: &Value,
        name: &str,
    ) -> Result<T, String> {
        T::deserialize(Lenient::new(value, Node::property(schema, name))).map_err(|e| e.to_string())
    }

    #[test]
    fn nulls_of_optional_properties_are_absent_through_refs() {
        #[derive(Deserialize, Debug, PartialEq)]
        struct Inner {
            #[serde(default)]
            n: u8,
            #[serde(default)]
            m: Option<u8>,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct Outer {
            inner: Inner,
            #[serde(default)]
            list: Vec<Inner>,
        }
        let schema = json!({
            "type": "object",
            "properties": {"o": {"$ref": "#/$defs/Outer"}},
            "required": ["o"],
            "$defs": {
                "Outer": {"type": "object", "properties": {
                    "inner": {"$ref": "#/$defs/Inner"},
                    "list": {"type": "array", "items": {"$ref": "#/$defs/Inner"}}
                }, "required": ["inner"]},
                "Inner": {"type": "object", "properties": {
                    "n": {"type": "integer"}, "m": {"type": ["integer", "null"]}
                }}
            }
        });
        let sent = json!({"inner": {"n": null, "m": null}, "list": [{"n": 2.0}, {"n": null}]});
        assert_eq!(
            read::<Outer>(&sent, &schema, "o"),
            Ok(Outer {
                inner: Inner { n: 0, m: None },
                list: vec![Inner { n: 2, m: None }, Inner { n: 0, m: None }],
            })
        );
        // `inner` is required: its `null` stays, and is refused.
        let sent = json!({"inner": null});
        assert!(read::<Outer>(&sent, &schema, "o").is_err());
    }

    #[test]
    fn whole_floats_are_integers_only_where_the_schema_says_integer() {
        let schema = json!({"properties": {
            "i": {"type": "integer"}, "f": {"type": "number"}, "v": true
        }});
        assert_eq!(read::<u8>(&json!(3.0), &schema, "i"), Ok(3));
        assert!(read::<u8>(&json!(3.5), &schema, "i").is_err());
        assert_eq!(read::<Value>(&json!(3.0), &schema, "f"), Ok(json!(3.0)));
        assert_eq!(read::<Value>(&json!(3.0), &schema, "v"), Ok(json!(3.0)));
        assert_eq!(read::<Value>(&json!(3.0), &schema, "i"), Ok(json!(3)));
    }

    #[test]
    fn null_acceptance_follows_the_schema() {
        let node = Node::NONE;
        for (schema, accepts) in [
            (json!({"type": "string"}), false),
            (json!({"type": ["string", "null"]}), true),
            (
                json!({"anyOf": [{"type": "string"}, {"type": "null"}]}),
                true,
            ),
            (
                json!({"oneOf": [{"type": "string"}, {"type": "integer"}]}),
                false,
            ),
            (json!({"allOf": [{"type": "string"}]}), false),
            (json!({"enum": ["a", null]}), true),
            (json!({"const": "a"}), false),
            (json!({}), true),
            (json!(true), true),
            (json!({"$ref": "#/nowhere"}), true),
        ] {
            assert_eq!(node.accepts_null(&schema, 0), accepts, "{schema}");
        }
    }
}
