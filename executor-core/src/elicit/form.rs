//! Form types: what `#[derive(Form)]` implements, the field types a form may hold, and the one
//! check of an answer against the form's schema.
//!
//! MCP's form mode asks for a flat object of primitives (a string with length bounds and a
//! `format`, a number or integer with bounds, a boolean, one choice or several), each with an
//! optional `default` (SEP-1034). A field type outside that list is a compile error at the
//! field: [`FormField`] is implemented only for the types form mode can express.

use std::marker::PhantomData;

use serde_json::{Map, Value, json};

use super::answer::FormError;

/// A type the user can be asked for in one form: a struct of [`FormField`]s or a choice enum.
/// Derive it (`#[derive(Form)]`); [`ToolContext::elicit`](crate::ToolContext::elicit) sends
/// its [`schema`](Form::schema) and decodes the answer with [`decode`](Form::decode).
pub trait Form: Sized {
    /// The form's fields, in declaration order.
    fn fields() -> Vec<Field>;

    /// Builds the value from answers already checked against [`fields`](Form::fields).
    ///
    /// # Errors
    /// A [`FormError`] naming the field whose answer does not decode.
    fn from_answers(answers: &Answers<'_>) -> Result<Self, FormError>;

    /// The `requestedSchema` of an `elicitation/create`: `{type: "object", properties,
    /// required}`.
    #[must_use]
    fn schema() -> Value {
        schema_of(&Self::fields())
    }

    /// Checks the content of an accepted answer against the form and builds the value.
    ///
    /// # Errors
    /// A [`FormError`] naming the first field that is missing, of the wrong type or out of
    /// its bounds.
    fn decode(content: &Map<String, Value>) -> Result<Self, FormError> {
        let fields = Self::fields();
        for field in &fields {
            field.check(content.get(&field.name))?;
        }
        Self::from_answers(&Answers {
            content,
            fields: &fields,
        })
    }
}

/// The `requestedSchema` for `fields`.
#[must_use]
pub(crate) fn schema_of(fields: &[Field]) -> Value {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|f| (f.name.clone(), Value::Object(f.schema.clone())))
        .collect();
    let required: Vec<Value> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| Value::String(f.name.clone()))
        .collect();
    let mut schema = json!({ "type": "object", "properties": properties });
    if !required.is_empty() {
        schema["required"] = Value::Array(required);
    }
    schema
}

/// One field of a form: its name, its property schema and whether an answer must carry it.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    name: String,
    schema: Map<String, Value>,
    required: bool,
}

impl Field {
    /// A field named `name` of type `T`, described by chained settings
    /// ([`title`](FieldBuilder::title), [`min_length`](FieldBuilder::min_length), …).
    pub fn of<T: FormField>(name: &str) -> FieldBuilder<T> {
        FieldBuilder {
            field: Field {
                name: name.to_owned(),
                schema: T::schema(),
                required: !T::OPTIONAL,
            },
            _type: PhantomData,
        }
    }

    /// The field's name in the form.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The field's property schema.
    #[must_use]
    pub fn schema(&self) -> &Map<String, Value> {
        &self.schema
    }

    /// Checks one answer against the field's schema: presence, type, bounds, choices.
    fn check(&self, value: Option<&Value>) -> Result<(), FormError> {
        let value = match value {
            None | Some(Value::Null) if self.required => {
                return Err(FormError::new(&self.name, "the answer has no value for it"));
            }
            None | Some(Value::Null) => return Ok(()),
            Some(value) => value,
        };
        check_value(&self.schema, value).map_err(|why| FormError::new(&self.name, why))
    }
}

