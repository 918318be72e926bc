#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl ::core::convert::From<WeatherError> for __rt::ToolFailure {
        fn from(__executor_error: WeatherError) -> Self {
            let __executor_message: __rt::String = __rt::failure_message::<
                WeatherError,
            >(&__executor_error);
            let __executor_failure: __rt::ToolFailure = match &__executor_error {
                WeatherError::UnknownCity { city: __executor_field_0, .. } => {
                    __rt::ToolFailure::terminal(__executor_message)
                        .with_code("unknown_city")
                        .with_data({
                            let mut __executor_data = __rt::Map::new();
                            __executor_data
                                .insert(
                                    __rt::String::from("city"),
                                    __rt::data_value::<String>(__executor_field_0),
                                );
                            __rt::Value::Object(__executor_data)
                        })
                }
                WeatherError::Unavailable { .. } => {
                    __rt::ToolFailure::ordinary(__executor_message)
                        .with_code("service_down")
                        .with_retry_after(__rt::Duration::from_millis(200u64))
                        .redact()
                }
                WeatherError::Slow { .. } => {
                    __rt::ToolFailure::unhandled(__executor_message)
                        .with_code("slow")
                        .with_kind(__rt::FailureKind::Timeout)
                        .redact()
                }
            };
            {
                #[allow(unused_imports)]
                use __rt::{
                    AttachDebug as _, AttachError as _, AttachNone as _, AttachOwned as _,
                };
                (&&&&__rt::SourceProbe::new(__executor_error))
                    .attach_source(__executor_failure)
            }
        }
    }
    #[automatically_derived]
    impl __rt::FailureCodes for WeatherError {
        const FAILURE_CODES: &'static [&'static str] = &[
            "unknown_city",
            "service_down",
            "slow",
        ];
    }
};
