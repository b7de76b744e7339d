//! Scalable benchmark families for CIRC-AG_N, written as Rust generators until the FSP models
//! exist: Client-Server with `N` clients, and a MER-like resource arbiter with `N` users and `R`
//! resources. Prints one markdown table row per size: NW+AR, NW, 2W, 2W+AR and monolithic times,
//! assumption sizes (max/min), iterations and refinements. Every run has a deadline; "—" marks a
//! run that hit it.
//!
//! ```text
//! cargo run --release -p guarantor-benches --example circ_bench -- cs 2 3 4 5
//! cargo run --release -p guarantor-benches --example circ_bench -- mer 2 3 4 5
//! cargo run --release -p guarantor-benches --example circ_bench -- ablate-cs 3 4 5
//! cargo run --release -p guarantor-benches --example circ_bench -- iters-cs 8 12 16
//! ```
//! `ablate-cs` / `ablate-mer` print instead what each SAT-encoding switch buys: NW+AR with
//! symmetry breaking off, a fresh solver per SAT call, or selector-variable disjunctions;
//! `iters-cs` / `iters-mer` what keeps the iterations few: one counterexample per premise instead
//! of up to 64, no re-analysis of old counterexamples after a refinement, no bound hint, and none
//! of the three.
//! Optional environment: `CIRC_TIMEOUT` (seconds per run, default 60), `MER_R` (resources, default
//! 2), `CIRC_BUG=1` (buggy variants, which violate for `n >= 2`). Every CIRC-AG_N verdict is compared
//! with the monolithic one; a disagreement is printed as `MISMATCH` in the time cell.

use std::time::{Duration, Instant};

use guarantor_circ::{CircConfig, Decomposition, check_circ};
use guarantor_compose::{Config, check_safety, compose};
use guarantor_lts::{Lts, LtsBuilder, StateId};

/// An LTS from `(source, action, target)` triples over the declared `alphabet`.
fn lts(edges: &[(usize, String, usize)], alphabet: &[String]) -> Lts {
    let mut b = LtsBuilder::new();
    for a in alphabet {
        b.action(a).expect("action");
    }
    b.ensure_states(1).expect("state");
    for (s, a, t) in edges {
        b.ensure_states(s.max(t) + 1).expect("states");
        b.add_transition_named(StateId::must(*s), a, StateId::must(*t))
            .expect("edge");
    }
    b.build().expect("lts")
}

/// Client-Server: `Server = (request_i -> grant_i -> release_i -> Server)`,
/// `Client_i = (request_i -> grant_i -> use_i -> release_i -> Client_i)`; property: the uses are
/// mutually exclusive. With `bug` (and `n >= 2`), the server, while client 0 holds the grant,
/// may accept and grant client 1's request, so both can use at once (a violation).
fn client_server(n: usize, bug: bool) -> (Vec<Lts>, Vec<Lts>) {
    let mut server = Vec::new();
    let mut next = 1;
    for i in 0..n {
        server.push((0, format!("request_{i}"), next));
        server.push((next, format!("grant_{i}"), next + 1));
        server.push((next + 1, format!("release_{i}"), 0));
        next += 2;
    }
    if bug && n >= 2 {
        // State 2 is "client 0 holds the grant"; 3 is "client 1 requested".
        server.push((2, "request_1".to_owned(), 3));
    }
    let mut comps = vec![lts(&server, &[])];
    for i in 0..n {
        let e = [
            (0, format!("request_{i}"), 1),
            (1, format!("grant_{i}"), 2),
            (2, format!("use_{i}"), 3),
            (3, format!("release_{i}"), 0),
        ];
        comps.push(lts(&e, &[]));
    }
    let mut mutex = Vec::new();
    for i in 0..n {
        mutex.push((0, format!("use_{i}"), i + 1));
        mutex.push((i + 1, format!("release_{i}"), 0));
    }
    (comps, vec![lts(&mutex, &[])])
}

