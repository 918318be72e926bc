#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::a2a::AgentExecutor for Echo {
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
                    let _ = (ctx, queue);
                    Ok(())
                },
            )
        }
    }
};