/// One property schema against one value: the rules form mode has (type, length, bounds,
/// choices, item counts). `format` is the client's to enforce; it is not checked here.
fn check_value(schema: &Map<String, Value>, value: &Value) -> Result<(), String> {
    let kind = schema.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "string" => {
            let text = value
                .as_str()
                .ok_or_else(|| format!("expected a string, got {}", json_word(value)))?;
            let chars = text.chars().count() as u64;
            bound(schema, "minLength", |min| {
                chars >= min.as_u64().unwrap_or(0)
            })
            .map_err(|min| format!("expected at least {min} characters, got {chars}"))?;
            bound(schema, "maxLength", |max| {
                chars <= max.as_u64().unwrap_or(u64::MAX)
            })
            .map_err(|max| format!("expected at most {max} characters, got {chars}"))?;
            check_choice(schema, text)
        }
        "integer" | "number" => {
            let number = value
                .as_f64()
                .ok_or_else(|| format!("expected a {kind}, got {}", json_word(value)))?;
            if kind == "integer" && number.fract() != 0.0 {
                return Err(format!("expected an integer, got {value}"));
            }
            bound(schema, "minimum", |min| {
                number >= min.as_f64().unwrap_or(f64::MIN)
            })
            .map_err(|min| format!("expected at least {min}, got {value}"))?;
            bound(schema, "maximum", |max| {
                number <= max.as_f64().unwrap_or(f64::MAX)
            })
            .map_err(|max| format!("expected at most {max}, got {value}"))
        }
        "boolean" if value.is_boolean() => Ok(()),
        "boolean" => Err(format!("expected a boolean, got {}", json_word(value))),
        "array" => {
            let items = value
                .as_array()
                .ok_or_else(|| format!("expected an array, got {}", json_word(value)))?;
            let count = items.len() as u64;
            bound(schema, "minItems", |min| count >= min.as_u64().unwrap_or(0))
                .map_err(|min| format!("expected at least {min} choices, got {count}"))?;
            bound(schema, "maxItems", |max| {
                count <= max.as_u64().unwrap_or(u64::MAX)
            })
            .map_err(|max| format!("expected at most {max} choices, got {count}"))?;
            let item_schema = schema.get("items").and_then(Value::as_object);
            for item in items {
                let text = item
                    .as_str()
                    .ok_or_else(|| format!("expected strings, got {}", json_word(item)))?;
                if let Some(item_schema) = item_schema {
                    check_choice(item_schema, text)?;
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `Err(limit)` when the schema has `key` and `ok` refuses it.
fn bound(schema: &Map<String, Value>, key: &str, ok: impl Fn(&Value) -> bool) -> Result<(), Value> {
    match schema.get(key) {
        Some(limit) if !ok(limit) => Err(limit.clone()),
        _ => Ok(()),
    }
}

/// A string against the choices of `oneOf`/`anyOf`/`enum`, when the schema has any.
fn check_choice(schema: &Map<String, Value>, text: &str) -> Result<(), String> {
    let Some(allowed) = choices_of(schema) else {
        return Ok(());
    };
    if allowed.contains(&text) {
        return Ok(());
    }
    Err(format!(
        "`{text}` is not one of the choices: {}",
        allowed
            .iter()
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn choices_of(schema: &Map<String, Value>) -> Option<Vec<&str>> {
    if let Some(list) = schema.get("enum").and_then(Value::as_array) {
        return Some(list.iter().filter_map(Value::as_str).collect());
    }
    let list = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)?;
    Some(
        list.iter()
            .filter_map(|c| c.get("const").and_then(Value::as_str))
            .collect(),
    )
}

/// A JSON value's type in JSON words, for messages.
fn json_word(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A [`Field`] being described: the settings a field of type `T` may take. A setting that
/// does not apply to `T` (`min_length` on an integer) is a compile error naming the setting
/// that does.
#[derive(Debug)]
#[must_use]
pub struct FieldBuilder<T> {
    field: Field,
    _type: PhantomData<fn() -> T>,
}

// No `FormField` bound on the builder itself: a field type that is not a form field is
// reported once, where the derive names `<Type as FormField>`, and not again at each setting.
impl<T> FieldBuilder<T> {
    fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.field.schema.insert(key.to_owned(), value.into());
        self
    }

    /// The label a client shows.
    pub fn title(self, title: &str) -> Self {
        self.set("title", title)
    }

    /// The help text a client shows (the field's doc comment).
    pub fn description(self, description: &str) -> Self {
        self.set("description", description)
    }

    /// The value a client pre-fills (SEP-1034); the field becomes optional, and an answer
    /// without it decodes to this value.
    #[allow(clippy::needless_pass_by_value)] // by value, so `default = 1` infers the field's type
    pub fn default_value(mut self, value: T::Plain) -> Self
    where
        T: FormField,
    {
        let value = T::plain_json(&value);
        self.field.required = false;
        self.set("default", value)
    }

    /// The finished field.
    #[must_use]
    pub fn build(self) -> Field {
        self.field
    }
}

// The bounds sit on each method, not on the `impl`, so a setting on the wrong type is a
// failed trait bound (E0277, with the trait's message naming the right setting) rather than
// "method not found".
impl<T> FieldBuilder<T> {
    /// The fewest characters the answer may have.
    pub fn min_length(self, n: u64) -> Self
    where
        T: TextField,
    {
        self.set("minLength", n)
    }

    /// The most characters the answer may have.
    pub fn max_length(self, n: u64) -> Self
    where
        T: TextField,
    {
        self.set("maxLength", n)
    }

    /// `email`, `uri`, `date` or `date-time` (the macro checks the word).
    pub fn format(self, format: &str) -> Self
    where
        T: TextField,
    {
        self.set("format", format)
    }

    /// The smallest value the answer may have.
    pub fn minimum(self, min: impl Bound) -> Self
    where
        T: NumberField,
    {
        self.set("minimum", min.to_json())
    }

    /// The largest value the answer may have.
    pub fn maximum(self, max: impl Bound) -> Self
    where
        T: NumberField,
    {
        self.set("maximum", max.to_json())
    }

    /// The fewest choices the answer may pick.
    pub fn min_items(self, n: u64) -> Self
    where
        T: ChoicesField,
    {
        self.set("minItems", n)
    }

    /// The most choices the answer may pick.
    pub fn max_items(self, n: u64) -> Self
    where
        T: ChoicesField,
    {
        self.set("maxItems", n)
    }
}

/// A number written as a bound (`min = 0`, `max = 2.5`).
pub trait Bound: Copy {
    /// The bound as JSON.
    fn to_json(self) -> Value;
}

macro_rules! bounds {
    ($($ty:ty),*) => {$(
        impl Bound for $ty {
            fn to_json(self) -> Value {
                Value::from(self)
            }
        }
    )*};
}
bounds!(i32, i64, u32, u64, f32, f64);

/// The answers of one accepted form, checked against its fields: what a derived
/// [`Form::from_answers`] reads each field from.
#[derive(Debug)]
pub struct Answers<'a> {
    content: &'a Map<String, Value>,
    fields: &'a [Field],
}

impl Answers<'_> {
    /// The answer for field `name`, or the field's default when the answer has none.
    ///
    /// # Errors
    /// A [`FormError`] when the value does not decode as `T`.
    pub fn take<T: FormField>(&self, name: &str) -> Result<T, FormError> {
        let given = self.content.get(name).filter(|v| !v.is_null());
        let default = || {
            self.fields
                .iter()
                .find(|f| f.name == name)
                .and_then(|f| f.schema.get("default"))
        };
        T::decode(given.or_else(default)).map_err(|why| FormError::new(name, why))
    }
}

/// A type one form field can hold: `String`, `bool`, an integer, `f64`/`f32`, a choice enum
/// deriving `Form`, `Vec` of one (several choices), or `Option` of any of these.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a form field",
    label = "not a string, number, integer, boolean or choice",
    note = "form mode asks for a flat object of primitives: use `String`, `bool`, an integer, \
            `f64`, an enum deriving `Form` (one choice), `Vec` of such an enum (several \
            choices), or an `Option` of one of these",
    note = "for a nested struct, put its fields in this form (or ask a second form); a map \
            cannot be asked: ask for the keys you need as fields"
)]
pub trait FormField: Sized {
    /// The type without `Option`: what a `default` is given as.
    type Plain;
    /// Whether an answer may leave the field out (`Option`).
    const OPTIONAL: bool = false;
    /// The property schema: `type` and, for choices, the choices.
    fn schema() -> Map<String, Value>;
    /// The value from an answer (`None`: the answer has none and the field has no default).
    ///
    /// # Errors
    /// Why the value is not of this type, in JSON words.
    fn decode(value: Option<&Value>) -> Result<Self, String>;
    /// A default as JSON.
    fn plain_json(value: &Self::Plain) -> Value;

    /// The field named `name` of this type: what `#[derive(Form)]` calls as
    /// `<Type as FormField>::describe`, so a type that is not a form field is one error.
    #[doc(hidden)]
    fn describe(name: &str) -> FieldBuilder<Self> {
        Field::of::<Self>(name)
    }

    /// The answer for field `name`: what `#[derive(Form)]` calls (see `describe`).
    ///
    /// # Errors
    /// A [`FormError`] when the value does not decode.
    #[doc(hidden)]
    fn answer(answers: &Answers<'_>, name: &str) -> Result<Self, FormError> {
        answers.take::<Self>(name)
    }
}

/// A field that takes `min_length`, `max_length` and `format`: `String`, `Option<String>`.
#[diagnostic::on_unimplemented(
    message = "`min_length`, `max_length` and `format` apply to text fields, not to `{Self}`",
    label = "not a `String`",
    note = "for a number write `min`/`max`; for several choices write `min_items`/`max_items`"
)]
pub trait TextField: FormField {}

