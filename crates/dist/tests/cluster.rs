//! Several "processes" of one cluster inside this test process (one thread each, connected over
//! loopback), and the budgets: the same reports as a single process, typed errors on budgets, on
//! a peer that never comes up and on one that stops answering.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use guarantor_compose::{ComposeError, Config, SystemOptions, check_system};
use guarantor_dist::{Cluster, DistConfig, DistError, DistReport, check_distributed};
use guarantor_lts::Lts;

/// `n` free loopback addresses (bound once to learn a free port, then released).
fn free_addresses(n: usize) -> Vec<String> {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    listeners
        .iter()
        .map(|l| l.local_addr().unwrap().to_string())
        .collect()
}

/// `n` counters modulo 3 on local actions, the first also doing `a` and the others `b` together
/// at 0 (3^n states), and a property that holds, or (`bad`) one that wants `a` and `b` to
/// alternate starting with `a`, which a `b` at the start violates.
fn system(n: usize, bad: bool) -> (Vec<Lts>, Vec<Lts>) {
    let comps = (0..n)
        .map(|i| {
            let work = format!("w{i}");
            let sync = if i == 0 { "a" } else { "b" };
            Lts::from_edges([
                (0, work.clone(), 1),
                (1, work.clone(), 2),
                (2, work, 0),
                (0, sync.to_string(), 0),
            ])
            .unwrap()
        })
        .collect();
    let prop = if bad {
        Lts::from_edges([(0, "a", 1), (1, "b", 0)]).unwrap()
    } else {
        Lts::from_edges([(0, "a", 0), (0, "b", 0)]).unwrap()
    };
    (comps, vec![prop])
}

