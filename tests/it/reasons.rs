//! The explanations a careful reader found wanting, as they read now.

use std::path::Path;

use dipsandbox_core::engine::{Reason, Verdict};
use dipsandbox_core::model::rules::Rules;
use dipsandbox_core::model::scenario::Scenario;
use dipsandbox_core::tools::check::run;

fn reasons(file: &str, rules: Option<Rules>) -> Vec<(String, Verdict, String)> {
    let s = Scenario::load(Path::new(file)).expect("loads");
    let r = run(&s, rules, false).expect("runs");
    s.orders
        .iter()
        .zip(&r.phase().outcomes)
        .map(|(o, out)| (o.text.clone(), out.verdict, out.reason.clone()))
        .collect()
}

fn reason_of(all: &[(String, Verdict, String)], order: &str) -> String {
    all.iter()
        .find(|(t, _, _)| t == order)
        .map(|(_, _, r)| r.clone())
        .unwrap_or_else(|| panic!("no order {order}"))
}

// A support kept by the 1971 / 1982 / 2000 paradox rule says which rule kept it from which attack.
#[test]
fn a_support_kept_by_a_paradox_rule_names_the_rule_and_the_attack() {
    for (file, rule) in [
        ("scenarios/datc/6.F.16-1982.ron", "1982"),
        ("scenarios/datc/6.F.16-2000.ron", "2000"),
    ] {
        let r = reasons(file, None);
        assert_eq!(
            reason_of(&r, "F London Supports F Wales - English Channel"),
            format!(
                "given: under the {rule} paradox rule the convoyed attack of A Bre - Lon does not cut it"
            ),
            "{file}"
        );
    }
    // Under Szykman nothing is exempted: plain "given".
    let r = reasons("scenarios/datc/6.F.16.ron", None);
    assert_eq!(
        reason_of(&r, "F London Supports F Wales - English Channel"),
        "given"
    );
}

// "by convoy" belongs to the move, not to the unit it beats.
#[test]
fn by_convoy_belongs_to_the_move() {
    let r = reasons("scenarios/datc/6.D.16.ron", None);
    assert_eq!(
        reason_of(&r, "A Belgium - London"),
        "moves by convoy, attack 2 beats hold 1 of A Lon H"
    );
}

// All Hold is named only where it decided the move; a move that failed on its own keeps its
// own cause.
#[test]
fn all_hold_is_named_only_where_it_decided() {
    let r = reasons("scenarios/datc/6.F.14-AllHold.ron", None);
    let wales = reason_of(&r, "F Wales - English Channel");
    assert!(wales.contains("All Hold"), "{wales}");
    let brest = reason_of(&r, "A Brest - London");
    assert!(!brest.contains("All Hold"), "{brest}");
    assert!(brest.contains("does not beat hold 1 of F Lon"), "{brest}");
}

// An outcome decided by a rule option names the option.
#[test]
fn the_illegal_orders_option_is_named_where_it_decides() {
    let text = r#"Scenario(
    title: "4.E.1",
    map: "standard",
    phase: "Spring 1901 Movement",
    rules: (illegal_orders: Fail),
    units: { "Germany": ["A Munich"], "Austria": ["A Tyrolia"], "France": ["A Burgundy", "A Ruhr"] },
    orders: {
        "Germany": ["A Munich - Moscow"],
        "Austria": ["A Tyrolia Supports A Munich"],
        "France": ["A Burgundy - Munich", "A Ruhr Supports A Burgundy - Munich"],
    },
)"#;
    let s = Scenario::from_ron(text, "inline.ron").expect("loads");
    let r = run(&s, None, false).expect("runs");
    assert_eq!(r.phase().outcomes[1].verdict, Verdict::Void);
    assert!(
        r.phase().outcomes[1].reason.contains("illegal_orders=Fail"),
        "{}",
        r.phase().outcomes[1].reason
    );
}

// A retreat that bounces names the units it bounced with (as indices of the dislodged units).
#[test]
fn a_retreat_bounce_names_the_rival() {
    let s = Scenario::load(Path::new("scenarios/datc/6.H.1.ron")).expect("loads");
    let r = run(&s, None, false).expect("runs");
    let rr = r.retreats.as_ref().expect("retreats");
    let f = s.retreats.as_ref().expect("retreat orders");
    let i = f
        .orders
        .iter()
        .position(|o| o.text == "F Trieste - Albania")
        .expect("Trieste retreats");
    let Reason::RetreatBounced { with, more: 0 } = &rr.outcomes[i].cause else {
        panic!("{:?}", rr.outcomes[i].cause);
    };
    assert_eq!(with.len(), 1);
    let rival = &r.phase().dislodged[with[0]].unit;
    assert_eq!(rival.describe(&s.map), "F Greece");
    assert_eq!(rr.outcomes[i].reason, "bounces with F Gre - Alb: disbanded");
}
