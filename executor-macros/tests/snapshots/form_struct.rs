#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::Form for Order {
        fn fields() -> __rt::Vec<__rt::Field> {
            __rt::vec![
                < String as __rt::FormField > ::describe("name").title("Name")
                .description("Who the order is for.").min_length(1).max_length(80)
                .build(), < u8 as __rt::FormField > ::describe("quantity").minimum(1)
                .maximum(10).default_value(1).build(), < Vec < Size > as __rt::FormField
                > ::describe("sizes").build()
            ]
        }
        fn from_answers(
            __executor_answers: &__rt::Answers<'_>,
        ) -> __rt::Result<Self, __rt::FormError> {
            __rt::Ok(Self {
                r#name: <String as __rt::FormField>::answer(__executor_answers, "name")?,
                quantity: <u8 as __rt::FormField>::answer(
                    __executor_answers,
                    "quantity",
                )?,
                sizes: <Vec<
                    Size,
                > as __rt::FormField>::answer(__executor_answers, "sizes")?,
            })
        }
    }
};
