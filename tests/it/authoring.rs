//! Authoring in the TUI, as a user does it: whole scripted sessions that build scenarios on the
//! board with the order menus, set expectations, save, play on through the turn cycle, undo
//! everything, and get unsaved edits back from the recovery file.

use crate::common;

use std::path::Path;

use common::{app, folders, goto, order, run, run_script, text};
use dipsandbox::tui::app::{App, Popup};
use dipsandbox::tui::editor::{Choice, OrderEditor, Parsed, Row};
use dipsandbox::tui::event::Script;
use dipsandbox_core::engine::Verdict;
use dipsandbox_core::model::board::PhaseKind;
use dipsandbox_core::model::map::UnitKind;
use dipsandbox_core::model::scenario::Scenario;

/// A new, empty board (ctrl-n, second item).
fn empty_board() -> Script {
    Script::keys("ctrl-n down enter")
}

fn verdicts(a: &App) -> Vec<Verdict> {
    a.session
        .run
        .phase()
        .outcomes
        .iter()
        .map(|o| o.verdict)
        .collect()
}

fn unit_at(a: &App, name: &str) -> Option<(UnitKind, String)> {
    let s = a.session.scenario();
    let p = s.map.find_province(name)?;
    s.units
        .iter()
        .find(|u| s.map.province_of(u.loc) == p)
        .map(|u| (u.kind, s.map.power(u.power).name.clone()))
}

#[test]
fn datc_6c1_built_from_an_empty_board_checks_after_saving() {
    let mut a = app(None, "build-6c1");
    let user = a.folders.user.clone().expect("user folder");
    // Three Turkish units (the highlight starts on the province's home power).
    let script = empty_board()
        .then(goto("ank"))
        .and_keys("F enter")
        .then(goto("con"))
        .and_keys("A enter")
        .then(goto("smy"))
        .and_keys("A enter")
        .then(order("ank", "F Ank - Con"))
        .then(order("con", "A Con - Smy"))
        .then(order("smy", "A Smy - Ank"));
    run_script(&mut a, 120, 40, script);
    assert_eq!(a.session.scenario().units.len(), 3);
    assert_eq!(a.session.scenario().orders.len(), 3);
    assert_eq!(verdicts(&a), vec![Verdict::Succeeds; 3], "the circle moves");
    // Title, then the result becomes the expectations, then save as (default folder: yours).
    let script = Script::keys("t enter ctrl-u")
        .and_text("Three army circular movement")
        .and_keys("enter e S enter");
    let t = text(&run_script(&mut a, 120, 40, script));
    assert!(t.contains("expectations: all"), "{t}");
    let saved = user.join("three-army-circular-movement.ron");
    assert!(saved.is_file(), "{t}");
    assert!(!a.session.is_dirty());
    // The saved file checks as the CLI checks it.
    let s = Scenario::load(&saved).expect("the saved file loads");
    assert_eq!(s.title, "Three army circular movement");
    let r = dipsandbox_core::tools::check::run(&s, None, false).expect("runs");
    let (bad, n) = dipsandbox_core::tools::check::compare(&s, &r);
    assert!(bad.is_empty() && n >= 3, "{bad:?} of {n}");
    // Reopened from the browser, it meets its expectations.
    let mut b = app(None, "build-6c1-reopen");
    b.folders.user = Some(user);
    let t = text(&run_script(
        &mut b,
        120,
        40,
        Script::keys("o").and_text("three").and_keys("enter"),
    ));
    assert!(t.contains("Three army circular movement"), "{t}");
    assert!(t.contains("expectations: all"), "{t}");
}

