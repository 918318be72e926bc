use std::collections::HashMap;

use tool_executor::elicit::Form;

#[derive(Form)]
struct Labels {
    labels: HashMap<String, String>,
}

fn main() {}