/// A field that takes `min` and `max`: integers, `f64`, `f32`, and their `Option`s.
#[diagnostic::on_unimplemented(
    message = "`min` and `max` apply to number and integer fields, not to `{Self}`",
    label = "not a number",
    note = "for text write `min_length`/`max_length`; for several choices write \
            `min_items`/`max_items`"
)]
pub trait NumberField: FormField {}

/// A field that takes `min_items` and `max_items`: `Vec` of a choice enum.
#[diagnostic::on_unimplemented(
    message = "`min_items` and `max_items` apply to multi-choice fields (`Vec<Choice>`), not \
               to `{Self}`",
    label = "not a `Vec` of a choice enum",
    note = "for text write `min_length`/`max_length`; for a number write `min`/`max`"
)]
pub trait ChoicesField: FormField {}

/// How a choice enum's choices are written in a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChoiceStyle {
    /// `oneOf` (`anyOf` for several) of `{const, title}` (SEP-1330): the default.
    Titled,
    /// A plain `enum` of values, no titles (`#[form(untitled)]`).
    Untitled,
    /// `enum` with the deprecated `enumNames` beside it (`#[form(enum_names)]`), for clients
    /// that predate titled choices; several choices are written untitled.
    EnumNames,
}

/// An enum of unit variants the user picks from; `#[derive(Form)]` on such an enum
/// implements it (and [`FormField`], for one choice).
pub trait FormChoice: Sized + 'static {
    /// Each variant's `(value, title)`, in declaration order.
    const CHOICES: &'static [(&'static str, &'static str)];
    /// How the choices are written in a schema.
    const STYLE: ChoiceStyle = ChoiceStyle::Titled;
    /// The variant at `index` in [`CHOICES`](FormChoice::CHOICES).
    fn from_index(index: usize) -> Option<Self>;
    /// This variant's index in [`CHOICES`](FormChoice::CHOICES).
    fn index(&self) -> usize;

    /// The `oneOf` (one choice) or `anyOf` (items of several) list: `[{const, title}]`.
    #[must_use]
    fn titled() -> Vec<Value> {
        Self::CHOICES
            .iter()
            .map(|(value, title)| json!({ "const": value, "title": title }))
            .collect()
    }

    /// The variant whose value is `text`.
    ///
    /// # Errors
    /// The choices, when `text` is none of them.
    fn from_value(text: &str) -> Result<Self, String> {
        Self::CHOICES
            .iter()
            .position(|(value, _)| *value == text)
            .and_then(Self::from_index)
            .ok_or_else(|| format!("`{text}` is not one of the choices"))
    }

    /// This variant's value.
    #[must_use]
    fn value(&self) -> &'static str {
        Self::CHOICES[self.index()].0
    }
}

