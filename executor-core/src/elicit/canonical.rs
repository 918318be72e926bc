//! RFC 8785 (JSON Canonicalization Scheme) and the digests built on it: one byte string for
//! one JSON value however its keys were ordered or its numbers written, so a digest of a
//! call's arguments names exactly those arguments.

use std::fmt::Write as _;

use serde_json::{Number, Value};
use sha2::{Digest, Sha256};

use super::ids::hex;

/// `value` in RFC 8785 canonical form: object members sorted by the UTF-16 code units of
/// their names, no whitespace, strings escaped as ECMAScript's `JSON.stringify` escapes them,
/// numbers written as ECMAScript's `Number.prototype.toString` writes the double they denote.
///
/// One deliberate difference: an integer beyond ±2^53 (which RFC 8785's I-JSON input rules
/// out) is written exactly rather than rounded to a double, so two different integers never
/// canonicalize alike.
#[must_use]
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write(value, &mut out);
    out
}

/// `sha256:` and the lower-case hex SHA-256 of `value`'s [`canonical_json`]: the digest the
/// A2A approval extension compares (the server crate's `action_digest` has this form).
#[must_use]
pub fn json_digest(value: &Value) -> String {
    let digest = Sha256::digest(canonical_json(value).as_bytes());
    format!("sha256:{}", hex(&digest))
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(key, out);
                out.push(':');
                write(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::String(text) => string(text, out),
        Value::Number(number) => self::number(number, out),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Null => out.push_str("null"),
    }
}

/// A string as `JSON.stringify` writes it: `"` and `\` escaped, the five short escapes, other
/// control characters as `\u00xx` (lower-case hex), everything else as is.
fn string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// An integer as its decimal digits (within ±2^53 that is what ECMAScript writes too; beyond,
/// exact: see `canonical_json`), any other number as its double.
fn number(number: &Number, out: &mut String) {
    if let Some(n) = number.as_u64() {
        out.push_str(&n.to_string());
        return;
    }
    if let Some(n) = number.as_i64() {
        out.push_str(&n.to_string());
        return;
    }
    match number.as_f64() {
        Some(x) => double(x, out),
        None => out.push_str(&number.to_string()),
    }
}

