#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::a2a::AgentExecutor for Echo {
        fn execute<'__executor>(
            &'__executor self,
            _: &'__executor __rt::a2a::RequestContext,
            _: &'__executor dyn __rt::a2a::EventQueueWriter,
        ) -> __rt::BoxFuture<'__executor, __rt::a2a::A2aResult<()>> {
            ::core::unreachable!()
        }
    }
};
::core::compile_error! {
    "unexpected tokens after the closure; to add `cancel` or `on_shutdown`, name every arm: `execute: |ctx, queue| async { … }, cancel: |ctx, queue| async { … }`"
}
