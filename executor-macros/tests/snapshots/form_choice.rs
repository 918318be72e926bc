#[allow(unused_qualifications)]
const _: () = {
    use ::renamed::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::FormChoice for Size {
        const CHOICES: &'static [(&'static str, &'static str)] = &[
            ("S", "Small"),
            ("l", "Large"),
        ];
        fn from_index(__executor_index: usize) -> __rt::Option<Self> {
            match __executor_index {
                0usize => __rt::Some(Self::S),
                1usize => __rt::Some(Self::L),
                _ => __rt::None,
            }
        }
        fn index(&self) -> usize {
            match self {
                Self::S => 0usize,
                Self::L => 1usize,
            }
        }
    }
    #[automatically_derived]
    impl __rt::FormField for Size {
        type Plain = Self;
        fn schema() -> __rt::Map<__rt::String, __rt::Value> {
            __rt::choice_schema::<Self>()
        }
        fn decode(
            __executor_value: __rt::Option<&__rt::Value>,
        ) -> __rt::Result<Self, __rt::String> {
            __rt::choice_decode::<Self>(__executor_value)
        }
        fn plain_json(__executor_value: &Self) -> __rt::Value {
            __rt::Value::from(__rt::FormChoice::value(__executor_value))
        }
    }
};
