//! `ToolSet` finds tools by an integer key packed from the name's bytes first (the first eight
//! bytes, or for shorter names the first and last four, or first, middle and last) and the
//! whole name second: names that share a key's bytes, names shorter than eight bytes and names
//! that differ only past them must all reach their own tool, and near misses must not reach any.

use tool_executor::prelude::*;
use tool_executor::{FailureKind, ToolSet};

macro_rules! named {
    ($($fn_name:ident => $tool_name:literal),* $(,)?) => {
        $(
            /// Returns its own name.
            #[tool(name = $tool_name)]
            fn $fn_name() -> &'static str {
                $tool_name
            }
        )*
    };
}

named! {
    a => "a",
    ab => "ab",
    get_weathe => "get_weathe",
    get_weather => "get_weather",
    get_weather_today => "get_weather_today",
    get_weather_tomorrow => "get_weather_tomorrow",
    get_weathers => "get_weathers",
    exactly8 => "exactly8",
    exactly8x => "exactly8x",
    zz => "zz",
    abcd => "abcd",
    abdc => "abdc",
    abcde => "abcde",
    abcdefg => "abcdefg",
    xbx => "xbx",
}

fn set() -> ToolSet {
    toolset![
        zz,
        get_weather_tomorrow,
        exactly8x,
        a,
        get_weather,
        ab,
        get_weathers,
        exactly8,
        get_weather_today,
        get_weathe,
        abcdefg,
        abcd,
        xbx,
        abcde,
        abdc,
    ]
}

fn block_on<F: std::future::Future>(fut: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime")
        .block_on(fut)
}

#[test]
fn every_name_reaches_its_own_tool() {
    let tools = set();
    for spec in tools.list() {
        let name = spec.name.as_str();
        let out = block_on(tools.execute(name, &json!({})));
        assert_eq!(out, Ok(json!(name)), "calling `{name}`");
    }
    assert_eq!(tools.len(), 15);
}

#[test]
fn near_misses_are_unknown() {
    let tools = set();
    for name in [
        "",
        "b",
        "abc",
        "get_weath",
        "get_weather_",
        "get_weather_t",
        "get_weather_todayy",
        "exactly",
        "exactly8y",
        "exactly8xx",
        "a\0",
        "zz\0",
        "zzz",
        "abce",
        "bbcd",
        "abdd",
        "abcdf",
        "abcee",
        "abcxefg",
        "abcdefh",
        "xbb",
        "bbx",
        "xxx",
        "abcd\0",
    ] {
        let err = block_on(tools.execute_with_context(name, &json!({}), ToolContext::new()))
            .expect_err(name);
        assert_eq!(err.kind(), FailureKind::UnknownTool, "calling {name:?}");
    }
}

#[test]
fn builder_sets_route_the_same_way() {
    let tools = ToolSet::builder()
        .tool::<get_weather_today>()
        .tool::<get_weather_tomorrow>()
        .tool::<get_weather>()
        .build()
        .expect("distinct names");
    for name in ["get_weather", "get_weather_today", "get_weather_tomorrow"] {
        assert_eq!(block_on(tools.execute(name, &json!({}))), Ok(json!(name)));
    }
    let err = block_on(tools.execute_with_context("get_weathers", &json!({}), ToolContext::new()))
        .expect_err("not in this set");
    assert_eq!(err.kind(), FailureKind::UnknownTool);
}