/// `FormField` for a choice enum: what `#[derive(Form)]` on an enum calls.
#[must_use]
pub fn choice_schema<E: FormChoice>() -> Map<String, Value> {
    let mut map = type_only("string");
    match E::STYLE {
        ChoiceStyle::Titled => {
            map.insert("oneOf".into(), Value::Array(E::titled()));
        }
        ChoiceStyle::Untitled => {
            map.insert("enum".into(), values::<E>());
        }
        ChoiceStyle::EnumNames => {
            map.insert("enum".into(), values::<E>());
            let names = E::CHOICES.iter().map(|(_, title)| Value::from(*title));
            map.insert("enumNames".into(), Value::Array(names.collect()));
        }
    }
    map
}

/// The choices' values, as a JSON array.
fn values<E: FormChoice>() -> Value {
    Value::Array(
        E::CHOICES
            .iter()
            .map(|(value, _)| Value::from(*value))
            .collect(),
    )
}

/// Decodes one choice: what `#[derive(Form)]` on an enum calls.
///
/// # Errors
/// Why the value is not one of `E`'s choices.
pub fn choice_decode<E: FormChoice>(value: Option<&Value>) -> Result<E, String> {
    match value {
        Some(Value::String(text)) => E::from_value(text),
        Some(other) => Err(format!("expected a string, got {}", json_word(other))),
        None => Err("the answer has no value for it".to_owned()),
    }
}

fn missing() -> String {
    "the answer has no value for it".to_owned()
}

