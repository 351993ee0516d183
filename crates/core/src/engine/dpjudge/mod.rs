//! A second, independent movement adjudicator: the **DPjudge procedural algorithm** (Manus
//! Hand's published "DPjudge Adjudication Algorithm", `../shared/reference/dpjudge-algorithm.txt`),
//! with its own step-by-step trace.
//!
//! Files: [`procedure`] (steps 1–10), [`types`] (marks, orders, causes, the result),
//! [`words`] (the events and causes in words), [`stepper`] (the cursor over the trace),
//! [`engine`] (the engine on the seam) and [`departures`] (its documented departures from the
//! DATC, as data).
//!
//! Where the decision engine ([`super::adjudicate_movement`]) solves Kruijswijk's equations, this
//! engine runs the procedure of steps 1–10 exactly as the text states them: it marks units
//! ("void", "no convoy", "convoy endangered", "convoy under attack", "bounce", "cut",
//! "dislodged"), keeps a **support count** and a **no help list** per unit and a **combat list**
//! per space, and loops as the text says — step 4 repeats while the convoy succeeded list grows,
//! step 5 returns to step 4 when it grew, step 6 repeats while it bounces, steps 7 and 8 return to
//! step 6 after a bounce, step 9 returns to step 6 after a cut — then step 10 moves every unmarked
//! unit, running the unbounce procedure on each space it vacates. The procedures cutSupport,
//! checkDisruptions, bounce and unbounce are the text's. The game options of the text are rule
//! options ([`Rules::dpjudge_phantom_orders`](crate::model::rules::Rules::dpjudge_phantom_orders),
//! [`Rules::dpjudge_beleaguered_disrupts`](crate::model::rules::Rules::dpjudge_beleaguered_disrupts)); the
//! decision engine ignores them.
//!
//! The engine shares only the legality step with the decision engine
//! ([`legality::prepare`](crate::engine::legality::prepare)): illegal orders (DATC 4.E.1, geography, coasts, several orders to a
//! unit) are ignored and the unit holds, as the DPjudge refuses such orders when they are
//! submitted; the route of an army's move (over land or by convoy, DATC 4.A.3 under the rules in
//! use) is taken from it — a route that may fall back to the land (the 1971 rule,
//! `adjacent_convoy_fallback`) counts as a convoy, the procedure having no fallback. The matching
//! of supports and convoys (steps 1 and 2) is the engine's own.
//!
//! # Where the text is silent: what the engine does
//!
//! - **Order of work.** "For every unit / space" is taken in unit order (the order of the
//!   position) and in province order (the map's). Steps 4, 5 and 10 can depend on it; the others
//!   reach the same marks in any order.
//! - **The convoy path.** DPjudge orders name the path (`A Lon - Nth - Bel`); ours usually do not.
//!   An army's convoy path is the written one when the rules keep written paths
//!   (`path_specification` `Allowed` or `Required`, DATC 4.A.6). Otherwise it is made of the fleets
//!   that ordered a matching convoy (this army, this destination): the army is marked "no convoy"
//!   in step 1 when they form no route from its province to its destination; a matching fleet is
//!   never void for not being on the path. checkDisruptions then endangers the army when no route
//!   of unthreatened matching fleets is left (`multi_route_disruption=AllRoutes`, 4.A.1 b), or when
//!   any matching fleet on a route is threatened (`AnyRoute`, 4.A.1 a). With one route — the
//!   DPjudge's case — both are the text's "for every fleet in the army's convoy path".
//! - **A written path through a sea with no fleet** is the text's "non-existent fleet": under
//!   `dpjudge_phantom_orders=Hold` the army's order becomes HOLD, under `Void` the army is marked
//!   "no convoy". A support or convoy of a unit that does not exist (illegal for the decision
//!   engine) becomes HOLD (its outcome stays illegal: the order is not carried out) or is marked
//!   "void".
//! - **An army marked "no convoy"** no longer attempts its move: it is not in its destination's
//!   combat list but in its own space's, like a bounced unit, with a support count of 0 and an
//!   empty no help list (so it cannot prevent anyone, and supports of its move do not help it
//!   hold). An army marked "no convoy" in step 5 is taken out of its destination's combat list
//!   and put in its own space's the same way. Once "no convoy", an army leaves the convoying
//!   armies list for good: steps 4 and 5 look only at the others.
//! - **Marks.** A unit may carry several marks ("bounce" and "dislodged"); "change the mark to X"
//!   replaces the convoy marks only; "not marked" means no mark at all.
//! - **Step 10** is a work list: the unmarked moving units in unit order, then every unit the
//!   unbounce procedure frees (it is now an unmarked moving unit, so "for every moving unit that
//!   is not marked" takes it too). The unbounce procedure is a loop, not a recursion: each freed
//!   unit that was not dislodged hands the space it began in to the next round. A freed unit that
//!   had been dislodged is no longer dislodged and moves. The possible-retreat list of a
//!   dislodged unit is made when it is dislodged, from the combat lists as they are then.
//! - **Convoy paradoxes** have no special treatment: the procedure has no cycle to detect. Steps 4
//!   and 5 decide every convoy from the combat lists (a fleet whose space has a single strongest
//!   foreign unit disrupts its convoy), and cutSupport's third criterion keeps a convoyed army from
//!   cutting a support for or against any convoying fleet — the 1982 rule (DATC 4.A.2), even when
//!   the army dislodges the supporter. `docs/dpjudge.md` lists where this departs from the DATC.
//!
//! # Where the text departs from the rules without convoys
//!
//! - Step 6 compares the swapping units' support counts as they are (no no-help list is
//!   subtracted); the engine does what the text says (DATC 6.E.6 departs).
//! - Step 8 says that a victim of the moving unit's own power is "no victim", and then no step
//!   stops a supported unit from dislodging a unit of its own power. The step's title
//!   ("inability to self-dislodge") and DPjudge's program bounce the move: the engine does that
//!   by default, and reads the sentence to the letter under `dpjudge_own_victim: AsWritten`.
//!   `docs/dpjudge.md` lists the DATC cases each changes.
//!
//! # Outcomes
//!
//! One [`OrderOutcome`](crate::engine::outcome::OrderOutcome) per submitted order, indexed as the decision engine's. A move succeeds
//! when it is made in step 10; a support succeeds unless it is void or cut; a convoy succeeds
//! unless it is void or the fleet is dislodged; a hold succeeds unless dislodged. The reason names
//! the step and the mark: `bounced in step 7: support count 1 is not greater than 1 of A War - Sil`.
//!
//! # Tracing
//!
//! [`adjudicate`] without a trace records nothing (its tracer is a type parameter, the shared
//! [`Tracer<DpEvent>`](crate::engine::trace::Tracer) of every engine, and `NoTrace` compiles
//! every trace statement away); with one it records [`DpEvent`]s, which [`DpStepper`] (the
//! generic cursor over this engine's [`DpState`]) walks forward and back exactly. On the engine
//! seam the engine is [`DpjudgeEngine`], its result's detail a [`DpjudgeResult`].
//!
//! # Files
//! [`types`] (marks, orders, causes, events, the result), [`procedure`] (steps 1–10 and the
//! engine on the seam), [`words`] (causes and steps in words), [`stepper`] (the trace state the
//! cursor steps through).
//!
//! ```
//! use dipsandbox_core::engine::dpjudge::{self, Mark};
//! use dipsandbox_core::engine::Verdict;
//! use dipsandbox_core::model::board::Unit;
//! use dipsandbox_core::model::map::{Map, UnitKind};
//! use dipsandbox_core::model::orders::parse_order;
//! use dipsandbox_core::model::rules::Rules;
//!
//! let map = Map::standard();
//! let ger = map.find_power("Germany").unwrap();
//! let rus = map.find_power("Russia").unwrap();
//! let unit = |p, k, name: &str| Unit { power: p, kind: k, loc: map.province(map.find_province(name).unwrap()).main };
//! let units = vec![unit(ger, UnitKind::Army, "ber"), unit(rus, UnitKind::Army, "war")];
//! let orders = vec![
//!     (ger, parse_order(&map, "A Ber - Sil").unwrap()),
//!     (rus, parse_order(&map, "A War - Sil").unwrap()),
//! ];
//! let r = dpjudge::adjudicate(&map, &units, &orders, &Rules::default(), false);
//! assert_eq!(r.outcomes[0].verdict, Verdict::Fails);
//! assert_eq!(r.outcomes[0].reason, "bounced in step 7: support count 0 is not greater than 0 of A War - Sil");
//! assert!(r.marks[1].contains(Mark::Bounce));
//! ```

pub mod departures;
pub mod engine;
pub mod procedure;
pub mod stepper;
pub mod types;
pub mod words;

pub use engine::DpjudgeEngine;
pub use procedure::adjudicate;
pub use stepper::{CombatEntry, DpState, DpStepper};
pub use types::*;
pub use words::step_title;