#[test]
fn pandins_paradox_built_with_the_menus_is_decided_by_szykman() {
    let mut a = app(None, "build-pandin");
    let script = empty_board()
        .then(goto("lon"))
        .and_keys("F")
        .and_text("eng")
        .and_keys("enter")
        .then(goto("wal"))
        .and_keys("F")
        .and_text("eng")
        .and_keys("enter")
        .then(goto("bre"))
        .and_keys("A")
        .and_text("fra")
        .and_keys("enter")
        .then(goto("eng"))
        .and_keys("F")
        .and_text("fra")
        .and_keys("enter")
        .then(goto("nth"))
        .and_keys("F")
        .and_text("ger")
        .and_keys("enter")
        .then(goto("bel"))
        .and_keys("F")
        .and_text("ger")
        .and_keys("enter")
        // Orders picked from the menus: filtered by typing, as a user would.
        .then(order("lon", "S F Wal - Eng"))
        .then(order("wal", "- Eng"))
        .then(order("bre", "A Bre - Lon"))
        .then(order("eng", "C A Bre - Lon"))
        .then(order("nth", "S F Bel - Eng"))
        .then(order("bel", "- Eng"));
    run_script(&mut a, 80, 24, script);
    let s = a.session.scenario();
    let texts: Vec<&str> = s.orders.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "F Lon S F Wal - Eng",
            "F Wal - Eng",
            "A Bre - Lon",
            "F Eng C A Bre - Lon",
            "F Nth S F Bel - Eng",
            "F Bel - Eng",
        ]
    );
    let st = a.session.stepper().expect("a movement phase");
    assert!(
        st.events().iter().any(|e| matches!(
            e,
            dipsandbox_core::engine::decision::trace::Event::BackupApplied { .. }
        )),
        "a backup rule decided it"
    );
    let t = text(&run(&mut a, 80, 24, "2 g ]"));
    assert!(t.contains("CYCLE"), "{t}");
    // The convoy is cancelled, the attacks bounce, nothing moves.
    assert_eq!(
        verdicts(&a),
        vec![
            Verdict::Succeeds,
            Verdict::Fails,
            Verdict::Fails,
            Verdict::Fails,
            Verdict::Succeeds,
            Verdict::Fails
        ]
    );
    run(&mut a, 80, 24, "e");
    let bad = &a.session.expectations.as_ref().expect("expectations").0;
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn units_that_cannot_stand_are_refused_with_a_message() {
    let mut a = app(None, "refused");
    run_script(&mut a, 120, 40, empty_board());
    let t = text(&run_script(&mut a, 120, 40, goto("nth").and_keys("A")));
    assert!(t.contains("an army cannot stand in North Sea"), "{t}");
    assert!(a.popup.is_none());
    let t = text(&run_script(&mut a, 120, 40, goto("mun").and_keys("F")));
    assert!(t.contains("a fleet cannot stand in Munich"), "{t}");
    // A fleet in a two-coast province: the menu offers each coast.
    let t = text(&run_script(&mut a, 120, 40, goto("spa").and_keys("F")));
    assert!(
        t.contains("France F Spa(nc)") && t.contains("France F Spa(sc)"),
        "{t}"
    );
    run_script(
        &mut a,
        120,
        40,
        Script::default().and_text("sc").and_keys("enter"),
    );
    let s = a.session.scenario();
    assert_eq!(s.map.loc_abbr(s.units[0].loc), "Spa(sc)");
    assert!(a.session.scenario().units.len() == 1);
}

#[test]
fn units_move_and_go_owners_change_on_the_board() {
    let mut a = app(None, "move-units");
    run_script(&mut a, 120, 40, Script::keys("ctrl-n enter"));
    assert_eq!(a.session.scenario().units.len(), 22, "the opening position");
    // Pick up A Par, put it down in Picardy.
    run_script(
        &mut a,
        120,
        40,
        goto("par").and_keys("m").then(goto("pic")).and_keys("m"),
    );
    assert_eq!(unit_at(&a, "pic"), Some((UnitKind::Army, "France".into())));
    assert_eq!(unit_at(&a, "par"), None);
    // A fleet moved to a two-coast province asks for the coast.
    run_script(
        &mut a,
        120,
        40,
        goto("sev")
            .and_keys("m")
            .then(goto("bul"))
            .and_keys("enter")
            .and_text("east")
            .and_keys("enter"),
    );
    let s = a.session.scenario();
    let f = s
        .units
        .iter()
        .find(|u| s.map.province(s.map.province_of(u.loc)).abbr == "bul")
        .expect("a fleet in Bulgaria");
    assert_eq!(s.map.loc_abbr(f.loc), "Bul(ec)");
    // Remove, then set an owner.
    run_script(&mut a, 120, 40, goto("pic").and_keys("x"));
    assert_eq!(unit_at(&a, "pic"), None);
    run_script(
        &mut a,
        120,
        40,
        goto("bel").and_keys("O").and_text("germ").and_keys("enter"),
    );
    let s = a.session.scenario();
    let bel = s.map.find_province("bel").expect("bel");
    assert_eq!(
        s.owners_or_home()[bel.0 as usize].map(|p| s.map.power(p).name.clone()),
        Some("Germany".into())
    );
    let t = text(&run_script(&mut a, 120, 40, goto("bur").and_keys("O")));
    assert!(t.contains("Burgundy is not a supply centre"), "{t}");
    // Every one of these edits undoes, back to the opening position.
    let opening = Scenario::opening(a.session.scenario().map.clone(), "standard").to_ron();
    run(&mut a, 120, 40, "u u u u");
    let now = a.session.scenario();
    assert_eq!(
        Scenario {
            title: "Opening position".into(),
            ..now.clone()
        }
        .to_ron(),
        opening
    );
}

