impl Counter {
    /// Bumps.
    fn bump(self) -> u64 {
        1
    }
}
#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::ContextExecutor for Counter {
        fn dispatch<'__executor>(
            &'__executor self,
            _: &'__executor str,
            _: &'__executor __rt::Value,
            _: __rt::ToolContext,
        ) -> __rt::BoxFuture<
            '__executor,
            __rt::Result<__rt::ToolExecution, __rt::ToolFailure>,
        > {
            ::core::unreachable!()
        }
    }
};
::core::compile_error! {
    "a #[tool] method takes `&self`; keep mutable state behind a `Mutex` or an atomic"
}