impl FormField for String {
    type Plain = String;
    fn schema() -> Map<String, Value> {
        type_only("string")
    }
    fn decode(value: Option<&Value>) -> Result<Self, String> {
        match value {
            Some(Value::String(text)) => Ok(text.clone()),
            Some(other) => Err(format!("expected a string, got {}", json_word(other))),
            None => Err(missing()),
        }
    }
    fn plain_json(value: &String) -> Value {
        Value::String(value.clone())
    }
}
impl TextField for String {}

impl FormField for bool {
    type Plain = bool;
    fn schema() -> Map<String, Value> {
        type_only("boolean")
    }
    fn decode(value: Option<&Value>) -> Result<Self, String> {
        match value {
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(format!("expected a boolean, got {}", json_word(other))),
            None => Err(missing()),
        }
    }
    fn plain_json(value: &bool) -> Value {
        Value::Bool(*value)
    }
}

fn type_only(kind: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), kind.into());
    map
}

macro_rules! integer_fields {
    ($($ty:ty),*) => {$(
        impl FormField for $ty {
            type Plain = $ty;
            fn schema() -> Map<String, Value> {
                type_only("integer")
            }
            fn decode(value: Option<&Value>) -> Result<Self, String> {
                let value = value.ok_or_else(missing)?;
                let whole = value
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| value.as_u64().map(i128::from))
                    .or_else(|| {
                        // A whole float (`3.0`) is the integer a JavaScript client meant.
                        #[allow(clippy::cast_possible_truncation)] // whole and below 2^53
                        value.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                            .map(|f| f as i128)
                    })
                    .ok_or_else(|| format!("expected an integer, got {value}"))?;
                <$ty>::try_from(whole).map_err(|_| {
                    format!(
                        "expected an integer from {} to {}, got {whole}",
                        <$ty>::MIN,
                        <$ty>::MAX
                    )
                })
            }
            fn plain_json(value: &$ty) -> Value {
                Value::from(*value)
            }
        }
        impl NumberField for $ty {}
    )*};
}
integer_fields!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! float_fields {
    ($($ty:ty),*) => {$(
        impl FormField for $ty {
            type Plain = $ty;
            fn schema() -> Map<String, Value> {
                type_only("number")
            }
            fn decode(value: Option<&Value>) -> Result<Self, String> {
                let value = value.ok_or_else(missing)?;
                #[allow(clippy::cast_possible_truncation)] // f32 fields accept an f32's precision
                value
                    .as_f64()
                    .map(|f| f as $ty)
                    .ok_or_else(|| format!("expected a number, got {}", json_word(value)))
            }
            fn plain_json(value: &$ty) -> Value {
                Value::from(*value)
            }
        }
        impl NumberField for $ty {}
    )*};
}
float_fields!(f32, f64);

impl<T: FormField> FormField for Option<T> {
    type Plain = T::Plain;
    const OPTIONAL: bool = true;
    fn schema() -> Map<String, Value> {
        T::schema()
    }
    fn decode(value: Option<&Value>) -> Result<Self, String> {
        match value {
            None | Some(Value::Null) => Ok(None),
            some => T::decode(some).map(Some),
        }
    }
    fn plain_json(value: &T::Plain) -> Value {
        T::plain_json(value)
    }
}
impl<T: TextField> TextField for Option<T> {}
impl<T: NumberField> NumberField for Option<T> {}
impl<T: ChoicesField> ChoicesField for Option<T> {}

impl<E: FormChoice> FormField for Vec<E> {
    type Plain = Vec<E>;
    fn schema() -> Map<String, Value> {
        let mut map = type_only("array");
        let items = match E::STYLE {
            ChoiceStyle::Titled => json!({ "anyOf": E::titled() }),
            ChoiceStyle::Untitled | ChoiceStyle::EnumNames => {
                json!({ "type": "string", "enum": values::<E>() })
            }
        };
        map.insert("items".into(), items);
        map
    }
    fn decode(value: Option<&Value>) -> Result<Self, String> {
        match value {
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| choice_decode::<E>(Some(item)))
                .collect(),
            Some(other) => Err(format!("expected an array, got {}", json_word(other))),
            None => Err(missing()),
        }
    }
    fn plain_json(value: &Vec<E>) -> Value {
        Value::Array(value.iter().map(|e| Value::from(e.value())).collect())
    }
}
impl<E: FormChoice> ChoicesField for Vec<E> {}
