//! The derive's output uses absolute paths and private names only: it compiles next to
//! shadowing modules and types, under `#![no_implicit_prelude]`, and with strict lints (clippy
//! runs on this file in CI with `-D warnings`).

#![deny(
    unused_qualifications,
    unused_imports,
    unused_results,
    missing_docs,
    clippy::pedantic
)]

/// Shadows `::core` for relative paths.
mod core {}

/// Every name below shadows a prelude item the expansion could have used unqualified.
mod shadowed {
    #![allow(dead_code)] // the shadows exist only to be in scope

    use tool_executor::{FailureKind, ToolFailure};

    struct Option;
    struct Result;
    struct Box;
    struct Vec;
    trait ToString {}
    trait From {}
    trait Into {}
    mod serde {}
    mod serde_json {}

    #[derive(Debug, thiserror::Error, ToolFailure)]
    #[failure(data)]
    enum Shadowed<T: ::std::fmt::Display + ::serde::Serialize> {
        #[error("plain")]
        Plain,
        #[error("quota {used}")]
        Quota {
            used: u32,
            __executor_message: u8,
            __executor_error: u8,
        },
        #[error("generic {0}")]
        #[failure(kind = timeout, retry_after = "1s")]
        Generic(T),
    }

    #[test]
    fn converts() {
        let failure = <ToolFailure as ::core::convert::From<Shadowed<u8>>>::from(Shadowed::Quota {
            used: 1,
            __executor_message: 2,
            __executor_error: 3,
        });
        assert_eq!(
            failure.data(),
            ::core::option::Option::Some(&::serde_json::json!({
                "used": 1, "__executor_message": 2, "__executor_error": 3
            }))
        );
        let generic =
            <ToolFailure as ::core::convert::From<Shadowed<u8>>>::from(Shadowed::Generic(7));
        assert_eq!(generic.kind(), FailureKind::Timeout);
        assert_eq!(generic.message(), "generic 7");
        assert_eq!(
            generic.data(),
            ::core::option::Option::Some(&::serde_json::json!(7))
        );
    }
}

mod no_prelude {
    #![no_implicit_prelude]

    /// A failure written without the prelude in scope.
    #[derive(::std::fmt::Debug, ::tool_executor::ToolFailure)]
    #[failure(terminal)]
    pub(super) enum Bare {
        /// With data.
        #[failure(data, code = "bare_data")]
        Data(::std::string::String),
    }

    impl ::std::fmt::Display for Bare {
        fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
            f.write_str("bare")
        }
    }
}

#[test]
fn no_implicit_prelude() {
    let failure = tool_executor::ToolFailure::from(no_prelude::Bare::Data("x".into()));
    assert!(failure.is_terminal());
    assert_eq!(failure.code(), "bare_data");
    assert_eq!(failure.data(), Some(&serde_json::json!("x")));
}
