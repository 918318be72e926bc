impl Counter {
    /// Bumps.
    async fn bump(&self, by: u64) -> u64 {
        by
    }
    fn helper(&self) {}
}
#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::ContextExecutor for Counter {
        fn dispatch<'__executor>(
            &'__executor self,
            __executor_tool: &'__executor str,
            __executor_params: &'__executor __rt::Value,
            __executor_ctx: __rt::ToolContext,
        ) -> __rt::BoxFuture<
            '__executor,
            __rt::Result<__rt::ToolExecution, __rt::ToolFailure>,
        > {
            match __executor_tool {
                "bump" => {
                    __rt::Box::pin(
                        __rt::call_context_free(
                            "bump",
                            __executor_ctx,
                            __rt::context_free_output(
                                "bump",
                                async move {
                                    let __executor_arg_0 = {
                                        let [__executor_arg_0] = __rt::arguments(
                                            __executor_params,
                                            &["by"],
                                        )?;
                                        match __rt::first::<u64>(__executor_arg_0) {
                                            __rt::Some(__executor_value) => __executor_value,
                                            __rt::None => {
                                                __rt::again(move || __rt::required::<
                                                    u64,
                                                >(
                                                    __executor_arg_0,
                                                    "by",
                                                    "u64",
                                                    &__rt::Listed(
                                                        || <Self as __rt::ContextExecutor>::list_specs(self),
                                                        "bump",
                                                    ),
                                                ))?
                                            }
                                        }
                                    };
                                    __rt::encode::<u64>(&self.bump(__executor_arg_0).await)
                                },
                            ),
                        ),
                    )
                }
                _ => {
                    __rt::unserved(
                        __rt::None,
                        __executor_tool,
                        __executor_params,
                        __executor_ctx,
                    )
                }
            }
        }
        fn stream<'__executor>(
            &'__executor self,
            tool: &'__executor str,
            params: &'__executor __rt::Value,
            action_id: &'__executor str,
        ) -> __rt::BoxFuture<
            '__executor,
            __rt::Result<__rt::Receiver<__rt::ToolStreamChunk>, __rt::String>,
        > {
            #[allow(unused_imports)]
            use __rt::{StreamByClone as _, StreamUnsupported as _};
            (&__rt::StreamProbe(self)).stream(tool, params, action_id)
        }
        fn list_specs(&self) -> __rt::SpecList {
            static SPECS: __rt::OnceLock<__rt::SpecList> = __rt::OnceLock::new();
            __rt::Arc::clone(
                SPECS
                    .get_or_init(|| {
                        __rt::Arc::from(
                            __rt::vec![
                                __rt::Arc::new(__rt::ToolSpec::new("bump", "Bumps.",
                                __rt::literal("{\"type\":\"object\",\"properties\":{\"by\":{\"type\":\"integer\",\"format\":\"uint64\",\"minimum\":0}},\"required\":[\"by\"],\"additionalProperties\":false}"))
                                .with_output_schema(__rt::literal("{\"type\":\"integer\",\"format\":\"uint64\",\"minimum\":0}")))
                            ],
                        )
                    }),
            )
        }
    }
};
