fn f() {
    let _ = {
        use ::tool_executor::__private as __rt;
        const __EXECUTOR_NAMES: &[&str] = &[
            <add as __rt::Tool>::NAME,
            <math::divide as __rt::Tool>::NAME,
        ];
        const __EXECUTOR_ENTRIES: &[&str] = &["add", "math::divide"];
        const _: () = __rt::check_unique_name(
            __EXECUTOR_NAMES,
            __EXECUTOR_ENTRIES,
            1usize,
        );
        __rt::tool_set(&[__rt::FnTool::of::<add>(), __rt::FnTool::of::<math::divide>()])
    };
}
