//! The booking tool the elicitation tests share: a form with a bounded count (default 2) and a
//! titled choice, asked by `book`.
#![allow(dead_code)]

use tool_executor::elicit::{Answer, Form};
use tool_executor::prelude::*;

#[derive(Form, Debug, Clone, Copy, PartialEq)]
pub enum Seat {
    /// By the window
    Window,
    /// On the aisle
    Aisle,
}

#[derive(Form)]
pub struct Booking {
    /// How many seats.
    #[form(min = 1, max = 8, default = 2)]
    pub count: u8,
    pub seat: Seat,
}

/// Books seats, asking how many and where.
#[tool]
pub async fn book(ctx: &ToolContext, show: String) -> Result<String, ToolFailure> {
    Ok(
        match ctx.elicit::<Booking>(format!("Seats for {show}?")).await? {
            Answer::Accepted(b) => format!("{} {:?} seats for {show}", b.count, b.seat),
            Answer::Declined => "declined".into(),
            Answer::Cancelled => "cancelled".into(),
        },
    )
}
