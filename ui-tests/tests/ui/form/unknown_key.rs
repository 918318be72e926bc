use tool_executor::elicit::Form;

#[derive(Form)]
struct Seats {
    #[form(minimum = 1)]
    count: u8,
}

fn main() {}
