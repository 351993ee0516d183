//! `adjudicate(order)` of DATC 5.C: one order's success from the conditions of 5.B, reading
//! the other orders only through `Reads::resolve` (their current resolutions).
//!
//! The functions are deterministic: given the same answers from `resolve`, in the same order,
//! they make the same calls and return the same result. [`super::resolver`] relies on that to
//! run the recursion on an explicit stack (it suspends an adjudication at a `resolve` that needs
//! a new frame, and runs it again later replaying the answers already given).
//!
//! Every rule option the decision engine reads is read here the same way: 4.A.1 (all routes or
//! any route), 4.A.2 (the 1971, 1982 and 2000 exemptions from cutting; the backup rules are in
//! the resolver), 4.A.3 (the route legality chose: land, convoy, or convoy with a land
//! fallback), 4.A.4 (a convoyed attack from the supported move's destination), 4.A.6 (a written
//! convoy path) and 4.A.7 (when a dislodged unit loses its effect).

// Audited exception to `clippy::indexing_slicing` (lib.rs, "Panics"): unit indices index the
// per-unit tables of the board they come from; positions in the scratch lists are below their
// lengths, which are set just before.
#![allow(clippy::indexing_slicing)]

use crate::engine::decision::resolver::Board;
use crate::engine::legality::{Route, UnitOrder};
use crate::model::map::{PowerId, ProvinceId};
use crate::model::rules::{ConvoyedSelfAttack, DislodgedNoEffect, MultiRoute};

/// What an adjudication reads from the resolver.
pub(crate) trait Reads {
    /// The current resolution of another order (5.F `resolve`): true when it succeeds.
    fn resolve(&mut self, order: usize) -> bool;
    /// Whether a backup rule (Szykman) cancelled fleet `f`'s convoy.
    fn cancelled(&self, f: usize) -> bool;
    /// Whether a backup rule (All Hold) failed unit `u`'s move.
    fn held(&self, u: usize) -> bool;
    /// Whether a backup rule (All Hold) left unit `u`'s convoy route without a path.
    fn no_path(&self, u: usize) -> bool;
}

/// Buffers for the convoy chain search, reused between adjudications.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    fleets: Vec<usize>,
    ok: Vec<bool>,
    seen: Vec<bool>,
    stack: Vec<usize>,
}

/// The 5.B conditions over one board.
pub(crate) struct Conditions<'b, 'a> {
    /// The board (orders classed, the tables of who supports, convoys and moves where).
    pub b: &'b Board<'a>,
}

impl Conditions<'_, '_> {
    /// Whether `order` succeeds, given the resolutions `r` gives.
    pub fn adjudicate<R: Reads>(&self, sc: &mut Scratch, r: &mut R, order: usize) -> bool {
        match self.b.orders.get(order) {
            Some(UnitOrder::Move { .. }) => self.moves(sc, r, order),
            Some(UnitOrder::Support { void: None, .. }) => self.support(sc, r, order),
            Some(UnitOrder::Convoy { void: None, .. }) => self.convoy(r, order),
            _ => true,
        }
    }

    /// 5.B.1 MOVE.
    fn moves<R: Reads>(&self, sc: &mut Scratch, r: &mut R, u: usize) -> bool {
        if r.held(u) {
            return false;
        }
        let Some((dest, _)) = self.b.move_of(u) else {
            return false;
        };
        let a = self.attack(sc, r, u);
        // An empty destination has hold strength 0.
        let opp = match self.b.target_unit(u) {
            Some(t) if self.hth(sc, r, u, t) => self.defend(r, t),
            Some(t) => self.hold(r, t),
            None => 0,
        };
        if a <= opp {
            return false;
        }
        for &c in self.b.movers_into(dest) {
            if c != u && a <= self.prevent(sc, r, c) {
                return false;
            }
        }
        true
    }

    /// 5.B.2 SUPPORT: cut by an attack with strength, or by dislodgement.
    fn support<R: Reads>(&self, sc: &mut Scratch, r: &mut R, s: usize) -> bool {
        let b = self.b;
        let Some(UnitOrder::Support { dest, .. }) = b.orders.get(s) else {
            return false;
        };
        let dest = *dest;
        for &c in b.movers_into(b.here(s)) {
            let at_dest = dest.is_some_and(|d| b.here(c) == d);
            let conv = self.uses_convoy(sc, r, c);
            let exempt_dest = at_dest
                && (!conv || b.rules.convoyed_attack_on_supporter == ConvoyedSelfAttack::NotCut);
            let exempt_paradox = conv && b.paradox_exempt(c, s);
            if !exempt_dest && !exempt_paradox && self.attack(sc, r, c) > 0 {
                return false;
            }
            if !exempt_paradox && r.resolve(c) {
                return false;
            }
        }
        true
    }

    /// 5.B.3 CONVOY: the fleet is not dislodged.
    fn convoy<R: Reads>(&self, r: &mut R, f: usize) -> bool {
        let b = self.b;
        for &c in b.movers_into(b.here(f)) {
            if r.resolve(c) {
                return false;
            }
        }
        true
    }