#[test]
fn retreat_phase_marks_dislodged_units_and_offers_their_retreats() {
    let mut a = app(None, "retreat-author");
    let script = empty_board()
        .then(goto("bur"))
        .and_keys("A")
        .and_text("fra")
        .and_keys("enter")
        .then(goto("mun"))
        .and_keys("A")
        .and_text("ger")
        .and_keys("enter")
        // The phase, then Burgundy dislodged from Munich, and Picardy contested.
        .and_keys("t")
        .and_text("phase")
        .and_keys("enter ctrl-u")
        .and_text("Fall 1901 Retreat")
        .and_keys("enter")
        .then(goto("bur"))
        .and_keys("D")
        .and_text("from mun")
        .and_keys("enter")
        .then(goto("pic"))
        .and_keys("C");
    run_script(&mut a, 120, 40, script);
    let s = a.session.scenario();
    assert_eq!(s.phase.kind, PhaseKind::Retreat);
    assert_eq!(s.dislodged.len(), 1);
    assert_eq!(s.map.province(s.dislodged[0].attacker_from).abbr, "mun");
    assert_eq!(s.contested.len(), 1);
    // The order editor lists Burgundy's retreats: not Munich (the attacker's origin), not
    // Picardy (contested).
    run_script(&mut a, 120, 40, goto("bur").and_keys("i"));
    let Some(Popup::Order(e)) = &a.popup else {
        panic!("the order editor is open")
    };
    let offers: Vec<&str> = e.offers.iter().map(|o| o.text.as_str()).collect();
    assert!(
        offers.contains(&"A Bur - Par") && offers.contains(&"A Bur Disband"),
        "{offers:?}"
    );
    assert!(
        !offers
            .iter()
            .any(|o| o.ends_with("Mun") || o.ends_with("Pic")),
        "{offers:?}"
    );
    run_script(
        &mut a,
        120,
        40,
        Script::default().and_text("Par").and_keys("enter"),
    );
    assert_eq!(a.session.scenario().orders[0].text, "A Bur - Par");
    assert_eq!(verdicts(&a), vec![Verdict::Succeeds]);
    // D again puts it back (after the order is gone the phase can change back).
    run_script(
        &mut a,
        120,
        40,
        goto("bur").and_keys("D").and_text("back").and_keys("enter"),
    );
    assert!(a.session.scenario().dislodged.is_empty());
    // Outside a retreat phase there is nothing to dislodge.
    let mut b = app(None, "retreat-author-2");
    let t = text(&run_script(&mut b, 120, 40, goto("lon").and_keys("D")));
    assert!(t.contains("units are dislodged in a retreat phase"), "{t}");
}

