use tool_executor::elicit::Form;

#[derive(Form)]
struct Seats(u8);

fn main() {}