/// MER-like arbiter: one arbiter holding `r` locks (`grant_i_k -> rel_i_k`), `n` users each
/// repeatedly taking some resource (`grant_i_k -> use_i_k -> rel_i_k`); property: resource 0 is
/// used by one user at a time. With `bug`, lock 0 may grant twice.
fn mer(n: usize, r: usize, bug: bool) -> (Vec<Lts>, Vec<Lts>) {
    let mut locks = Vec::new();
    for k in 0..r {
        let mut e = Vec::new();
        for i in 0..n {
            e.push((0, format!("grant_{i}_{k}"), i + 1));
            e.push((i + 1, format!("rel_{i}_{k}"), 0));
            if bug && k == 0 && i == 0 {
                e.push((n, format!("grant_{i}_{k}"), 0));
            }
        }
        locks.push(lts(&e, &[]));
    }
    let refs: Vec<&Lts> = locks.iter().collect();
    let arbiter = compose(&refs, &Config::default()).expect("arbiter");
    let mut comps = vec![arbiter];
    for i in 0..n {
        let mut e = Vec::new();
        for k in 0..r {
            let s = 1 + 2 * k;
            e.push((0, format!("grant_{i}_{k}"), s));
            e.push((s, format!("use_{i}_{k}"), s + 1));
            e.push((s + 1, format!("rel_{i}_{k}"), 0));
        }
        comps.push(lts(&e, &[]));
    }
    let mut excl = Vec::new();
    for i in 0..n {
        excl.push((0, format!("use_{i}_0"), i + 1));
        excl.push((i + 1, format!("rel_{i}_0"), 0));
    }
    (comps, vec![lts(&excl, &[])])
}

/// One cell: time, or "—" on timeout; with the report for the size columns.
fn run(
    comps: &[&Lts],
    props: &[&Lts],
    config: CircConfig,
    timeout: Duration,
) -> (String, Option<guarantor_circ::CircReport>) {
    let config = config.with_compose(Config::default().with_timeout(timeout));
    let t0 = Instant::now();
    match check_circ(comps, props, &config) {
        Ok(r) => {
            let expected =
                check_safety(comps, props, &Config::default()).is_ok_and(|m| m.verdict.is_holds());
            let cell = format!("{:.3}", t0.elapsed().as_secs_f64());
            let cell = if r.verdict.is_holds() == expected {
                cell
            } else {
                format!("MISMATCH {cell}")
            };
            (cell, Some(r))
        }
        Err(e) if e.is_budget() => ("—".to_owned(), None),
        Err(e) => (format!("error: {e}"), None),
    }
}

fn sizes(r: Option<&guarantor_circ::CircReport>) -> String {
    r.and_then(guarantor_circ::CircReport::size_range)
        .map_or("—".to_owned(), |(a, b)| format!("{a}/{b}"))
}

fn iters(r: Option<&guarantor_circ::CircReport>) -> String {
    r.map_or("—".to_owned(), |r| {
        format!("{} ({} AR)", r.iterations, r.alphabet_refinements)
    })
}

