//! The macro writes schemas for primitives, strings, `Option`, `Vec` and slices as literals at
//! compile time. They must equal what schemars generates for the same types, or a tool's schema
//! would change depending on which path built it.

use std::borrow::Cow;

use tool_executor::prelude::*;
use tool_executor::schema::{InputSchema, output_schema};

/// Every type the macro sees through.
#[tool]
#[allow(
    clippy::too_many_arguments,
    clippy::many_single_char_names,
    clippy::option_option
)] // one parameter per type under test
fn every_literal(
    a: bool,
    b: i8,
    c: i16,
    d: i32,
    e: i64,
    f: isize,
    g: u8,
    h: u16,
    i: u32,
    j: u64,
    k: usize,
    l: f32,
    m: f64,
    n: String,
    /// A borrowed string.
    o: &str,
    p: Cow<'_, str>,
    q: Option<u32>,
    r: Vec<String>,
    s: &[i64],
    t: Option<Vec<bool>>,
    u: Option<Option<u8>>,
    v: Vec<Option<String>>,
    #[arg(default)] w: Vec<Vec<f64>>,
    x: Option<Vec<Option<String>>>,
) -> Option<Vec<u16>> {
    let _ = (
        a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p, q, r, s, t, u, v, w, x,
    );
    None
}

#[test]
fn literal_input_schema_equals_schemars() {
    let expected = InputSchema::new()
        .param::<bool>("a", None, true)
        .param::<i8>("b", None, true)
        .param::<i16>("c", None, true)
        .param::<i32>("d", None, true)
        .param::<i64>("e", None, true)
        .param::<isize>("f", None, true)
        .param::<u8>("g", None, true)
        .param::<u16>("h", None, true)
        .param::<u32>("i", None, true)
        .param::<u64>("j", None, true)
        .param::<usize>("k", None, true)
        .param::<f32>("l", None, true)
        .param::<f64>("m", None, true)
        .param::<String>("n", None, true)
        .param::<str>("o", Some("A borrowed string."), true)
        .param::<Cow<'_, str>>("p", None, true)
        .param::<Option<u32>>("q", None, false)
        .param::<Vec<String>>("r", None, true)
        .param::<[i64]>("s", None, true)
        .param::<Option<Vec<bool>>>("t", None, false)
        .param::<Option<Option<u8>>>("u", None, false)
        .param::<Vec<Option<String>>>("v", None, true)
        .param::<Vec<Vec<f64>>>("w", None, false)
        .param::<Option<Vec<Option<String>>>>("x", None, false)
        .finish();
    assert_eq!(every_literal::spec().input_schema, expected);
}

#[test]
fn literal_output_schema_equals_schemars() {
    assert_eq!(
        every_literal::spec().output_schema.as_ref(),
        Some(&output_schema::<Option<Vec<u16>>>())
    );
}