    /// 5.B.4 PATH, for a move by convoy: a chain of fleets with successful convoys.
    fn path<R: Reads>(&self, sc: &mut Scratch, r: &mut R, u: usize) -> bool {
        let b = self.b;
        let Some(UnitOrder::Move { dest, path, .. }) = b.orders.get(u) else {
            return false;
        };
        let dest = *dest;
        if r.no_path(u) {
            return false;
        }
        sc.fleets.clear();
        for &f in b.convoy_fleets(u) {
            if !r.cancelled(f) && path.as_ref().is_none_or(|p| p.contains(&b.here(f))) {
                sc.fleets.push(f);
            }
        }
        sc.ok.clear();
        match b.rules.multi_route_disruption {
            MultiRoute::AllRoutes => {
                for k in 0..sc.fleets.len() {
                    let f = sc.fleets[k];
                    let ok = r.resolve(f);
                    sc.ok.push(ok);
                }
                self.chain(sc, u, dest)
            }
            MultiRoute::AnyRoute => {
                sc.ok.resize(sc.fleets.len(), true);
                if !self.chain(sc, u, dest) {
                    return false;
                }
                // 1971: every fleet on some route must convoy (this rule's only allocation).
                let on_route = b.route_fleets(u, &sc.fleets);
                on_route.into_iter().all(|f| r.resolve(f))
            }
        }
    }

    /// Whether the fleets of `sc.fleets` marked in `sc.ok` form a chain from `u` to `dest`.
    fn chain(&self, sc: &mut Scratch, u: usize, dest: ProvinceId) -> bool {
        let b = self.b;
        let map = b.map;
        let from = b.here(u);
        let n = sc.fleets.len();
        sc.seen.clear();
        sc.seen.resize(n, false);
        sc.stack.clear();
        for i in 0..n {
            if sc.ok[i] && map.provinces_adjacent(from, b.here(sc.fleets[i])) {
                sc.seen[i] = true;
                sc.stack.push(i);
            }
        }
        while let Some(i) = sc.stack.pop() {
            let at = b.here(sc.fleets[i]);
            if map.provinces_adjacent(at, dest) {
                return true;
            }
            for j in 0..n {
                if sc.ok[j] && !sc.seen[j] && map.provinces_adjacent(at, b.here(sc.fleets[j])) {
                    sc.seen[j] = true;
                    sc.stack.push(j);
                }
            }
        }
        false
    }

    /// Whether `u`'s move can reach its destination at all.
    fn path_ok<R: Reads>(&self, sc: &mut Scratch, r: &mut R, u: usize) -> bool {
        match self.b.move_of(u) {
            Some((_, Route::Convoy)) => self.path(sc, r, u),
            Some(_) => true,
            None => false,
        }
    }

    /// Whether `u` travels by convoy (a move that may go either way does when its path holds).
    fn uses_convoy<R: Reads>(&self, sc: &mut Scratch, r: &mut R, u: usize) -> bool {
        match self.b.move_of(u) {
            Some((_, Route::Convoy)) => true,
            Some((_, Route::ConvoyOrLand)) => self.path(sc, r, u),
            _ => false,
        }
    }

    /// A head-to-head battle between `u` and `t`: each moves to the other's province, neither
    /// by convoy.
    fn hth<R: Reads>(&self, sc: &mut Scratch, r: &mut R, u: usize, t: usize) -> bool {
        self.b.opposing(u, t)
            && self.b.move_of(u).is_some()
            && !self.uses_convoy(sc, r, u)
            && !self.uses_convoy(sc, r, t)
    }

    /// The successful supports of `u`'s move, leaving out those of `exclude`.
    fn supports<R: Reads>(&self, r: &mut R, u: usize, exclude: Option<PowerId>) -> i32 {
        let mut n = 0;
        for &s in self.b.move_supporters(u) {
            if exclude.is_some_and(|p| self.b.units[s].power == p) {
                continue;
            }
            if r.resolve(s) {
                n += 1;
            }
        }
        n
    }

    /// 5.B.8 ATTACK STRENGTH.
    fn attack<R: Reads>(&self, sc: &mut Scratch, r: &mut R, u: usize) -> i32 {
        if !self.path_ok(sc, r, u) {
            return 0;
        }
        let b = self.b;
        let Some(t) = b.target_unit(u) else {
            return 1 + self.supports(r, u, None);
        };
        let empty = b.move_of(t).is_some() && !self.hth(sc, r, u, t) && r.resolve(t);
        if empty {
            1 + self.supports(r, u, None)
        } else if b.units[t].power == b.units[u].power {
            0
        } else {
            1 + self.supports(r, u, Some(b.units[t].power))
        }
    }

    /// 5.B.5 HOLD STRENGTH of `t`'s province.
    fn hold<R: Reads>(&self, r: &mut R, t: usize) -> i32 {
        if self.b.move_of(t).is_some() {
            return if r.resolve(t) { 0 } else { 1 };
        }
        let mut n = 1;
        for &s in self.b.hold_supporters(t) {
            if r.resolve(s) {
                n += 1;
            }
        }
        n
    }

    /// 5.B.7 DEFEND STRENGTH.
    fn defend<R: Reads>(&self, r: &mut R, t: usize) -> i32 {
        1 + self.supports(r, t, None)
    }

    /// 5.B.6 PREVENT STRENGTH.
    fn prevent<R: Reads>(&self, sc: &mut Scratch, r: &mut R, c: usize) -> i32 {
        if !self.path_ok(sc, r, c) {
            return 0;
        }
        let b = self.b;
        let opp = b.target_unit(c).filter(|&t| b.opposing(c, t));
        if let Some(t) = opp {
            let beaten = match b.rules.dislodged_no_effect {
                DislodgedNoEffect::HeadToHeadOnly => self.hth(sc, r, c, t) && r.resolve(t),
                DislodgedNoEffect::Always => !r.resolve(c) && r.resolve(t),
            };
            if beaten {
                return 0;
            }
        }
        1 + self.supports(r, c, None)
    }
}
