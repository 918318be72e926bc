const _: () = {
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl ::core::convert::From<WeatherError> for ::executor_core::ToolFailure {
        fn from(__executor_error: WeatherError) -> Self {
            let __executor_message: ::std::string::String = ::executor_core::__private::failure_message::<
                WeatherError,
            >(&__executor_error);
            let __executor_failure: ::executor_core::ToolFailure = match &__executor_error {
                WeatherError::UnknownCity { city: __executor_field_0, .. } => {
                    ::executor_core::ToolFailure::terminal(__executor_message)
                        .with_code("unknown_city")
                        .with_data({
                            let mut __executor_data = ::executor_core::__private::Map::new();
                            __executor_data
                                .insert(
                                    ::std::string::String::from("city"),
                                    ::executor_core::__private::data_value::<
                                        String,
                                    >(__executor_field_0),
                                );
                            ::executor_core::__private::Value::Object(__executor_data)
                        })
                }
                WeatherError::Unavailable { .. } => {
                    ::executor_core::ToolFailure::ordinary(__executor_message)
                        .with_code("service_down")
                        .with_retry_after(
                            ::executor_core::__private::Duration::from_millis(200u64),
                        )
                        .redact()
                }
                WeatherError::Slow { .. } => {
                    ::executor_core::ToolFailure::unhandled(__executor_message)
                        .with_code("slow")
                        .with_kind(::executor_core::FailureKind::Timeout)
                        .redact()
                }
            };
            {
                #[allow(unused_imports)]
                use ::executor_core::__private::{
                    AttachDebug as _, AttachError as _, AttachNone as _, AttachOwned as _,
                };
                (&&&&::executor_core::__private::SourceProbe::new(__executor_error))
                    .attach_source(__executor_failure)
            }
        }
    }
    #[automatically_derived]
    #[allow(unused_qualifications)]
    impl ::executor_core::failure::FailureCodes for WeatherError {
        const FAILURE_CODES: &'static [&'static str] = &[
            "unknown_city",
            "service_down",
            "slow",
        ];
    }
};
