use tool_executor::elicit::Form;

#[derive(Form)]
struct Address {
    street: String,
}

#[derive(Form)]
struct Signup {
    name: String,
    address: Address,
}

fn main() {}
