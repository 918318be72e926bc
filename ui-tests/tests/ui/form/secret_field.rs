use tool_executor::elicit::Form;

#[derive(Form)]
struct Login {
    user: String,
    password: String,
}

fn main() {}
