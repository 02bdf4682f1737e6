//! The process group an implementation runs in (Unix): started as the
//! leader of a group of its own, so that the group — the implementation and
//! everything it started that did not leave it — can be killed at once.
//! The group is killed only while its leader is not yet reaped (alive, or a
//! zombie), so its id cannot have been taken by another process. Other
//! platforms have no process groups, and `check --impl` does not run there
//! ([`super::NEEDS_UNIX`]): what is here for them only kills the process
//! itself, and is never reached. It talks to no process:
//! [`super::Process`] does.

#[cfg(not(unix))]
pub use elsewhere::*;
#[cfg(unix)]
pub use unix::*;

#[cfg(unix)]
mod unix {
    use std::os::unix::process::CommandExt as _;
    use std::process::{Child, Command};
    use std::sync::Once;
    use std::sync::atomic::{AtomicI32, Ordering};

    /// Makes the command's process the leader of a new group.
    pub fn own(command: &mut Command) {
        command.process_group(0);
    }

    /// The groups alive now, for [`on_signal`]: 0 is a free slot. More
    /// implementations than slots at once are still killed as usual, only
    /// not on a signal.
    static LIVE: [AtomicI32; 256] = [const { AtomicI32::new(0) }; 256];

    /// Notes the child's group as alive, so that a SIGINT, SIGTERM or
    /// SIGHUP to `check` (a Ctrl-C: the groups are not in the terminal's
    /// foreground group) kills it too before `check` dies.
    pub fn enrol(child: &Child) {
        static HANDLER: Once = Once::new();
        HANDLER.call_once(|| {
            for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                // SAFETY: `on_signal` only makes async-signal-safe calls
                // (kill, signal, raise) and reads atomics.
                unsafe {
                    libc::signal(signal, on_signal as *const () as libc::sighandler_t);
                }
            }
        });
        if let Ok(pid) = i32::try_from(child.id()) {
            // The first free slot takes it; with none free, none does.
            let _ = LIVE.iter().any(|slot| {
                slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            });
        }
    }

    /// Kills every live group, then dies of the signal as `check` would
    /// have.
    extern "C" fn on_signal(signal: libc::c_int) {
        for slot in &LIVE {
            let group = slot.load(Ordering::SeqCst);
            if group > 0 {
                // SAFETY: async-signal-safe; the group's leader is not
                // reaped while its slot holds it.
                unsafe {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
        }
        // SAFETY: both are async-signal-safe; the default action ends us.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::raise(signal);
        }
    }

    /// SIGKILL to the child's whole group (the child is not reaped yet),
    /// and its slot freed before it is reaped.
    pub fn kill(child: &mut Child) {
        if let Ok(pid) = libc::pid_t::try_from(child.id()) {
            // SAFETY: kill(2) takes plain integers and touches no memory of
            // ours; the group id is the child's pid, which is not reused
            // while the child is unreaped.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            for slot in &LIVE {
                let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
            }
        }
        let _ = child.kill();
    }

    /// Blocks until process `pid` (a child of ours) has exited, without
    /// reaping it; `false` when it cannot wait (the child was reaped).
    pub fn exited(pid: u32) -> bool {
        let pid = libc::id_t::from(pid);
        loop {
            // SAFETY: waitid(2) writes one siginfo_t, which is ours and
            // zeroed; WNOWAIT leaves the child to be reaped by `Child`.
            let done = unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                libc::waitid(
                    libc::P_PID,
                    pid,
                    &raw mut info,
                    libc::WEXITED | libc::WNOWAIT,
                )
            };
            if done == 0 {
                return true;
            }
            if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                return false;
            }
        }
    }
}

/// Never reached: [`super::Process::start`] refuses first
/// ([`super::NEEDS_UNIX`]).
#[cfg(not(unix))]
mod elsewhere {
    use std::process::{Child, Command};

    pub fn own(_: &mut Command) {}

    pub fn enrol(_: &Child) {}

    pub fn kill(child: &mut Child) {
        let _ = child.kill();
    }

    pub fn exited(_: u32) -> bool {
        false
    }
}
