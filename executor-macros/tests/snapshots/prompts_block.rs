impl Library {
    /// Recommends a book.
    async fn recommend(&self, genre: String, ctx: &ToolContext) -> String {
        todo!()
    }
    /// Lists the shelf.
    fn list_shelf(&self) -> PromptMessage {
        todo!()
    }
    fn other(&self) {}
}
#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::Prompts for Library {
        fn prompt_specs(&self) -> __rt::Vec<__rt::PromptSpec> {
            __rt::vec![
                __rt::PromptSpec { name : __rt::String::from("recommend"), title :
                __rt::Some(__rt::String::from("Recommend")), description :
                __rt::Some(__rt::String::from("Recommends a book.")), arguments :
                __rt::vec![__rt::PromptArgument { name : __rt::String::from("genre"),
                description : __rt::Some(__rt::String::from("The genre.")), required :
                true, }], icons : __rt::Vec::new(), }, __rt::PromptSpec { name :
                __rt::String::from("shelf"), title : __rt::None, description :
                __rt::Some(__rt::String::from("Lists the shelf.")), arguments :
                __rt::vec![], icons : __rt::Vec::new(), }
            ]
        }
        fn get_prompt<'__executor>(
            &'__executor self,
            __executor_index: usize,
            __executor_args: &'__executor __rt::Map<__rt::String, __rt::Value>,
            __executor_ctx: &'__executor __rt::ToolContext,
        ) -> __rt::BoxFuture<
            '__executor,
            __rt::Result<__rt::PromptResult, __rt::ToolFailure>,
        > {
            match __executor_index {
                0usize => {
                    __rt::Box::pin(async move {
                        let _ = (__executor_args, __executor_ctx);
                        let __executor_genre = __rt::catalog_arg::<
                            String,
                        >(__executor_args, "genre", true)?;
                        let __executor_out = self
                            .recommend(__executor_genre, __executor_ctx)
                            .await;
                        __rt::IntoPromptResult::into_prompt_result(__executor_out)
                    })
                }
                1usize => {
                    __rt::Box::pin(async move {
                        let _ = (__executor_args, __executor_ctx);
                        let __executor_out = self.list_shelf();
                        __rt::IntoPromptResult::into_prompt_result(__executor_out)
                    })
                }
                _ => __rt::unknown_entry(__executor_index),
            }
        }
        fn complete_prompt(
            &self,
            __executor_index: usize,
            __executor_argument: &str,
            __executor_value: &str,
        ) -> __rt::Vec<__rt::String> {
            match __executor_index {
                0usize => {
                    match __executor_argument {
                        "genre" => genres(__executor_value),
                        _ => __rt::Vec::new(),
                    }
                }
                _ => __rt::Vec::new(),
            }
        }
    }
};
