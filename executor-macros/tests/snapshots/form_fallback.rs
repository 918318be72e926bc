#[allow(unused_qualifications)]
const _: () = {
    use ::tool_executor::__private as __rt;
    #[automatically_derived]
    impl __rt::Form for Login {
        fn fields() -> __rt::Vec<__rt::Field> {
            ::core::unreachable!()
        }
        fn from_answers(_: &__rt::Answers<'_>) -> __rt::Result<Self, __rt::FormError> {
            ::core::unreachable!()
        }
    }
};
::core::compile_error! {
    "`password` looks like a secret, and form mode must never ask for one (the client and every hop can read the answer); send the user to your own page with `ctx.elicit_url(message, url)`, or mark the field `#[form(not_secret)]` if it is not a secret"
}
