#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl<T> ::core::convert::From<E<T>> for __rt::ToolFailure {
        fn from(_: E<T>) -> Self {
            ::core::unreachable!()
        }
    }
    #[automatically_derived]
    impl<T> __rt::FailureCodes for E<T> {
        const FAILURE_CODES: &'static [&'static str] = &[];
    }
};
::core::compile_error! {
    "unknown #[failure] key `retyr`; expected one of `code`, `ordinary`, `terminal`, `unhandled`, `kind`, `retry_after`, `redact`, `data`"
}
