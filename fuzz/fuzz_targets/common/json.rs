//! Arbitrary JSON for the targets that read parsed JSON: any value, with object keys drawn
//! mostly from the names the code under test looks for, so the fuzzer reaches past the first
//! "unknown key" check.

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use serde_json::{Map, Number, Value};

/// How deep a generated value nests (serde_json's own parser stops at 128).
const MAX_DEPTH: u32 = 8;

/// Any JSON value; keys come from `keys` three times in four.
pub fn value(u: &mut Unstructured<'_>, keys: &[&str]) -> Result<Value> {
    nested(u, keys, MAX_DEPTH)
}

/// An object with keys from `keys` (and now and then another key).
pub fn object(u: &mut Unstructured<'_>, keys: &[&str]) -> Result<Value> {
    members(u, keys, MAX_DEPTH)
}

fn nested(u: &mut Unstructured<'_>, keys: &[&str], depth: u32) -> Result<Value> {
    let kinds = if depth == 0 { 5 } else { 7 };
    Ok(match u.choose_index(kinds)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => number(u)?,
        3 => Value::String(u.arbitrary()?),
        4 => Value::String(key(u, keys)?),
        5 => {
            let len = u.int_in_range(0..=4)?;
            let items = (0..len)
                .map(|_| nested(u, keys, depth - 1))
                .collect::<Result<Vec<_>>>()?;
            Value::Array(items)
        }
        _ => members(u, keys, depth - 1)?,
    })
}

fn members(u: &mut Unstructured<'_>, keys: &[&str], depth: u32) -> Result<Value> {
    let len = u.int_in_range(0..=5)?;
    let mut map = Map::new();
    for _ in 0..len {
        let key = key(u, keys)?;
        map.insert(key, nested(u, keys, depth.saturating_sub(1))?);
    }
    Ok(Value::Object(map))
}

fn key(u: &mut Unstructured<'_>, keys: &[&str]) -> Result<String> {
    if keys.is_empty() || u.ratio(1, 4)? {
        return u.arbitrary();
    }
    Ok((*u.choose(keys)?).to_owned())
}

/// Integers at the edges of every width, and floats (integral ones too, which some
/// providers send for integers).
fn number(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.choose_index(5)? {
        0 => Value::from(u.arbitrary::<i64>()?),
        1 => Value::from(u.arbitrary::<u64>()?),
        2 => Value::from(*u.choose(&[0_i64, -1, 255, 256, 65_536, i64::MAX, i64::MIN])?),
        3 => Number::from_f64(f64::from(u.arbitrary::<i32>()?)).map_or(Value::Null, Value::Number),
        _ => Number::from_f64(u.arbitrary()?).map_or(Value::Null, Value::Number),
    })
}
