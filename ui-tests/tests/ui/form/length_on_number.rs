use tool_executor::elicit::Form;

#[derive(Form)]
struct Seats {
    #[form(min_length = 1)]
    count: u8,
}

fn main() {}
