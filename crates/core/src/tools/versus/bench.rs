//! The run: two engines on the positions of a shard, in batches; each disagreement's causes
//! found and counted in their classes, a new class shrunk to its example and written, the
//! wording table, the summary saved as the run goes.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::base::text::{one_line, shell_word, slug};
use crate::engine::decision::engine::DecisionEngine;
use crate::engine::departure::{Known, apply_changes, known};
use crate::engine::outcome::PhaseResult;
use crate::engine::seam::{Engine, PhaseInput};
use crate::model::board::PhaseKind;
use crate::model::map::Map;
use crate::model::rules::Rules;
use crate::model::scenario::{Scenario, write_atomic};
use crate::tools::check::{adjudicate_scenario, freeze_expectations};
use crate::tools::diff::verdict_word;
use crate::tools::minimize::ddmin;

use super::cause::{self, Cause, Judges};
use super::compare::{Comparison, Wording, compare};
use super::mix::{Mix, position, shape, with_texts};
use super::summary::{
    CLASS_HEADER, ClassRow, Shard, Summary, VersusError, WordingRow, explains, io_err,
    save_summary, sorted_rows,
};

/// A position where the engines differ, in effect or in words.
#[derive(Clone, Debug)]
pub struct Found {
    /// Its index in the run.
    pub index: u64,
    /// The position.
    pub scenario: Scenario,
    /// Engine A's result.
    pub ra: PhaseResult,
    /// Engine B's result.
    pub rb: PhaseResult,
    /// How they differ.
    pub comparison: Comparison,
}

/// What one position gave.
#[derive(Clone, Debug)]
pub enum Checked {
    /// Both engines gave the same result.
    Agree,
    /// They differ in effect.
    Differs(Box<Found>),
    /// They differ in wording only.
    Worded(Box<Found>),
    /// An engine gave no result (an outside adjudicator that failed): the message.
    Error(String),
}

/// A new class found in a batch: its key, the position and cause it comes from, and its file's
/// name and text once shrunk.
#[derive(Clone, Debug)]
pub struct Case {
    /// The index of the position it came from.
    pub index: u64,
    /// The cause.
    pub cause: Cause,
    /// The shape of the example ([`shape`]).
    pub shape: &'static str,
    /// The DATC cases the example is like ([`super::datc::like`]).
    pub datc: Vec<&'static str>,
    /// The class's key: the cause's way and its explanation.
    pub key: String,
    /// The class's file name (`convoy-paradox_paradox-Rule1982_1a2b3c4d.ron`).
    pub file: String,
    /// The engines' declared departures its explanation is ([`Versus::known`]).
    pub known: Vec<Known>,
    /// The scenario file's text: comments with the run, the cause and both engines' results,
    /// then the example under the DATC rules with their results as its expectations.
    pub text: String,
}

/// Runs work items, in parallel or not; the results come back in the items' order.
pub trait Parallel {
    /// `f` of every item, in order.
    fn map<T: Send, R: Send>(&self, items: Vec<T>, f: &(dyn Fn(T) -> R + Sync)) -> Vec<R>;
}

/// One item after the other, on the calling thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl Parallel for Sequential {
    fn map<T: Send, R: Send>(&self, items: Vec<T>, f: &(dyn Fn(T) -> R + Sync)) -> Vec<R> {
        items.into_iter().map(f).collect()
    }
}

/// The positions adjudicated per batch by default ([`Versus::batch`]): the stop flag is read,
/// progress reported and the summary saved between batches.
pub const BATCH: u64 = 4096;

/// How far a run is, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions done.
    pub done: u64,
    /// Positions this run (shard) takes.
    pub total: u64,
    /// Disagreements so far.
    pub disagreements: u64,
    /// Classes so far.
    pub classes: usize,
}

/// A differential run: two engines, the rules, the kind of positions, the seed.
pub struct Versus<'e> {
    /// The map (`--map`; the standard map by default).
    pub map: Arc<Map>,
    /// Engine A.
    pub a: &'e dyn Engine,
    /// Engine B.
    pub b: &'e dyn Engine,
    /// The rules both run under.
    pub rules: Rules,
    /// The kind of positions.
    pub mix: Mix,
    /// The seed.
    pub seed: u64,
    /// Positions per batch: the stop flag is read, progress reported and the summary saved
    /// between batches ([`BATCH`] on the command line; 0 counts as 1).
    pub batch: u64,
}

