//! [`Runtime::with_approver`](super::Runtime::with_approver): the calls the runtime makes
//! put their questions (`#[tool(confirm)]`, `ctx.confirm`, `ctx.elicit`) to the application's
//! approver, unless their caller attached an asker of its own.

use serde_json::Value;

use crate::elicit::Asker;
use crate::failure::ToolFailure;
use crate::tool::{BoxFuture, ContextExecutor, SpecList, ToolContext, ToolExecution, ToolExecutor};
use std::sync::Arc;

/// `inner`, its calls' questions answered by `asker` when the caller brought none.
pub(super) struct Approving {
    pub(super) inner: Arc<dyn ToolExecutor>,
    pub(super) asker: Asker,
}

impl ContextExecutor for Approving {
    fn dispatch<'a>(
        &'a self,
        tool: &'a str,
        params: &'a Value,
        ctx: ToolContext,
    ) -> BoxFuture<'a, Result<ToolExecution, ToolFailure>> {
        let ctx = if ctx.can_elicit() {
            ctx
        } else {
            ctx.with_extension(self.asker.clone())
        };
        self.inner.execute_with_context(tool, params, ctx)
    }

    fn list_specs(&self) -> SpecList {
        self.inner.specs()
    }

    fn list_specs_for(&self, ctx: &ToolContext) -> SpecList {
        self.inner.specs_for(ctx)
    }

    fn list_changes(&self) -> Option<crate::tool::ListChanges> {
        self.inner.list_changes()
    }
}
