//! The command line of a process transport (a subprocess tool, a stdio MCP server), the
//! builder methods their public configs share ([`command_builder!`]) and the way every such
//! process is started: piped stdin and stdout, killed on drop, in a supervised process group of
//! its own ([`process_group`](super::process_group)).

use std::borrow::Cow;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use tokio::process::Child;

use super::process_group::{Group, SharedSupervisor, spawn};

/// A program, its arguments, environment and working directory.
#[derive(Debug, Clone)]
pub(crate) struct CommandLine {
    pub(crate) program: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) env: Vec<(OsString, OsString)>,
    pub(crate) cwd: Option<PathBuf>,
}

impl CommandLine {
    /// `program` (looked up on `PATH`), with no arguments, in the caller's environment and
    /// directory.
    pub(crate) fn new(program: impl Into<OsString>) -> Self {
        Self {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        }
    }

    /// The program's name, for messages.
    pub(crate) fn program_name(&self) -> Cow<'_, str> {
        self.program.to_string_lossy()
    }

    /// Starts it: piped stdin and stdout, `stderr` as given, killed when the child handle is
    /// dropped, in a new process group (so it and everything it starts can be killed together)
    /// that is also killed when the host ends, however it ends (see
    /// [`process_group`](super::process_group)): by a supervisor of its own, or by `shared`.
    pub(crate) fn spawn(
        &self,
        stderr: Stdio,
        shared: Option<&Arc<SharedSupervisor>>,
    ) -> std::io::Result<(Child, Group)> {
        let mut command = tokio::process::Command::new(&self.program);
        command
            .args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .kill_on_drop(true);
        if let Some(dir) = &self.cwd {
            command.current_dir(dir);
        }
        spawn(&mut command, shared)
    }
}

/// A public config whose builder methods ([`command_builder!`]) edit a [`CommandLine`].
pub(crate) trait CommandBuilder {
    /// The command line, or `None` where the config starts no process (an MCP server reached
    /// over HTTP): the methods then leave it as it is.
    fn command_line(&mut self) -> Option<&mut CommandLine>;
}

/// The builder methods `arg`, `args`, `env` and `cwd`, written once for every config that
/// implements [`CommandBuilder`] (`SubprocessTool`, `McpServerConfig`). `$scope` ends each
/// method's first doc line, such as `" (stdio servers)"`.
macro_rules! command_builder {
    ($scope:literal) => {
        #[doc = concat!("Adds a command-line argument", $scope, ".")]
        #[must_use]
        pub fn arg(mut self, arg: impl Into<::std::ffi::OsString>) -> Self {
            if let Some(command) =
                $crate::transport::command::CommandBuilder::command_line(&mut self)
            {
                command.args.push(arg.into());
            }
            self
        }

        #[doc = concat!("Adds command-line arguments", $scope, ".")]
        #[must_use]
        pub fn args<I, S>(self, args: I) -> Self
        where
            I: IntoIterator<Item = S>,
            S: Into<::std::ffi::OsString>,
        {
            args.into_iter().fold(self, Self::arg)
        }

        #[doc = concat!("Sets an environment variable", $scope, ".")]
        #[must_use]
        pub fn env(
            mut self,
            key: impl Into<::std::ffi::OsString>,
            value: impl Into<::std::ffi::OsString>,
        ) -> Self {
            if let Some(command) =
                $crate::transport::command::CommandBuilder::command_line(&mut self)
            {
                command.env.push((key.into(), value.into()));
            }
            self
        }

        #[doc = concat!("Sets the working directory", $scope, ".")]
        #[must_use]
        pub fn cwd(mut self, dir: impl Into<::std::path::PathBuf>) -> Self {
            if let Some(command) =
                $crate::transport::command::CommandBuilder::command_line(&mut self)
            {
                command.cwd = Some(dir.into());
            }
            self
        }
    };
}
pub(crate) use command_builder;
