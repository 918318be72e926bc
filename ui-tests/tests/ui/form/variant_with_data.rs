use tool_executor::elicit::Form;

#[derive(Form)]
enum Plan {
    Free,
    Paid(u32),
}

fn main() {}