/// The encoding ablation: NW+AR with each SAT-encoding switch flipped alone; per cell total time,
/// SAT time and SAT calls.
fn ablation(family: &str, sizes: &[usize], resources: usize, bug: bool, timeout: Duration) {
    use guarantor_circ::{CexPerIteration, Disjunction};
    let base = CircConfig::default();
    // `ablate-*`: the SAT-encoding switches; `iters-*`: what keeps the iterations few.
    let (family, configs): (&str, Vec<(&str, CircConfig)>) =
        if let Some(f) = family.strip_prefix("iters-") {
            (
                f,
                vec![
                    ("default", base.clone()),
                    (
                        "one cex per premise",
                        base.clone()
                            .with_cex_per_iteration(CexPerIteration::AllPremises),
                    ),
                    ("no re-analysis", base.clone().with_reanalyse_traces(false)),
                    ("no bound hint", base.clone().with_bound_hint(false)),
                    (
                        "none of the three",
                        base.with_cex_per_iteration(CexPerIteration::AllPremises)
                            .with_reanalyse_traces(false)
                            .with_bound_hint(false),
                    ),
                ],
            )
        } else {
            (
                family,
                vec![
                    ("default", base.clone()),
                    (
                        "no symmetry breaking",
                        base.clone().with_symmetry_breaking(false),
                    ),
                    (
                        "fresh solver per call",
                        base.clone().with_incremental(false),
                    ),
                    (
                        "selector disjunctions",
                        base.with_disjunction(Disjunction::Selectors),
                    ),
                ],
            )
        };
    let names: Vec<&str> = configs.iter().map(|(n, _)| *n).collect();
    println!(
        "| instance | {} |",
        names
            .iter()
            .map(|n| format!("{n}: s (SAT s, calls; iters, AR)"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(names.len()));
    for &n in sizes {
        let (comps, props) = if family == "mer" {
            mer(n, resources, bug)
        } else {
            client_server(n, bug)
        };
        let c: Vec<&Lts> = comps.iter().collect();
        let p: Vec<&Lts> = props.iter().collect();
        let cells: Vec<String> = configs
            .iter()
            .map(|(_, config)| match run(&c, &p, config.clone(), timeout) {
                (t, Some(r)) => format!(
                    "{t} ({:.3}, {}; {}, {})",
                    r.sat_time.as_secs_f64(),
                    r.sat_calls,
                    r.iterations,
                    r.alphabet_refinements
                ),
                (t, None) => t,
            })
            .collect();
        let label = if family == "mer" {
            "MER"
        } else {
            "Client-Server"
        };
        println!("| {label} n={n} | {} |", cells.join(" | "));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let family = args.first().map_or("cs", String::as_str).to_owned();
    if let Some(f) = family
        .strip_prefix("ablate-")
        .map(str::to_owned)
        .or_else(|| family.starts_with("iters-").then(|| family.clone()))
    {
        let sizes: Vec<usize> = args.iter().skip(1).filter_map(|s| s.parse().ok()).collect();
        let timeout = Duration::from_secs(
            std::env::var("CIRC_TIMEOUT")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(60),
        );
        let resources = std::env::var("MER_R")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2);
        ablation(&f, &sizes, resources, false, timeout);
        return;
    }
    let timeout = Duration::from_secs(
        std::env::var("CIRC_TIMEOUT")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(60),
    );
    let resources: usize = std::env::var("MER_R")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let bug = std::env::var("CIRC_BUG").is_ok_and(|v| v == "1");
    println!(
        "| family | n | verdict | NW+AR s | NW s | 2W s | 2W+AR s | Mon s | Mon states | |g| max/min NW+AR | |g| max/min NW | |g| max/min 2W | iters NW+AR | iters NW | iters 2W | iters 2W+AR |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for n in args.iter().skip(1).filter_map(|s| s.parse::<usize>().ok()) {
        let (comps, props) = if family == "mer" {
            mer(n, resources, bug)
        } else {
            client_server(n, bug)
        };
        let c: Vec<&Lts> = comps.iter().collect();
        let p: Vec<&Lts> = props.iter().collect();
        let two = Decomposition::TwoWay { first: None };
        let base = CircConfig::default();
        let nwar = run(&c, &p, base.clone(), timeout);
        let nw = run(
            &c,
            &p,
            base.clone().with_alphabet_refinement(false),
            timeout,
        );
        let tw = run(
            &c,
            &p,
            base.clone()
                .with_mode(two.clone())
                .with_alphabet_refinement(false),
            timeout,
        );
        let twar = run(&c, &p, base.with_mode(two), timeout);
        let t0 = Instant::now();
        let mon = check_safety(&c, &p, &Config::default().with_timeout(timeout));
        let (mon_t, mon_states, verdict) = match mon {
            Ok(r) => (
                format!("{:.3}", t0.elapsed().as_secs_f64()),
                r.stats.states.to_string(),
                if r.verdict.is_holds() {
                    "holds"
                } else {
                    "violated"
                },
            ),
            Err(_) => ("—".to_owned(), "—".to_owned(), "?"),
        };
        let label = if family == "mer" {
            format!("MER R={resources}")
        } else {
            "Client-Server".to_owned()
        };
        println!(
            "| {label} | {n} | {verdict} | {} | {} | {} | {} | {mon_t} | {mon_states} | {} | {} | {} | {} | {} | {} | {} |",
            nwar.0,
            nw.0,
            tw.0,
            twar.0,
            sizes(nwar.1.as_ref()),
            sizes(nw.1.as_ref()),
            sizes(tw.1.as_ref()),
            iters(nwar.1.as_ref()),
            iters(nw.1.as_ref()),
            iters(tw.1.as_ref()),
            iters(twar.1.as_ref()),
        );
    }
}
