use tool_executor::elicit::Form;

#[derive(Form)]
#[form(untitled)]
struct Seats {
    count: u8,
}

fn main() {}
