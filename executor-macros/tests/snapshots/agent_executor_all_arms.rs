const _: () = {
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl<T: Send + Sync + 'static> ::my::executor_core::agent::AgentExecutor
    for Wrapper<T>
    where
        T: Clone,
    {
        fn execute<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor ::my::executor_core::agent::RequestContext,
            __executor_queue: &'__executor dyn ::my::executor_core::agent::EventQueueWriter,
        ) -> ::my::executor_core::BoxFuture<
            '__executor,
            ::my::executor_core::agent::A2aResult<()>,
        > {
            ::my::executor_core::__private::a2a::run_execute(
                __executor_ctx,
                __executor_queue,
                move |
                    ctx: &'__executor ::my::executor_core::agent::RequestContext,
                    __executor_writer: ::my::executor_core::agent::TaskQueue|
                async move {
                    let queue: &dyn ::my::executor_core::agent::EventQueueWriter = &__executor_writer;
                    self.run(ctx, queue).await
                },
            )
        }
        fn cancel<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor ::my::executor_core::agent::RequestContext,
            __executor_queue: &'__executor dyn ::my::executor_core::agent::EventQueueWriter,
        ) -> ::my::executor_core::BoxFuture<
            '__executor,
            ::my::executor_core::agent::A2aResult<()>,
        > {
            ::my::executor_core::__private::a2a::run_cancel(
                __executor_ctx,
                __executor_queue,
                move |
                    _ctx: &'__executor ::my::executor_core::agent::RequestContext,
                    __executor_writer: ::my::executor_core::agent::TaskQueue|
                async move {
                    let _queue: &dyn ::my::executor_core::agent::EventQueueWriter = &__executor_writer;
                    Ok(())
                },
            )
        }
        fn on_shutdown<'__executor>(
            &'__executor self,
        ) -> ::my::executor_core::BoxFuture<'__executor, ()> {
            ::my::executor_core::__private::a2a::run_shutdown(async move {
                self.close().await
            })
        }
    }
};