/// The phase result of `e` on `s` under `rules`, or the engine's error.
fn result_of(e: &dyn Engine, s: &Scenario, rules: &Rules) -> Result<PhaseResult, String> {
    // Versus compares and writes verdicts, never the words: the result alone is asked for.
    e.verdicts(&PhaseInput::of(s, rules))
        .map_err(|e| e.to_string())
}

/// The key of a class: the cause's way and its explanation, in one line.
fn class_key(c: &Cause) -> String {
    format!(
        "{:?} | {} | {}",
        c.way,
        c.b_as_a.join(","),
        c.a_as_b.join(",")
    )
}

impl Versus<'_> {
    /// The declared departures of the two engines ([`Engine::departures`]) that an explanation
    /// is: `b_as_a`, the changes under which A gives B's results; `a_as_b`, B's giving A's.
    pub fn known(&self, b_as_a: &[String], a_as_b: &[String]) -> Vec<Known> {
        let (da, db) = (self.a.departures(), self.b.departures());
        if da.is_empty() && db.is_empty() {
            return Vec::new();
        }
        known(
            (self.a.name(), &da),
            (self.b.name(), &db),
            &self.rules,
            b_as_a,
            a_as_b,
        )
    }

    /// The run's two engines and rules, which find, explain and shrink causes.
    pub fn judges(&self) -> Judges<'_> {
        Judges {
            a: self.a,
            b: self.b,
            rules: self.rules,
        }
    }

    /// The causes of the disagreement `cmp` on `s` ([`Judges::causes`]).
    pub fn causes(
        &self,
        s: &Scenario,
        ra: &PhaseResult,
        rb: &PhaseResult,
        cmp: &Comparison,
    ) -> Vec<Cause> {
        self.judges().causes(s, ra, rb, cmp)
    }

    /// Whether `q`, a part of `s`, keeps `cause` ([`Judges::keeps`]).
    pub fn keeps(&self, s: &Scenario, cause: &Cause, q: &Scenario) -> bool {
        self.judges().keeps(s, cause, q)
    }

    /// A 1-minimal example of `cause` from `s` ([`Judges::example`]).
    pub fn example(&self, s: &Scenario, cause: &Cause) -> Scenario {
        self.judges().example(s, cause)
    }

    /// Position `i` of the run.
    pub fn position(&self, i: u64) -> Scenario {
        position(&self.map, self.seed, i, self.mix)
    }

    /// Both results on `s`, compared.
    pub fn compare_on(
        &self,
        s: &Scenario,
    ) -> Result<(PhaseResult, PhaseResult, Comparison), String> {
        let ra = result_of(self.a, s, &self.rules)?;
        let rb = result_of(self.b, s, &self.rules)?;
        let c = compare(s, &ra, &rb);
        Ok((ra, rb, c))
    }

    /// Adjudicates position `i` with both engines and compares.
    pub fn check(&self, i: u64) -> Checked {
        let s = self.position(i);
        match self.compare_on(&s) {
            Ok((_, _, c)) if c.agree() => Checked::Agree,
            Ok((ra, rb, comparison)) => {
                let effect = !comparison.way.is_empty();
                let f = Box::new(Found {
                    index: i,
                    scenario: s,
                    ra,
                    rb,
                    comparison,
                });
                if effect {
                    Checked::Differs(f)
                } else {
                    Checked::Worded(f)
                }
            }
            Err(e) => Checked::Error(e),
        }
    }

    /// The causes of a disagreement in effect ([`Versus::causes`] on its results).
    pub fn causes_of(&self, f: &Found) -> Vec<Cause> {
        self.causes(&f.scenario, &f.ra, &f.rb, &f.comparison)
    }

    /// A new class: the cause's example (shrunk, 1-minimal), its shape, key, file name and text.
    pub fn case(&self, f: &Found, cause: &Cause) -> Case {
        let example = with_texts(self.example(&f.scenario, cause));
        let shape = shape(&example);
        let datc = super::datc::like(&example);
        let key = class_key(cause);
        let (an, bn) = (self.a.name(), self.b.name());
        let explained = explains(&cause.b_as_a, &cause.a_as_b, an, bn);
        let opt_slug = match cause.b_as_a.first().or(cause.a_as_b.first()) {
            Some(o) => slug(o),
            None => "unexplained".to_string(),
        };
        let file = format!(
            "{}_{}_{:08x}.ron",
            slug(shape),
            opt_slug,
            fnv(key.as_bytes()) as u32
        );
        let cause_line = self.cause_words(&f.scenario, &example, cause);
        let known = self.known(&cause.b_as_a, &cause.a_as_b);
        let text = self.file_text(
            f.index,
            &example,
            &[
                ("shape", shape.to_string()),
                ("explained", explained),
                ("known", known_words(&known)),
                ("the cause", cause.way.words(an, bn)),
                ("the order", cause_line),
                (
                    "like the DATC case",
                    if datc.is_empty() {
                        "none (no case has these orders in these relations)".to_string()
                    } else {
                        datc.join(", ")
                    },
                ),
            ],
        );
        Case {
            index: f.index,
            cause: cause.clone(),
            shape,
            datc,
            key,
            file,
            known,
            text,
        }
    }

    /// The cause's first order as the example has it: `F Lon S F Wal - Eng: decisions fails,
    /// dpjudge succeeds` (or the board's difference).
    fn cause_words(&self, from: &Scenario, example: &Scenario, cause: &Cause) -> String {
        let Some(first) = cause.orders.first() else {
            return "none: the board differs".to_string();
        };
        let Some(e) = from.orders.get(first.index) else {
            return String::new();
        };
        let text = example
            .orders
            .iter()
            .find(|x| x.power == e.power && x.order == e.order)
            .map_or_else(String::new, |x| x.text.clone());
        format!(
            "{}: {} {}, {} {}",
            text,
            self.a.name(),
            verdict_word(first.a),
            self.b.name(),
            verdict_word(first.b)
        )
    }

    /// A wording example: `f` shrunk while it differs in exactly these words and agrees in
    /// effect; its file's name and text; and the single changes that explain the words on `f`
    /// itself (under which A gives B's very verdicts, and B A's).
    pub fn wording_case(&self, f: &Found) -> (String, String, Vec<String>, Vec<String>) {
        let wording = &f.comparison.wording;
        let holds = |q: &Scenario| {
            self.compare_on(q)
                .is_ok_and(|(_, _, c)| c.way.is_empty() && c.wording == *wording)
        };
        let mut best = f.scenario.clone();
        if best.phase.kind == PhaseKind::Movement {
            let ids: Vec<usize> = (0..best.units.len()).collect();
            let base = best.clone();
            let kept = ddmin(
                &ids,
                |keep| holds(&cause::without_units(&base, keep)),
                |_, _| {},
            );
            best = cause::without_units(&base, &kept);
        }
        let ids: Vec<usize> = (0..best.orders.len()).collect();
        let base = best.clone();
        let kept = ddmin(
            &ids,
            |keep| holds(&cause::only_orders(&base, keep)),
            |_, _| {},
        );
        best = cause::only_orders(&base, &kept);
        if !holds(&best) {
            best = f.scenario.clone();
        }
        let example = with_texts(best);
        let words = wording.words(self.a.name(), self.b.name());
        let file = format!("wording_{:08x}.ron", fnv(words.as_bytes()) as u32);
        let (b_as_a, a_as_b) =
            self.judges()
                .word_explanations(&f.scenario, &f.ra, &f.rb, &f.comparison);
        let text = self.file_text(
            f.index,
            &example,
            &[
                ("shape", "wording".to_string()),
                ("the words", words),
                (
                    "explained",
                    "a difference of words only: every move made alike, the board the same".into(),
                ),
                ("known", known_words(&self.known(&b_as_a, &a_as_b))),
            ],
        );
        (file, text, b_as_a, a_as_b)
    }

    /// Which of a wording row's explaining options hold on `f` too.
    fn word_checks(
        &self,
        f: &Found,
        b_as_a: &[String],
        a_as_b: &[String],
    ) -> (Vec<bool>, Vec<bool>) {
        let j = self.judges();
        let check = |specs: &[String], on_a: bool| -> Vec<bool> {
            specs
                .iter()
                .map(|spec| {
                    apply_changes(&self.rules, spec).is_ok_and(|rules| {
                        j.words_agree(&f.scenario, &rules, on_a, &f.ra, &f.rb, &f.comparison)
                    })
                })
                .collect()
        };
        (check(b_as_a, true), check(a_as_b, false))
    }

    /// The text of a class or wording file: a comment block with the run, `lines`, and both
    /// engines' verdicts, then the example under the DATC rules, its expectations the decision
    /// engine's result under them.
    fn file_text(&self, index: u64, s: &Scenario, lines: &[(&str, String)]) -> String {
        // Engine names are one line here, whatever was typed: the comment cannot end early; in
        // the first line they are shell words, so that the command pastes back (and the TUI
        // reads the two names, spaces and all).
        let (an, bn) = (one_line(self.a.name()), one_line(self.b.name()));
        let mut out = String::new();
        out.push_str(&format!(
            "{CLASS_HEADER}{} {} --seed {} --mix {}{}: position {index}\n",
            shell_word(&an),
            shell_word(&bn),
            self.seed,
            self.mix.name(),
            if self.map.name == "standard" {
                String::new()
            } else {
                format!(" --map {}", shell_word(&one_line(&self.map.name)))
            },
        ));
        out.push_str(&format!(
            "// rules of the run: {}\n",
            rules_words(&self.rules)
        ));
        for (k, v) in lines.iter().filter(|(_, v)| !v.is_empty()) {
            out.push_str(&format!("// {k}: {}\n", one_line(v)));
        }
        for (e, name) in [(self.a, &an), (self.b, &bn)] {
            out.push_str(&format!("// {name}:\n"));
            match result_of(e, s, &self.rules) {
                Ok(r) => {
                    for (o, oc) in s.orders.iter().zip(&r.outcomes) {
                        out.push_str(&format!(
                            "//   {}: {}: {}\n",
                            s.map.power(o.power).name,
                            o.text,
                            verdict_word(oc.verdict)
                        ));
                    }
                    for d in &r.dislodged {
                        out.push_str(&format!(
                            "//   dislodged: {} {}\n",
                            s.map.power(d.unit.power).name,
                            d.unit.describe(&s.map)
                        ));
                    }
                }
                Err(m) => out.push_str(&format!("//   no result: {}\n", one_line(&m))),
            }
        }
        let title = lines
            .iter()
            .find(|(k, _)| *k == "the cause" || *k == "the words")
            .map_or(String::new(), |(_, v)| v.clone());
        let mut file = s.clone();
        file.rules = Rules::default();
        file.title = format!("versus {an} {bn}: {title}");
        file.description = format!(
            "Found by dipsandbox versus {an} {bn}. {}. The expectations are the DATC rules' (the decision engine's default result).",
            lines
                .iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join("; ")
        );
        file.source = format!(
            "dipsandbox versus, seed {}, mix {}, position {index}",
            self.seed,
            self.mix.name(),
        );
        if let Ok(run) = adjudicate_scenario(&file, None, &DecisionEngine, false) {
            freeze_expectations(&mut file, &run);
        }
        out.push_str(&file.to_ron());
        out
    }

    /// Runs positions `0..count` (those of `shard`) into `out`, a folder made ready by
    /// [`open_output`](super::open_output): class files as they are found, `summary.versus` at the start, after
    /// every batch that found a class (else every two seconds) and at the end. Until the end
    /// the saved summary says `interrupted`, so a run killed at any moment leaves a folder that
    /// `merge` reads and says is incomplete. Stops between batches when `stop` is set; a batch
    /// during which it was set is dropped whole (not counted, nothing of it written), since an
    /// interrupted engine ([`Engine::interrupt`]) answers it with errors: the positions counted
    /// are always the first ones of the shard. `progress` hears after each batch.
    ///
    /// Per batch: the positions are checked in parallel; the causes of each disagreement in
    /// effect are found and explained on the position itself, in parallel; each cause is
    /// counted in the class of its way and explanation, and a class met for the first time is
    /// shrunk to its example (in parallel, in index order); a position that differs in words
    /// only is counted in the wording table under its word pairs, the first of each shrunk.
    pub fn run<P: Parallel>(
        &self,
        count: u64,
        shard: Shard,
        out: &Path,
        par: &P,
        stop: Option<&AtomicBool>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<Summary, VersusError> {
        std::fs::create_dir_all(out).map_err(|e| io_err(out, e))?;
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        let total = shard.len(count);
        let mut tally = Tally::new(self, count, shard);
        tally.summary.interrupted = true;
        tally.save(out)?;
        let mut done = 0u64;
        let mut saved = Instant::now();
        let mut ended = true;
        while done < total {
            if stopped() {
                ended = false;
                break;
            }
            let end = (done + self.batch.max(1)).min(total);
            let idx: Vec<u64> = (done..end).map(|k| shard.nth(k)).collect();
            let checked = par.map(idx, &|i| self.check(i));
            let found: Vec<&Found> = checked
                .iter()
                .filter_map(|c| match c {
                    Checked::Differs(f) => Some(&**f),
                    _ => None,
                })
                .collect();
            let causes: Vec<Vec<Cause>> = if stopped() {
                Vec::new()
            } else {
                par.map(found.clone(), &|f| self.causes_of(f))
            };
            // The classes met for the first time, in index order, and the wording keys.
            let mut new: Vec<(&Found, &Cause)> = Vec::new();
            let mut seen: HashSet<String> = HashSet::new();
            for (f, cs) in found.iter().zip(&causes) {
                for c in cs {
                    let key = class_key(c);
                    if !tally.rows.contains_key(&key) && seen.insert(key) {
                        new.push((f, c));
                    }
                }
            }
            let mut new_words: Vec<&Found> = Vec::new();
            let mut seen_words: HashSet<&Wording> = HashSet::new();
            for c in &checked {
                if let Checked::Worded(f) = c
                    && !tally.words.contains_key(&f.comparison.wording)
                    && seen_words.insert(&f.comparison.wording)
                {
                    new_words.push(f);
                }
            }
            let cases = if stopped() {
                Vec::new()
            } else {
                par.map(new, &|(f, c)| self.case(f, c))
            };
            let word_cases = if stopped() {
                Vec::new()
            } else {
                par.map(new_words.clone(), &|f| self.wording_case(f))
            };
            // Every worded position holds its row's explaining options to account: those of the
            // rows known, and of the rows new in this batch.
            let worded: Vec<&Found> = checked
                .iter()
                .filter_map(|c| match c {
                    Checked::Worded(f) => Some(&**f),
                    _ => None,
                })
                .collect();
            let candidates = |w: &Wording| -> (Vec<String>, Vec<String>) {
                if let Some(r) = tally.words.get(w) {
                    return (r.b_as_a.clone(), r.a_as_b.clone());
                }
                new_words
                    .iter()
                    .zip(&word_cases)
                    .find(|(f, _)| f.comparison.wording == *w)
                    .map(|(_, (_, _, x, y))| (x.clone(), y.clone()))
                    .unwrap_or_default()
            };
            let to_check: Vec<(&Found, Vec<String>, Vec<String>)> = worded
                .iter()
                .map(|f| {
                    let (x, y) = candidates(&f.comparison.wording);
                    (*f, x, y)
                })
                .collect();
            let word_checks: Vec<(Vec<String>, Vec<String>)> = if stopped() {
                Vec::new()
            } else {
                par.map(to_check, &|(f, x, y)| {
                    let (hx, hy) = self.word_checks(f, &x, &y);
                    let keep = |specs: Vec<String>, held: Vec<bool>| -> Vec<String> {
                        specs
                            .into_iter()
                            .zip(held)
                            .filter(|(_, h)| *h)
                            .map(|(s, _)| s)
                            .collect()
                    };
                    (keep(x, hx), keep(y, hy))
                })
            };
            if stopped() {
                ended = false;
                break;
            }
            tally.summary.positions += end - done;
            let mut written = false;
            for c in cases {
                let path = out.join(&c.file);
                write_atomic(&path, &c.text).map_err(|e| io_err(&path, e))?;
                tally.add_class(&c, self);
                written = true;
            }
            for (f, (file, text, b_as_a, a_as_b)) in new_words.iter().zip(word_cases) {
                let path = out.join(&file);
                write_atomic(&path, &text).map_err(|e| io_err(&path, e))?;
                tally.add_wording_row(f, file, b_as_a, a_as_b, self);
                written = true;
            }
            for (f, held) in worded.iter().zip(word_checks) {
                tally.narrow_wording(f, held);
            }
            for c in &checked {
                match c {
                    Checked::Agree => {}
                    Checked::Error(m) => {
                        tally.summary.errors += 1;
                        tally.summary.first_error.get_or_insert_with(|| m.clone());
                    }
                    Checked::Differs(_) => tally.summary.disagreements += 1,
                    Checked::Worded(f) => tally.count_wording(f),
                }
            }
            for (f, cs) in found.iter().zip(&causes) {
                for c in cs {
                    tally.count_cause(f.index, c);
                }
            }
            done = end;
            progress(&Progress {
                done,
                total,
                disagreements: tally.summary.disagreements,
                classes: tally.rows.len(),
            });
            if written || saved.elapsed().as_secs() >= 2 {
                tally.save(out)?;
                saved = Instant::now();
            }
        }
        tally.summary.interrupted = !ended;
        tally.save(out)?;
        Ok(tally.summary())
    }
}