/// ECMAScript's `Number.prototype.toString(x)` for a finite double (ECMA-262 §6.1.6.1.20),
/// from the shortest digits that round-trip (what Rust's `{:e}` prints).
fn double(x: f64, out: &mut String) {
    if x == 0.0 {
        out.push('0');
        return;
    }
    if x < 0.0 {
        out.push('-');
    }
    let x = x.abs();
    let shortest = format!("{x:e}");
    // The shortest digit count; of the numbers with that many digits, ECMAScript takes the
    // one closest to `x`, the even one on a tie (1424953923781206.25 is written `…206.2`),
    // which the exactly rounded form gives where the shortest form may round the tie up.
    let count = shortest
        .split_once('e')
        .map_or(0, |(m, _)| m.chars().filter(char::is_ascii_digit).count());
    let nearest = format!("{x:.*e}", count.saturating_sub(1));
    let scientific = if nearest.parse::<f64>() == Ok(x) {
        nearest
    } else {
        shortest
    };
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    // x = 0.digits × 10^n, with k digits.
    let k = i64::try_from(digits.len()).unwrap_or(i64::MAX);
    let n = exponent + 1;
    let zeros = |count: i64| "0".repeat(usize::try_from(count).unwrap_or(0));
    if k <= n && n <= 21 {
        out.push_str(&digits);
        out.push_str(&zeros(n - k));
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(usize::try_from(n).unwrap_or(0));
        out.push_str(int);
        out.push('.');
        out.push_str(frac);
    } else if -6 < n && n <= 0 {
        out.push_str("0.");
        out.push_str(&zeros(-n));
        out.push_str(&digits);
    } else {
        let (first, rest) = digits.split_at(1);
        out.push_str(first);
        if !rest.is_empty() {
            out.push('.');
            out.push_str(rest);
        }
        out.push('e');
        out.push(if n - 1 < 0 { '-' } else { '+' });
        out.push_str(&(n - 1).abs().to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn double_of(bits: u64) -> String {
        let mut out = String::new();
        double(f64::from_bits(bits), &mut out);
        out
    }

    /// RFC 8785 Appendix B: every sample double and its canonical text.
    #[test]
    fn numbers_are_written_as_rfc_8785_appendix_b_writes_them() {
        let samples: [(u64, &str); 24] = [
            (0x0000_0000_0000_0000, "0"),
            (0x8000_0000_0000_0000, "0"),
            (0x0000_0000_0000_0001, "5e-324"),
            (0x8000_0000_0000_0001, "-5e-324"),
            (0x7fef_ffff_ffff_ffff, "1.7976931348623157e+308"),
            (0xffef_ffff_ffff_ffff, "-1.7976931348623157e+308"),
            (0x4340_0000_0000_0000, "9007199254740992"),
            (0xc340_0000_0000_0000, "-9007199254740992"),
            (0x4430_0000_0000_0000, "295147905179352830000"),
            (0x44b5_2d02_c7e1_4af5, "9.999999999999997e+22"),
            (0x44b5_2d02_c7e1_4af6, "1e+23"),
            (0x44b5_2d02_c7e1_4af7, "1.0000000000000001e+23"),
            (0x444b_1ae4_d6e2_ef4e, "999999999999999700000"),
            (0x444b_1ae4_d6e2_ef4f, "999999999999999900000"),
            (0x444b_1ae4_d6e2_ef50, "1e+21"),
            (0x3eb0_c6f7_a0b5_ed8c, "9.999999999999997e-7"),
            (0x3eb0_c6f7_a0b5_ed8d, "0.000001"),
            (0x41b3_de43_5555_5553, "333333333.3333332"),
            (0x41b3_de43_5555_5554, "333333333.33333325"),
            (0x41b3_de43_5555_5555, "333333333.3333333"),
            (0x41b3_de43_5555_5556, "333333333.3333334"),
            (0x41b3_de43_5555_5557, "333333333.33333343"),
            (0xbecb_f647_612f_3696, "-0.0000033333333333333333"),
            (0x4314_3ff3_c1cb_0959, "1424953923781206.2"),
        ];
        for (bits, text) in samples {
            assert_eq!(double_of(bits), text, "{bits:#018x}");
        }
    }

    /// RFC 8785 §3.2.2: the sample input and its canonical output, byte for byte.
    #[test]
    fn the_rfc_8785_sample_canonicalizes_to_its_published_output() {
        let input: Value = serde_json::from_str(
            r#"{
                "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
                "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
                "literals": [null, true, false]
            }"#,
        )
        .unwrap();
        assert_eq!(
            canonical_json(&input),
            r#"{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}"#
        );
    }

    /// RFC 8785 §3.2.3: members sorted by UTF-16 code units (the emoji's surrogates sort
    /// before U+FB33, which UTF-8 or code-point order would put first).
    #[test]
    fn members_are_sorted_by_utf16_code_units_as_rfc_8785_sorts_them() {
        let input: Value = serde_json::from_str(
            r#"{
                "\u20ac": "Euro Sign",
                "\r": "Carriage Return",
                "\ufb33": "Hebrew Letter Dalet With Dagesh",
                "1": "One",
                "\ud83d\ude00": "Emoji: Grinning Face",
                "\u0080": "Control",
                "\u00f6": "Latin Small Letter O With Diaeresis"
            }"#,
        )
        .unwrap();
        assert_eq!(
            canonical_json(&input),
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\",\
             \"\u{f6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20ac}\":\"Euro Sign\",\
             \"\u{1f600}\":\"Emoji: Grinning Face\",\"\u{fb33}\":\"Hebrew Letter Dalet With Dagesh\"}"
        );
    }

    #[test]
    fn integers_beyond_a_double_stay_exact_so_their_digests_differ() {
        let a = json!({"id": 9_007_199_254_740_993_u64});
        let b = json!({"id": 9_007_199_254_740_992_u64});
        assert_eq!(canonical_json(&a), r#"{"id":9007199254740993}"#);
        assert_ne!(json_digest(&a), json_digest(&b));
        assert_eq!(canonical_json(&json!(-12)), "-12");
        assert_eq!(canonical_json(&json!(2.0)), "2");
    }

    #[test]
    fn the_digest_is_sha256_of_the_canonical_text() {
        // `{"a":1,"b":[true,null]}`; SHA-256 from `printf '%s' … | sha256sum`.
        let value = json!({"b": [true, null], "a": 1});
        assert_eq!(canonical_json(&value), r#"{"a":1,"b":[true,null]}"#);
        assert_eq!(
            json_digest(&value),
            "sha256:1cc69c7fa23616ca2ec3ee70d24390a6225c8832db8a4c814c7e0e7f942f8668"
        );
    }
}
