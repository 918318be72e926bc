impl Counter {
    /// Bumps.
    async fn bump(&self, by: u64) -> u64 {
        by
    }
    fn helper(&self) {}
}
const _: () = {
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl ::executor_core::ContextExecutor for Counter {
        fn call<'__executor>(
            &'__executor self,
            __executor_tool: &'__executor str,
            __executor_params: &'__executor ::executor_core::__private::Value,
            __executor_ctx: ::executor_core::ToolContext,
        ) -> ::executor_core::BoxFuture<
            '__executor,
            ::core::result::Result<
                ::executor_core::ToolExecution,
                ::executor_core::ToolFailure,
            >,
        > {
            match __executor_tool {
                "bump" => {
                    ::executor_core::__private::Box::pin(
                        ::executor_core::__private::call_plain(
                            "bump",
                            __executor_ctx,
                            async move {
                                let mut __executor_raw_0: ::core::option::Option<
                                    &::executor_core::__private::Value,
                                > = ::core::option::Option::None;
                                if let ::core::option::Option::Some(__executor_object) = ::executor_core::__private::object(
                                    __executor_params,
                                )? {
                                    for (__executor_key, __executor_value) in __executor_object {
                                        match __executor_key.as_str() {
                                            "by" => {
                                                __executor_raw_0 = ::core::option::Option::Some(
                                                    __executor_value,
                                                );
                                            }
                                            __executor_other => {
                                                return ::core::result::Result::Err(
                                                    ::executor_core::__private::unknown(
                                                        __executor_other,
                                                        &["by"],
                                                    ),
                                                );
                                            }
                                        }
                                    }
                                }
                                let __executor_arg_0 = match __executor_raw_0 {
                                    ::core::option::Option::Some(__executor_value) => {
                                        ::executor_core::__private::decode::<
                                            u64,
                                        >(__executor_value, "by")?
                                    }
                                    ::core::option::Option::None => {
                                        return ::core::result::Result::Err(
                                            ::executor_core::__private::missing("by", "u64"),
                                        );
                                    }
                                };
                                let __executor_value = self.bump(__executor_arg_0).await;
                                ::executor_core::__private::encode(&__executor_value)
                            },
                        ),
                    )
                }
                _ => {
                    ::executor_core::__private::unserved(
                        ::core::option::Option::None,
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
            params: &'__executor ::executor_core::__private::Value,
            action_id: &'__executor str,
        ) -> ::executor_core::BoxFuture<
            '__executor,
            ::core::result::Result<
                ::executor_core::__private::Receiver<::executor_core::ToolStreamChunk>,
                ::std::string::String,
            >,
        > {
            #[allow(unused_imports)]
            use ::executor_core::__private::{StreamByClone as _, StreamUnsupported as _};
            (&::executor_core::__private::StreamProbe(self))
                .stream(tool, params, action_id)
        }
        fn list_specs(&self) -> ::executor_core::SpecList {
            static SPECS: ::executor_core::__private::OnceLock<
                ::executor_core::SpecList,
            > = ::executor_core::__private::OnceLock::new();
            ::executor_core::__private::Arc::clone(
                SPECS
                    .get_or_init(|| {
                        ::executor_core::__private::Arc::from(
                            ::std::vec![
                                ::executor_core::__private::Arc::new(::executor_core::ToolSpec::new("bump",
                                "Bumps.",
                                ::executor_core::__private::literal("{\"type\":\"object\",\"properties\":{\"by\":{\"type\":\"integer\",\"format\":\"uint64\",\"minimum\":0}},\"required\":[\"by\"],\"additionalProperties\":false}"))
                                .with_output_schema(::executor_core::__private::literal("{\"type\":\"integer\",\"format\":\"uint64\",\"minimum\":0}"))
                                .with_annotations(::executor_core::ToolAnnotations { title :
                                ::core::option::Option::None, read_only :
                                ::core::option::Option::None, destructive :
                                ::core::option::Option::None, idempotent :
                                ::core::option::Option::None, open_world :
                                ::core::option::Option::None, }))
                            ],
                        )
                    }),
            )
        }
    }
};
