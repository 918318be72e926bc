fn f() {
    let _ = {
        use ::executor_core::__private as __rt;
        const _: () = if __rt::contains_name(
            <math::divide as __rt::Tool>::NAME,
            &[<add as __rt::Tool>::NAME],
        ) {
            ::core::panic!(
                "this tool has the same name as an earlier one in toolset!; give one of them #[tool(name = \"…\")]"
            )
        };
        __rt::ToolSet::__from_fn_tools(
            &[__rt::FnTool::of::<add>(), __rt::FnTool::of::<math::divide>()],
        )
    };
}
