const _: () = {
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl ::executor_core::agent::AgentExecutor for Echo {
        fn execute<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor ::executor_core::agent::RequestContext,
            __executor_queue: &'__executor dyn ::executor_core::agent::EventQueueWriter,
        ) -> ::executor_core::BoxFuture<
            '__executor,
            ::executor_core::agent::A2aResult<()>,
        > {
            ::executor_core::__private::a2a::run_execute(
                __executor_ctx,
                __executor_queue,
                move |
                    ctx: &'__executor ::executor_core::agent::RequestContext,
                    __executor_writer: ::executor_core::agent::TaskQueue|
                async move {
                    let queue: &dyn ::executor_core::agent::EventQueueWriter = &__executor_writer;
                    let _ = (ctx, queue);
                    Ok(())
                },
            )
        }
    }
};
