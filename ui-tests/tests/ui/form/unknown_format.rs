use tool_executor::elicit::Form;

#[derive(Form)]
struct Contact {
    #[form(format = "phone")]
    phone: String,
}

fn main() {}
