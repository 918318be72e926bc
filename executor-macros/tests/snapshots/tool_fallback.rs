/// Adds.
fn add(a: i64) -> i64 {
    a
}
::core::compile_error! {
    "unknown #[tool] key `nmae`; did you mean `name`? expected one of `name`, `title`, `description`, `read_only`, `destructive`, `idempotent`, `open_world`, `timeout`, `crate`"
}
#[allow(non_camel_case_types, dead_code, missing_docs)]
struct add {}
const _: () = {
    #[automatically_derived]
    impl ::executor_core::Tool for add {
        const NAME: &'static str = "add";
        fn spec() -> &'static ::executor_core::__private::Arc<
            ::executor_core::ToolSpec,
        > {
            ::core::unreachable!()
        }
        fn call(
            _: &::executor_core::__private::Value,
            _: ::executor_core::ToolContext,
        ) -> ::executor_core::BoxFuture<
            '_,
            ::core::result::Result<
                ::executor_core::ToolExecution,
                ::executor_core::ToolFailure,
            >,
        > {
            ::core::unreachable!()
        }
    }
};
