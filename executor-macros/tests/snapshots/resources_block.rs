impl<S: Store> Library<S> {
    /// One book.
    fn book(&self, id: u32, ctx: &ToolContext) -> String {
        todo!()
    }
}
#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl<S: Store> __rt::Resources for Library<S> {
        fn resource_specs(&self) -> __rt::Vec<__rt::ResourceSpec> {
            __rt::vec![
                __rt::ResourceSpec { uri : __rt::template("library://books/{id}"), name :
                __rt::String::from("book"), title : __rt::None, description :
                __rt::Some(__rt::String::from("One book.")), mime_type :
                __rt::Some(__rt::String::from("text/plain")), icons : __rt::Vec::new(), }
            ]
        }
        fn read_resource<'__executor>(
            &'__executor self,
            __executor_index: usize,
            __executor_uri: &'__executor str,
            __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
            __executor_ctx: &'__executor __rt::ToolContext,
        ) -> __rt::BoxFuture<
            '__executor,
            __rt::Result<__rt::Vec<__rt::ResourceContents>, __rt::ToolFailure>,
        > {
            match __executor_index {
                0usize => {
                    __rt::Box::pin(async move {
                        let _ = (__executor_args, __executor_ctx);
                        let __executor_id = __rt::catalog_arg::<
                            u32,
                        >(__executor_args, "id", true)?;
                        let __executor_out = self.book(__executor_id, __executor_ctx);
                        __rt::IntoContents::into_contents(
                            __executor_out,
                            __executor_uri,
                            __rt::Some("text/plain"),
                        )
                    })
                }
                _ => __rt::unknown_entry(__executor_index),
            }
        }
    }
};