fn run_cluster(comps: &[Lts], props: &[Lts], processes: usize, workers: usize) -> Vec<DistReport> {
    let addresses = free_addresses(processes);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..processes)
            .map(|p| {
                let addresses = addresses.clone();
                s.spawn(move || {
                    let comps: Vec<&Lts> = comps.iter().collect();
                    let props: Vec<&Lts> = props.iter().collect();
                    let cluster = Cluster::new(addresses, p)
                        .unwrap()
                        .with_connect_timeout(Duration::from_secs(10));
                    let dist = DistConfig::default()
                        .with_workers(workers)
                        .with_cluster(cluster);
                    check_distributed(
                        &comps,
                        &props,
                        &SystemOptions::default().with_deadlock(vec![]),
                        &Config::default().with_timeout(Duration::from_secs(20)),
                        &dist,
                    )
                    .unwrap()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

#[test]
fn clusters_of_threads_agree_with_one_process() {
    for bad in [false, true] {
        let (comps, props) = system(4, bad);
        let refs: Vec<&Lts> = comps.iter().collect();
        let prefs: Vec<&Lts> = props.iter().collect();
        let options = SystemOptions::default().with_deadlock(vec![]);
        let mono = check_system(&refs, &prefs, &options, &Config::default()).unwrap();
        let single = check_distributed(
            &refs,
            &prefs,
            &options,
            &Config::default(),
            &DistConfig::default(),
        )
        .unwrap();
        assert_eq!(mono.verdict.is_holds(), !bad, "{:?}", mono.verdict);
        assert!(bad || mono.stats.states == 81, "{:?}", mono.stats);
        assert_eq!(single.verdict.is_holds(), mono.verdict.is_holds());
        if mono.verdict.is_holds() {
            assert_eq!(single.stats, mono.stats);
        }
        for (processes, workers) in [(2, 1), (2, 2), (3, 1)] {
            for report in run_cluster(&comps, &props, processes, workers) {
                assert_eq!(report.workers, processes * workers);
                assert_eq!(
                    report.verdict, single.verdict,
                    "{processes}x{workers}, bad={bad}"
                );
                if single.verdict.is_holds() {
                    assert_eq!(report.stats, single.stats);
                }
            }
        }
    }
}

#[test]
fn budgets_end_in_typed_errors() {
    let (comps, props) = system(4, false);
    let refs: Vec<&Lts> = comps.iter().collect();
    let prefs: Vec<&Lts> = props.iter().collect();
    let options = SystemOptions::default();
    let two = DistConfig::default().with_workers(2);
    let limited = check_distributed(
        &refs,
        &prefs,
        &options,
        &Config::default().with_max_states(5),
        &two,
    );
    assert!(matches!(
        limited,
        Err(DistError::Compose(ComposeError::StateLimit { limit: 5 }))
    ));
    let past = Config::default().with_deadline(Instant::now());
    let late = check_distributed(&refs, &prefs, &options, &past, &two).unwrap_err();
    assert!(late.is_budget(), "{late}");
}

#[test]
fn a_missing_peer_is_a_network_error_not_a_hang() {
    let (comps, props) = system(2, false);
    let refs: Vec<&Lts> = comps.iter().collect();
    let prefs: Vec<&Lts> = props.iter().collect();
    let cluster = Cluster::new(free_addresses(2), 1)
        .unwrap()
        .with_connect_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let err = check_distributed(
        &refs,
        &prefs,
        &SystemOptions::default(),
        &Config::default(),
        &DistConfig::default().with_cluster(cluster),
    )
    .unwrap_err();
    assert!(matches!(err, DistError::Network(_)), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// Process 1 of a two-process cluster played by the test: it connects to process 0 as a real
/// process would (a data and a heartbeat connection, each with its index and kind), then says
/// nothing more; `silent` holds its sockets open meanwhile.
fn fake_peer(address: &str, silent: Duration) {
    use std::io::Write;
    let connect = || loop {
        if let Ok(stream) = std::net::TcpStream::connect(address) {
            return stream;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut streams = Vec::new();
    for kind in [0u8, 1] {
        let mut stream = connect();
        let mut hello = 1u64.to_be_bytes().to_vec();
        hello.push(kind);
        stream.write_all(&hello).unwrap();
        streams.push(stream);
    }
    std::thread::sleep(silent);
}

#[test]
fn a_silent_peer_is_lost_after_the_heartbeat_timeout_not_a_hang() {
    let (comps, props) = system(6, false);
    let refs: Vec<&Lts> = comps.iter().collect();
    let prefs: Vec<&Lts> = props.iter().collect();
    let addresses = free_addresses(2);
    let peer = {
        let address = addresses[0].clone();
        std::thread::spawn(move || fake_peer(&address, Duration::from_secs(10)))
    };
    let cluster = Cluster::new(addresses.clone(), 0)
        .unwrap()
        .with_connect_timeout(Duration::from_secs(10))
        .with_heartbeat_timeout(Duration::from_millis(500));
    let started = Instant::now();
    let err = check_distributed(
        &refs,
        &prefs,
        &SystemOptions::default(),
        &Config::default(),
        &DistConfig::default().with_cluster(cluster),
    )
    .unwrap_err();
    assert!(
        matches!(&err, DistError::PeerLost { process: 1, address, .. } if *address == addresses[1]),
        "{err}"
    );
    assert!(err.to_string().contains("no heartbeat"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    drop(peer);
}

#[test]
fn bad_configurations_are_refused() {
    assert!(matches!(Cluster::new(vec![], 0), Err(DistError::Config(_))));
    assert!(matches!(
        Cluster::new(vec!["127.0.0.1:1".into()], 1),
        Err(DistError::Config(_))
    ));
    let lts = Lts::from_edges([(0, "a", 0)]).unwrap();
    let err = check_distributed(
        &[&lts],
        &[],
        &SystemOptions::default(),
        &Config::default(),
        &DistConfig::default().with_workers(0),
    )
    .unwrap_err();
    assert!(matches!(err, DistError::Config(_)));
}

#[test]
fn priority_and_end_states_are_honoured_as_by_check_system() {
    use guarantor_compose::Priority;
    use guarantor_lts::StateId;
    for bad in [false, true] {
        let (comps, props) = system(3, bad);
        let refs: Vec<&Lts> = comps.iter().collect();
        let prefs: Vec<&Lts> = props.iter().collect();
        for options in [
            SystemOptions::default().with_priority(Priority::low(["b"])),
            SystemOptions::default().with_priority(Priority::low(["a", "w0"])),
            SystemOptions::default().with_deadlock(vec![Some(StateId::must(0)); 3]),
        ] {
            let mono = check_system(&refs, &prefs, &options, &Config::default()).unwrap();
            for workers in [1, 3] {
                let dist = DistConfig::default().with_workers(workers);
                let report =
                    check_distributed(&refs, &prefs, &options, &Config::default(), &dist).unwrap();
                assert_eq!(
                    report.verdict.is_holds(),
                    mono.verdict.is_holds(),
                    "{options:?}"
                );
                match (&report.verdict, &mono.verdict) {
                    (v, m) if m.is_holds() => {
                        assert!(v.is_holds());
                        assert_eq!(report.stats, mono.stats, "{options:?}");
                    }
                    (v, m) => assert_eq!(
                        v.counterexample().unwrap().trace.len(),
                        m.counterexample().unwrap().trace.len(),
                        "{options:?}"
                    ),
                }
            }
        }
    }
}