#[test]
fn the_1901_opening_plays_through_spring_fall_and_winter_builds() {
    let mut a = app(None, "play-1901");
    let script = Script::keys("ctrl-n enter")
        .then(order("par", "A Par - Bur"))
        .then(order("mar", "A Mar - Spa"))
        .and_keys(">");
    run_script(&mut a, 120, 40, script);
    let s = a.session.scenario();
    assert_eq!(s.phase.to_string(), "Fall 1901 Movement");
    assert!(s.orders.is_empty());
    assert!(
        a.session.path.is_none(),
        "the next phase is saved as a new file"
    );
    let script = order("bur", "A Bur - Bel").and_keys(">");
    run_script(&mut a, 120, 40, script);
    let s = a.session.scenario();
    assert_eq!(s.phase.to_string(), "Winter 1901 Adjustment");
    // France owns Spain and Belgium now: the order editor lists its builds.
    run_script(&mut a, 120, 40, goto("par").and_keys("i"));
    let Some(Popup::Order(e)) = &a.popup else {
        panic!("the order editor is open")
    };
    let offers: Vec<&str> = e.offers.iter().map(|o| o.text.as_str()).collect();
    assert!(offers.contains(&"Build A Par"), "{offers:?}");
    assert!(offers.contains(&"Build A Mar"), "{offers:?}");
    assert!(offers.contains(&"Waive"), "{offers:?}");
    assert!(
        !offers.contains(&"Build F Par"),
        "Paris is inland: {offers:?}"
    );
    run_script(
        &mut a,
        120,
        40,
        Script::default().and_text("Build A Par").and_keys("enter"),
    );
    run_script(&mut a, 120, 40, order("mar", "Build F Mar"));
    assert_eq!(verdicts(&a), vec![Verdict::Succeeds, Verdict::Succeeds]);
    let t = text(&run(&mut a, 120, 40, ">"));
    let s = a.session.scenario();
    assert_eq!(s.phase.to_string(), "Spring 1902 Movement", "{t}");
    assert_eq!(
        s.units
            .iter()
            .filter(|u| s.map.power(u.power).name == "France")
            .count(),
        5
    );
    // Each phase saves and loads.
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-1901-spring-1902.ron");
    s.save(&path).expect("saves");
    assert_eq!(Scenario::load(&path).expect("loads").to_ron(), s.to_ron());
    // And the whole year undoes back to the opening's Spring.
    let mut n = 0;
    while a.session.scenario().phase.to_string() != "Spring 1901 Movement" {
        run(&mut a, 120, 40, "u");
        n += 1;
        assert!(n < 20, "undo reaches Spring 1901");
    }
}

#[test]
fn the_order_editor_parses_live_and_completes_names() {
    let s = Scenario::load(Path::new("scenarios/datc/6.F.16.ron")).expect("loads");
    let map = s.map.clone();
    let bre = map.find_province("bre").expect("bre");
    let offers = dipsandbox::tui::editor::offers_at(&s, Some(bre));
    let power = s
        .units
        .iter()
        .find(|u| map.province_of(u.loc) == bre)
        .map(|u| u.power);
    let mut e = OrderEditor::new(&map, "A Bre".into(), power, None, offers, String::new());
    assert!(e.rows().len() > 5, "the whole menu shows");
    for c in "A Bre - Lox".chars() {
        e.type_char(&map, c);
    }
    let Parsed::Invalid(err) = &e.parsed else {
        panic!("{:?}", e.parsed)
    };
    assert_eq!(err.col, 9);
    assert!(
        err.message.contains("did you mean \"London (lon)\""),
        "{}",
        err.message
    );
    e.backspace(&map);
    e.backspace(&map);
    e.backspace(&map);
    // Tab completes from the menu: each destination in turn.
    assert!(e.complete(&s));
    let first = e.text.clone();
    assert!(e.complete(&s));
    assert_ne!(e.text, first, "a second tab gives the next candidate");
    // A valid order reads in full, for its unit's power.
    e.text.clear();
    for c in "A Bre - Pic".chars() {
        e.type_char(&map, c);
    }
    assert!(
        matches!(&e.parsed, Parsed::Valid(full, Some(_)) if full.contains("Brest") && full.contains("Picardy"))
    );
    assert!(
        matches!(e.rows()[0], Row::Offer(_)),
        "the typed order is in the menu"
    );
    assert_eq!(e.chosen().expect("chosen").1, "A Bre - Pic");
    // An odd order is written as typed.
    e.text.clear();
    for c in "A Bre - Mun".chars() {
        e.type_char(&map, c);
    }
    assert_eq!(e.rows()[0], Row::Typed);
    assert_eq!(e.chosen().expect("chosen").1, "A Bre - Mun");
    // Names complete from the map too: a power at the start, units after S.
    let mut e = OrderEditor::new(&map, String::new(), None, None, Vec::new(), String::new());
    for c in "Eng".chars() {
        e.type_char(&map, c);
    }
    assert!(e.complete(&s));
    assert_eq!(e.text, "England:");
    for c in " F Nth S Lo".chars() {
        e.type_char(&map, c);
    }
    assert!(e.complete(&s));
    assert_eq!(e.text, "England: F Nth S F Lon");
    // No unit and no power named: whose order is it?
    let mut e = OrderEditor::new(&map, String::new(), None, None, Vec::new(), String::new());
    for c in "A Par H".chars() {
        e.type_char(&map, c);
    }
    assert!(
        e.chosen()
            .expect_err("no power")
            .contains("start with the power")
    );
}

