const _: () = {
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl<'a, T: Clone> ::core::convert::From<Missing<'a, T>>
    for ::renamed::executor_core::ToolFailure
    where
        T: Send,
        Missing<'a, T>: ::core::fmt::Display,
        T: ::renamed::executor_core::__private::serde::Serialize,
    {
        fn from(__executor_error: Missing<'a, T>) -> Self {
            let __executor_message: ::std::string::String = ::renamed::executor_core::__private::failure_message::<
                Missing<'a, T>,
            >(&__executor_error);
            let __executor_failure: ::renamed::executor_core::ToolFailure = match &__executor_error {
                Missing { key: __executor_field_0, value: __executor_field_1, .. } => {
                    ::renamed::executor_core::ToolFailure::ordinary(__executor_message)
                        .with_code("missing")
                        .with_data({
                            let mut __executor_data = ::renamed::executor_core::__private::Map::new();
                            __executor_data
                                .insert(
                                    ::std::string::String::from("key"),
                                    ::renamed::executor_core::__private::data_value::<
                                        &'a str,
                                    >(__executor_field_0),
                                );
                            __executor_data
                                .insert(
                                    ::std::string::String::from("value"),
                                    ::renamed::executor_core::__private::data_value::<
                                        T,
                                    >(__executor_field_1),
                                );
                            ::renamed::executor_core::__private::Value::Object(
                                __executor_data,
                            )
                        })
                }
            };
            {
                #[allow(unused_imports)]
                use ::renamed::executor_core::__private::{
                    AttachDebug as _, AttachError as _, AttachNone as _,
                };
                (&&&::renamed::executor_core::__private::SourceProbe::new(
                    __executor_error,
                ))
                    .snapshot_source(__executor_failure)
            }
        }
    }
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl<'a, T: Clone> ::renamed::executor_core::failure::FailureCodes for Missing<'a, T>
    where
        T: Send,
    {
        const FAILURE_CODES: &'static [&'static str] = &["missing"];
    }
};
