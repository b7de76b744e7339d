// The dining philosophers generator, shared by the predabs and facade tests and the `philosophers`
// and `provers` drivers of benches/examples/ (each includes it with `include!`).

/// Dining philosophers with one lock, Chaki et al. 2004, Figure 5, as a guarded-command program:
/// the lock and the forks are global integers (0 = free, 1 = taken); a philosopher takes the lock,
/// its left fork, then either goes for its right fork (`right_i`, state 5 of the figure) or releases
/// both and starts over. Property: never all `n` philosophers going for their right fork at once
/// (a counter over `right_i` / `gotright_i`).
pub fn philosophers(n: usize) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    s.push_str("global lock: int = 0;\n");
    for i in 0..n {
        let _ = writeln!(s, "global fork{i}: int = 0;");
    }
    for i in 0..n {
        let r = (i + 1) % n;
        let _ = write!(
            s,
            "component Phil{i} {{\n  loc s0, s1, s2, s3, s5, s6, s7, s8, s9;\n  \
             s0 -> s1 when lock == 0 do lock := 1;\n  \
             s1 -> s2 when fork{i} == 0 do fork{i} := 1;\n  \
             s2 -> s5 on right{i};\n  \
             s2 -> s3 do lock := 0;\n  \
             s3 -> s0 do fork{i} := 0;\n  \
             s5 -> s6 on gotright{i} when fork{r} == 0 do fork{r} := 1;\n  \
             s6 -> s7 do lock := 0;\n  \
             s7 -> s8 on eat{i};\n  \
             s8 -> s9 do fork{r} := 0;\n  \
             s9 -> s0 do fork{i} := 0;\n}}\n"
        );
    }
    s.push_str("property NotAllRight {\n");
    for k in 0..n {
        for i in 0..n {
            if k + 1 < n {
                let _ = writeln!(s, "  c{k} -> c{} on right{i};", k + 1);
            }
            if k > 0 {
                let _ = writeln!(s, "  c{k} -> c{} on gotright{i};", k - 1);
            }
        }
    }
    s.push_str("}\n");
    s
}
