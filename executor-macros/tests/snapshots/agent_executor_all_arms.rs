#[allow(unused_qualifications)]
const _: () = {
    use ::my::tool_executor::__private as __rt;
    #[automatically_derived]
    impl<T: Send + Sync + 'static> __rt::a2a::AgentExecutor for Wrapper<T>
    where
        T: Clone,
    {
        fn execute<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor __rt::a2a::RequestContext,
            __executor_queue: &'__executor dyn __rt::a2a::EventQueueWriter,
        ) -> __rt::BoxFuture<'__executor, __rt::a2a::A2aResult<()>> {
            __rt::a2a::run_execute(
                __executor_ctx,
                __executor_queue,
                move |
                    ctx: &'__executor __rt::a2a::RequestContext,
                    __executor_writer: __rt::a2a::TaskQueue|
                async move {
                    let queue: &dyn __rt::a2a::EventQueueWriter = &__executor_writer;
                    self.run(ctx, queue).await
                },
            )
        }
        fn cancel<'__executor>(
            &'__executor self,
            __executor_ctx: &'__executor __rt::a2a::RequestContext,
            __executor_queue: &'__executor dyn __rt::a2a::EventQueueWriter,
        ) -> __rt::BoxFuture<'__executor, __rt::a2a::A2aResult<()>> {
            __rt::a2a::run_cancel(
                __executor_ctx,
                __executor_queue,
                move |
                    _ctx: &'__executor __rt::a2a::RequestContext,
                    __executor_writer: __rt::a2a::TaskQueue|
                async move {
                    let _queue: &dyn __rt::a2a::EventQueueWriter = &__executor_writer;
                    Ok(())
                },
            )
        }
        fn on_shutdown<'__executor>(
            &'__executor self,
        ) -> __rt::BoxFuture<'__executor, ()> {
            __rt::a2a::run_shutdown(async move { self.close().await })
        }
    }
};