/// The rules in words: `datc`, or the options that differ from it.
pub fn rules_words(r: &Rules) -> String {
    let ov = r.overrides();
    if ov.is_empty() {
        "datc".into()
    } else {
        ov.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// FNV-1a, 64 bits: a stable hash for file names.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The departures `known` in one line (empty when there is none): `dpjudge's known departure:
/// the DPjudge text's step 6/8 (DATC 6.E.6)`.
pub fn known_words(known: &[Known]) -> String {
    known
        .iter()
        .map(Known::words)
        .collect::<Vec<_>>()
        .join("; ")
}

/// The classes and the wording table of a run as it goes.
struct Tally {
    summary: Summary,
    /// The classes by key.
    rows: BTreeMap<String, ClassRow>,
    /// The wording rows by their word pairs.
    words: BTreeMap<Wording, WordingRow>,
}

impl Tally {
    fn new(v: &Versus<'_>, count: u64, shard: Shard) -> Tally {
        Tally {
            summary: Summary {
                a: v.a.name().into(),
                b: v.b.name().into(),
                seed: v.seed,
                mix: v.mix.name().into(),
                map: v.map.name.clone(),
                rules: rules_words(&v.rules),
                count,
                shards: if shard == Shard::WHOLE {
                    Vec::new()
                } else {
                    vec![format!("{}/{}", shard.index, shard.of)]
                },
                ..Summary::default()
            },
            rows: BTreeMap::new(),
            words: BTreeMap::new(),
        }
    }

    /// A new class (not counted yet: [`Tally::count_cause`] counts its position).
    fn add_class(&mut self, c: &Case, v: &Versus<'_>) {
        let (an, bn) = (v.a.name(), v.b.name());
        self.rows.entry(c.key.clone()).or_insert_with(|| ClassRow {
            file: c.file.clone(),
            shape: c.shape.into(),
            b_as_a: c.cause.b_as_a.clone(),
            a_as_b: c.cause.a_as_b.clone(),
            way: c.cause.way.words(an, bn),
            count: 0,
            explained: 0,
            first: c.index,
            datc: c.datc.iter().map(|d| d.to_string()).collect(),
            known: c.known.clone(),
        });
    }

    /// Counts a cause of position `index` in its class.
    fn count_cause(&mut self, index: u64, c: &Cause) {
        if let Some(r) = self.rows.get_mut(&class_key(c)) {
            r.count += 1;
            if c.explained() {
                r.explained += 1;
            }
            r.first = r.first.min(index);
        }
    }

    /// A new row of the wording table (not counted yet), with the options that explain its
    /// first position.
    fn add_wording_row(
        &mut self,
        f: &Found,
        file: String,
        b_as_a: Vec<String>,
        a_as_b: Vec<String>,
        v: &Versus<'_>,
    ) {
        let words = f.comparison.wording.words(v.a.name(), v.b.name());
        let known = v.known(&b_as_a, &a_as_b);
        self.words
            .entry(f.comparison.wording.clone())
            .or_insert_with(|| WordingRow {
                file,
                words,
                count: 0,
                first: f.index,
                b_as_a_held: vec![0; b_as_a.len()],
                b_as_a,
                a_as_b_held: vec![0; a_as_b.len()],
                a_as_b,
                known,
            });
    }

    /// Counts, for each of a wording row's explaining options, whether it held on `f` (`held`:
    /// the options that did).
    fn narrow_wording(&mut self, f: &Found, held: (Vec<String>, Vec<String>)) {
        if let Some(r) = self.words.get_mut(&f.comparison.wording) {
            for (o, k) in r.b_as_a.iter().zip(r.b_as_a_held.iter_mut()) {
                if held.0.contains(o) {
                    *k += 1;
                }
            }
            for (o, k) in r.a_as_b.iter().zip(r.a_as_b_held.iter_mut()) {
                if held.1.contains(o) {
                    *k += 1;
                }
            }
        }
    }

    /// Counts a position that differs in words only.
    fn count_wording(&mut self, f: &Found) {
        self.summary.wording_positions += 1;
        if let Some(r) = self.words.get_mut(&f.comparison.wording) {
            r.count += 1;
            r.first = r.first.min(f.index);
        }
    }

    fn summary(&self) -> Summary {
        let mut s = self.summary.clone();
        s.classes = sorted_rows(self.rows.values().cloned().collect());
        let mut w: Vec<WordingRow> = self.words.values().cloned().collect();
        w.sort_by(|x, y| y.count.cmp(&x.count).then_with(|| x.file.cmp(&y.file)));
        s.wording = w;
        s
    }

    fn save(&self, out: &Path) -> Result<(), VersusError> {
        save_summary(out, &self.summary())
    }
}
