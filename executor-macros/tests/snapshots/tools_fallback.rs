impl Counter {
    /// Bumps.
    fn bump(self) -> u64 {
        1
    }
}
::core::compile_error! {
    "a #[tool] method takes `&self`; keep mutable state behind a `Mutex` or an atomic"
}
const _: () = {
    #[automatically_derived]
    impl ::executor_core::ToolExecutor for Counter {
        fn execute<'__executor>(
            &'__executor self,
            _: &'__executor str,
            _: &'__executor ::executor_core::__private::Value,
        ) -> ::executor_core::BoxFuture<
            '__executor,
            ::core::result::Result<
                ::executor_core::__private::Value,
                ::std::string::String,
            >,
        > {
            ::core::unreachable!()
        }
    }
};
