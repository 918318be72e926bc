#[allow(unused_qualifications)]
const _: () = {
    use ::renamed::tool_executor::__private as __rt;
    #[automatically_derived]
    impl<'a, T: Clone> ::core::convert::From<Missing<'a, T>> for __rt::ToolFailure
    where
        T: Send,
        Missing<'a, T>: ::core::fmt::Display,
        T: __rt::serde::Serialize,
    {
        fn from(__executor_error: Missing<'a, T>) -> Self {
            let __executor_message: __rt::String = __rt::failure_message::<
                Missing<'a, T>,
            >(&__executor_error);
            let __executor_failure: __rt::ToolFailure = match &__executor_error {
                Missing { key: __executor_field_0, value: __executor_field_1, .. } => {
                    __rt::ToolFailure::ordinary(__executor_message)
                        .with_code("missing")
                        .with_data({
                            let mut __executor_data = __rt::Map::new();
                            __executor_data
                                .insert(
                                    __rt::String::from("key"),
                                    __rt::data_value::<&'a str>(__executor_field_0),
                                );
                            __executor_data
                                .insert(
                                    __rt::String::from("value"),
                                    __rt::data_value::<T>(__executor_field_1),
                                );
                            __rt::Value::Object(__executor_data)
                        })
                }
            };
            {
                #[allow(unused_imports)]
                use __rt::{AttachDebug as _, AttachError as _, AttachNone as _};
                (&&&__rt::SourceProbe::new(__executor_error))
                    .snapshot_source(__executor_failure)
            }
        }
    }
    #[automatically_derived]
    impl<'a, T: Clone> __rt::FailureCodes for Missing<'a, T>
    where
        T: Send,
    {
        const FAILURE_CODES: &'static [&'static str] = &["missing"];
    }
};
