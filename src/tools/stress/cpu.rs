//! The stress process's own CPU time (user + system, all threads), so a summary can say what
//! the client itself cost: on a machine whose cores client and server share, that is time the
//! server did not get. Read from `/proc/self/stat` (Linux); elsewhere there is no figure.

/// Clock ticks per second of `/proc/*/stat` times: Linux's user-visible `USER_HZ`, 100 on
/// every architecture (`sysconf(_SC_CLK_TCK)`), whatever the kernel's own tick rate.
const USER_HZ: f64 = 100.0;

/// CPU seconds this process has used so far, or `None` where `/proc` does not say.
pub fn process_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    stat_ticks(&stat).map(|ticks| ticks as f64 / USER_HZ)
}

/// utime + stime, in ticks, from the text of a `/proc/PID/stat` file. The command name
/// (field 2, in parentheses) may hold spaces or `)`, so fields are counted after the last `)`:
/// there, state is the first and utime and stime are the 12th and 13th.
pub fn stat_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_ascii_whitespace().skip(11);
    let utime: u64 = fields.next()?.parse().ok()?;
    let stime: u64 = fields.next()?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utime_and_stime_are_found_after_the_command_name() {
        let stat = "4242 (ilion) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 0 0 20 0 9 0";
        assert_eq!(stat_ticks(stat), Some(325));
        // A command name with spaces and a parenthesis does not shift the fields.
        let odd = "7 (a b) c)) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0 20 0 1 0";
        assert_eq!(stat_ticks(odd), Some(7));
    }

    #[test]
    fn a_short_or_garbled_stat_gives_no_figure() {
        assert_eq!(stat_ticks("4242 (ilion) S 1 2 3"), None);
        assert_eq!(stat_ticks("no parenthesis at all"), None);
        assert_eq!(stat_ticks("1 (x) S 1 1 1 0 -1 0 0 0 0 0 ab 4 0"), None);
    }

    #[test]
    fn this_process_has_used_some_cpu() {
        // Spin until the clock ticks at least once, so the figure cannot be a constant.
        let before = process_seconds().expect("Linux has /proc/self/stat");
        let mut x = 0u64;
        while process_seconds().expect("still there") <= before {
            x = x.wrapping_add(std::hint::black_box(1));
        }
        assert!(process_seconds().expect("still there") > before, "{x}");
    }
}
