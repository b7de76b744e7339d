//! Issue 31: `check --html` and `animate --html` write one self-contained page. These tests read
//! the page's structure (the browser tests in tests/browser/ open it for real): one chart lane per
//! component and property, one step per trace action whose lanes are the components the text
//! report names for it, the failing step, deadlock and cycle marked, every lane drawn.

mod common;

use common::{assert_exit, guarantor};

/// The values of `attr="..."` in `html`, in order.
fn attrs<'a>(html: &'a str, attr: &str) -> Vec<&'a str> {
    let needle = format!("{attr}=\"");
    html.match_indices(&needle)
        .map(|(i, _)| {
            let rest = &html[i + needle.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// Runs `check ... --html` and returns (stdout, page).
fn page(args: &[&str], code: i32) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("guarantor-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{}.html", args.join("_").replace(['/', '.'], "_")));
    let mut all = args.to_vec();
    let file_arg = file.display().to_string();
    all.extend(["--html", &file_arg]);
    let out = guarantor(&all);
    assert_exit(&out, code);
    let html = std::fs::read_to_string(&file).unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), html)
}

/// The chart's lanes as (index, name).
fn lanes(html: &str) -> Vec<(usize, String)> {
    html.split("<g class=\"lane ")
        .skip(1)
        .map(|part| {
            let index = attrs(part, "data-lane")[0].parse().unwrap();
            let name = part.split("class=\"name\"").nth(1).unwrap();
            let name = &name[name.find('>').unwrap() + 1..name.find("</text>").unwrap()];
            (index, name.to_owned())
        })
        .collect()
}

#[test]
fn a_violation_charts_every_lane_and_step_with_the_text_reports_movers() {
    let (stdout, html) = page(
        &[
            "check",
            "-q",
            "benchmarks/dining/dining.lts",
            "--target",
            "BUGGY",
        ],
        1,
    );
    let lanes = lanes(&html);
    // Three philosophers, three forks, the lock, and the property NOTALL.
    assert_eq!(lanes.len(), 8, "{lanes:?}");
    assert_eq!(lanes[7].1, "NOTALL");
    let steps: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("counterexample"))
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .collect();
    let chart_lanes = attrs(&html, "data-lanes");
    let actions = attrs(&html, "data-action");
    assert_eq!(actions.len(), steps.len());
    for ((line, action), movers) in steps.iter().zip(&actions).zip(&chart_lanes) {
        assert!(line.trim_start().starts_with(action), "{line} vs {action}");
        let named: Vec<&str> = movers
            .split(' ')
            .map(|i| lanes[i.parse::<usize>().unwrap()].1.as_str())
            .filter(|n| *n != "NOTALL")
            .collect();
        let listed = &line[line.find('[').unwrap() + 1..line.find(']').unwrap()];
        assert_eq!(named.join(", "), listed);
    }
    // The last step violates NOTALL; every lane is drawn, the path highlighted.
    assert_eq!(html.matches("class=\"step bad\"").count(), 1);
    assert!(html.contains("property NOTALL at step 12"));
    assert_eq!(html.matches("<figure class=\"drawing").count(), 8);
    assert!(html.contains("class=\"tr path\""));
}

#[test]
fn a_deadlock_ends_in_a_deadlock_row() {
    let (_, html) = page(
        &[
            "check",
            "-q",
            "benchmarks/dining/dining.lts",
            "--target",
            "CLASSIC",
        ],
        1,
    );
    assert_eq!(lanes(&html).len(), 6);
    assert_eq!(attrs(&html, "data-action").len(), 3);
    assert!(html.contains("<g class=\"end deadlock\">"));
    assert!(html.contains("id=\"verdict\" class=\"verdict deadlock\""));
}

#[test]
fn a_progress_violation_is_a_lasso_with_its_cycle_marked() {
    let model = "crates/fsp/tests/data/asifmahmuddev-ltsa/src/main/resources/ic/doc/ltsa/\
                 example/chapter7_lts/CongestedSingleLaneBridge.lts";
    let (stdout, html) = page(&["check", "-q", model, "--progress"], 1);
    let cycle = stdout
        .lines()
        .find_map(|l| l.strip_prefix("cycle in terminal set: "))
        .unwrap();
    let cycle_len = cycle.split(' ').count();
    assert_eq!(html.matches("class=\"step cycle\"").count(), cycle_len);
    assert!(html.contains("<g class=\"cycle-band\">"));
}

#[test]
fn a_liveness_violation_is_a_lasso_too() {
    let model = "crates/fsp/tests/data/asifmahmuddev-ltsa/src/main/resources/ic/doc/ltsa/\
                 example/chapter14_lts/SingleLaneBridge_fluent.lts";
    let (stdout, html) = page(&["check", "-q", model, "--assert", "REDCROSS"], 1);
    let cycle = stdout
        .lines()
        .find_map(|l| l.strip_prefix("cycle: "))
        .unwrap();
    assert_eq!(
        html.matches("class=\"step cycle\"").count(),
        cycle.split(' ').count()
    );
    assert!(html.contains("assert REDCROSS"));
}

#[test]
fn a_holds_draws_the_assumptions_found_and_links_the_certificate() {
    let dir = std::env::temp_dir().join(format!("guarantor-holds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (page, certificate) = (dir.join("order.html"), dir.join("order.json"));
    let out = guarantor(&[
        "check",
        "-q",
        "--method",
        "lstar",
        "--property",
        "examples/order/Order.aut",
        "examples/order/Input.aut",
        "examples/order/Output.aut",
        "--certificate",
        &certificate.display().to_string(),
        "--html",
        &page.display().to_string(),
    ]);
    assert_exit(&out, 0);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<figure class=\"drawing assumption\""));
    assert!(html.contains("<dt>assumption for "));
    // The phases of the check: lstar's safety phase (no deadlock question on .aut input).
    assert!(
        html.contains("<dt>phase: safety</dt><dd>lstar, "),
        "no phase"
    );
    assert!(!html.contains("id=\"chart\""));
    // The certificate sits beside the page: the link is relative, so the two can move together.
    assert!(html.contains("<a href=\"order.json\">"), "no relative link");
}

#[test]
fn animate_writes_the_animator_with_every_lane() {
    let dir = std::env::temp_dir().join(format!("guarantor-animate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("buggy.html");
    let out = guarantor(&[
        "animate",
        "benchmarks/dining/dining.lts",
        "--target",
        "BUGGY",
        "--html",
        &file.display().to_string(),
    ]);
    assert_exit(&out, 0);
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.contains("id=\"animator\""));
    assert_eq!(html.matches("<figure class=\"drawing").count(), 8);
    assert!(!html.contains("id=\"verdict\""));
}