#[test]
fn free_text_orders_and_deleting_them() {
    let mut a = app(None, "free-text");
    run_script(&mut a, 120, 40, empty_board());
    // An order for a unit that is not there is a legitimate test: written as typed.
    let t = text(&run_script(
        &mut a,
        120,
        40,
        goto("par")
            .and_keys("i")
            .and_text("France: A Par - Bur")
            .and_keys("enter"),
    ));
    assert_eq!(a.session.scenario().orders.len(), 1, "{t}");
    assert_eq!(verdicts(&a), vec![Verdict::Illegal]);
    // A bad order stays in the editor with its error.
    let t = text(&run_script(
        &mut a,
        120,
        40,
        goto("par")
            .and_keys("i")
            .and_text("France: A Par - Bux")
            .and_keys("enter"),
    ));
    assert!(matches!(a.popup, Some(Popup::Order(_))), "{t}");
    assert!(t.contains("did you mean"), "{t}");
    run(&mut a, 120, 40, "esc tab x");
    assert!(a.session.scenario().orders.is_empty());
}

#[test]
fn details_and_new_scenarios_undo() {
    let mut a = app(None, "details");
    let before = a.session.scenario().to_ron();
    let script = Script::keys("t enter ctrl-u")
        .and_text("Mine")
        .and_keys("enter t down enter")
        .and_text(" (edited)")
        .and_keys("enter t down down down enter ctrl-u")
        .and_text("Fall 1905 Movement")
        .and_keys("enter");
    run_script(&mut a, 120, 40, script);
    let s = a.session.scenario();
    assert_eq!(s.title, "Mine");
    assert!(s.description.ends_with(" (edited)"));
    assert_eq!(s.phase.to_string(), "Fall 1905 Movement");
    // A bad phase is an error in place; the prompt stays.
    let t = text(&run_script(
        &mut a,
        120,
        40,
        Script::keys("t down down down enter ctrl-u")
            .and_text("Summer 1905")
            .and_keys("enter"),
    ));
    assert!(matches!(a.popup, Some(Popup::Field(..))), "{t}");
    assert!(t.contains("expected"), "{t}");
    run(&mut a, 120, 40, "esc ctrl-n down down enter");
    assert!(a.session.scenario().title.starts_with("Copy of Mine"));
    run(&mut a, 120, 40, "u u u u");
    assert_eq!(a.session.scenario().to_ron(), before);
    // Back where it was saved (here: as it opened): nothing to save.
    assert!(
        !a.session.is_dirty(),
        "undoing every edit leaves it as saved"
    );
    run(&mut a, 120, 40, "U");
    assert!(a.session.is_dirty(), "a redone edit is unsaved again");
}

#[test]
fn a_menu_lists_refusals_with_their_reason() {
    let s = Scenario::builtin().expect("builtin");
    let p = s.map.find_province("nth").expect("nth");
    let m = dipsandbox::tui::editor::place_menu(&s, p, UnitKind::Army);
    assert!(
        m.items
            .iter()
            .all(|i| matches!(&i.choice, Choice::Refused(w) if w.contains("cannot stand")))
    );
}

#[test]
fn unsaved_edits_are_kept_and_offered_back() {
    let f = folders("recover");
    let dir = f.recovery.clone().expect("recovery folder");
    let mut a = App::open(None, None, f.clone()).expect("opens");
    run_script(
        &mut a,
        120,
        40,
        empty_board().then(goto("par")).and_keys("A enter"),
    );
    let file = a.recovery.file().expect("a recovery file");
    let kept = std::fs::read_to_string(&file).expect("written right after the edit");
    assert!(
        kept.starts_with("// dipsandbox recovery of a new scenario"),
        "{kept}"
    );
    // Pretend the process died: the file is left under another process's name.
    let orphan = dir.join("recovery-999999999.ron");
    std::fs::rename(&file, &orphan).expect("rename");
    let mut b = App::open(None, None, f.clone()).expect("opens");
    let t = text(&run(&mut b, 120, 40, ""));
    assert!(t.contains("Restore them?"), "{t}");
    run(&mut b, 120, 40, "y");
    assert_eq!(b.session.scenario().units.len(), 1, "the army is back");
    assert!(b.session.is_dirty());
    assert!(!orphan.exists(), "taken over by this process's own file");
    // Saving removes the recovery file.
    let user = b.folders.user.clone().expect("user");
    run_script(&mut b, 120, 40, Script::keys("S enter"));
    assert!(user.join("new-scenario.ron").is_file());
    assert!(!b.recovery.file().expect("file").exists());
    // n discards.
    std::fs::write(&orphan, &kept).expect("write");
    let mut c = App::open(None, None, f.clone()).expect("opens");
    run(&mut c, 120, 40, "n");
    assert!(!orphan.exists());
    assert_eq!(c.session.scenario().title, "Pandin's paradox");
    // A stop request (SIGTERM, SIGHUP) writes the file and ends the loop.
    let mut d = App::open(None, None, f).expect("opens");
    d.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    run_script(&mut d, 120, 40, Script::keys("e").and_keys("q q q"));
    assert!(!d.quit, "ended by the stop request, not by q");
    assert!(d.recovery.file().expect("file").exists());
    d.recovery.clear();
}

