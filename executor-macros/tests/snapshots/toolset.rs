fn f() {
    let _ = {
        const _: () = if ::executor_core::__private::contains_name(
            <math::divide as ::executor_core::Tool>::NAME,
            &[<add as ::executor_core::Tool>::NAME],
        ) {
            ::core::panic!(
                "this tool has the same name as an earlier one in toolset!; give one of them #[tool(name = \"…\")]"
            )
        };
        ::executor_core::__private::tool_set(
            &[
                ::executor_core::__private::FnTool::of::<add>(),
                ::executor_core::__private::FnTool::of::<math::divide>(),
            ],
        )
    };
}
