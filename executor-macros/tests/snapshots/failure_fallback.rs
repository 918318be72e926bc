::core::compile_error! {
    "unknown #[failure] key `retyr`; expected one of `code`, `ordinary`, `terminal`, `unhandled`, `kind`, `retry_after`, `redact`, `data`"
}
const _: () = {
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl<T> ::core::convert::From<E<T>> for ::executor_core::ToolFailure {
        fn from(_: E<T>) -> Self {
            ::core::unreachable!()
        }
    }
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl<T> ::executor_core::failure::FailureCodes for E<T> {
        const FAILURE_CODES: &'static [&'static str] = &[];
    }
};