#[test]
fn snapshots_of_the_editor_screens() {
    for (w, h) in [(120, 40), (80, 24)] {
        let mut a = app(None, &format!("snap-editor-{w}"));
        let t = text(&run_script(
            &mut a,
            w,
            h,
            goto("bre").and_keys("i").and_text("A Bre - Lo"),
        ));
        insta::assert_snapshot!(format!("order_editor_{w}x{h}"), t);
        let t = text(&run_script(
            &mut a,
            w,
            h,
            Script::keys("esc").then(goto("spa")).and_keys("F"),
        ));
        insta::assert_snapshot!(format!("place_menu_{w}x{h}"), t);
        let t = text(&run(&mut a, w, h, "esc t"));
        insta::assert_snapshot!(format!("details_menu_{w}x{h}"), t);
        let t = text(&run(&mut a, w, h, "esc ctrl-n"));
        insta::assert_snapshot!(format!("new_menu_{w}x{h}"), t);
    }
}

#[test]
fn an_order_spelled_in_full_is_found_in_the_menu_and_keeps_its_spelling() {
    let mut a = app(Some("scenarios/datc/6.F.16.ron"), "full-spelling");
    run_script(&mut a, 120, 40, goto("eng").and_keys("i"));
    let Some(Popup::Order(e)) = &a.popup else {
        panic!("the order editor is open")
    };
    assert_eq!(e.text, "F English Channel Convoys A Brest - London");
    assert!(
        matches!(e.rows()[0], Row::Offer(_)),
        "one row for the order, not two"
    );
    assert_eq!(
        e.rows().iter().filter(|r| matches!(r, Row::Typed)).count(),
        0
    );
    run(&mut a, 120, 40, "enter");
    let s = a.session.scenario();
    assert!(
        s.orders
            .iter()
            .any(|o| o.text == "F English Channel Convoys A Brest - London")
    );
    assert!(
        a.session
            .expectations
            .as_ref()
            .is_some_and(|(bad, _)| bad.is_empty())
    );
}

/// A typed order that is one of the editor's offers is read back for the offer's power, not
/// the editor's: in an adjustment phase, where every power's removals are offered, "Remove A
/// Par" typed with England selected is France's order.
#[test]
fn a_typed_offer_is_read_for_its_own_power() {
    let map = dipsandbox_core::model::map::Map::standard();
    let eng = map.find_power("England").expect("England");
    let fra = map.find_power("France").expect("France");
    let order = |t: &str| dipsandbox_core::model::orders::parse_order(&map, t).expect("parses");
    let offers = vec![(eng, order("Remove F Lon")), (fra, order("Remove A Par"))];
    let mut e = OrderEditor::new(&map, String::new(), Some(eng), None, offers, String::new());
    for c in "Remove A Par".chars() {
        e.type_char(&map, c);
    }
    assert!(
        matches!(&e.parsed, Parsed::Valid(_, Some(p)) if *p == fra),
        "{:?}",
        e.parsed
    );
    assert_eq!(e.chosen().expect("chosen").0, fra);
    // An order no offer has keeps the editor's power.
    e.clear(&map);
    for c in "Remove A Mun".chars() {
        e.type_char(&map, c);
    }
    assert!(
        matches!(&e.parsed, Parsed::Valid(_, Some(p)) if *p == eng),
        "{:?}",
        e.parsed
    );
}
