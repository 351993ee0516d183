//! A scenario file as read, before anything in it is looked up: the raw types, and the
//! reader that fills them.
//!
//! Two readers give a [`RawScenario`]. [`read`] is written for this one schema on the pieces of
//! [`crate::base::ron_subset`]: it reads the RON subset that scenario files use in one pass, with no
//! serde visitor between the bytes and the values (loading a scenario must cost no more than
//! adjudicating it; serde's visitors made the reading alone most of an adjudication). For
//! anything else — outside the subset, or wrong — it answers `None`, and the loader reads the
//! text with the `ron` crate through the types' serde implementations, which either accepts it
//! or gives the error with its line and column. Wherever [`read`] gives a value, `ron` gives the
//! same one (`fast_reader_agrees`, checked on every scenario file, mutated copies of them and
//! the fuzz corpus, and by the `scenario_loader` fuzz target).

use std::borrow::Cow;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

use super::parts::Expected;
use crate::base::ron_subset::{Outside, Reader, Result as Read};
use crate::model::rules::Rules;

/// A string of the file: borrowed from the text when it has no escape (no allocation while
/// reading), owned otherwise.
#[derive(Debug, PartialEq, Default)]
pub(super) struct Text<'a>(pub(super) Cow<'a, str>);

pub(super) fn standard_name<'a>() -> Text<'a> {
    Text(Cow::Borrowed("standard"))
}

impl std::ops::Deref for Text<'_> {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_string(V)
    }
}

/// [`OrderedMap`] with keys of the file's text ([`Text`]).
#[derive(Debug, PartialEq)]
pub(super) struct Entries<'a, V>(pub(super) Vec<(Text<'a>, V)>);

impl<V> Default for Entries<'_, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de: 'a, 'a, V: Deserialize<'de>> Deserialize<'de> for Entries<'a, V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<'a, V>(std::marker::PhantomData<(&'a (), V)>);
        impl<'de: 'a, 'a, V: Deserialize<'de>> Visitor<'de> for V2<'a, V> {
            type Value = Entries<'a, V>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a map like { \"England\": [...] }")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry::<Text<'a>, V>()? {
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V2(std::marker::PhantomData))
    }
}

/// Lists of texts by name (`{ "England": ["A London", …], … }`, in file order, a name listed
/// twice kept twice), in two vectors however many lists there are: one of the names, each with
/// where its list ends, and one of every list's texts in turn.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Lists<'a> {
    names: Vec<(Text<'a>, u32)>,
    texts: Vec<Text<'a>>,
}

impl<'a> Lists<'a> {
    /// Room for a scenario's usual lists, so that reading them allocates twice.
    fn with_room() -> Self {
        Lists {
            names: Vec::with_capacity(8),
            texts: Vec::with_capacity(32),
        }
    }

    /// Starts the next list, named `name`.
    fn push_name(&mut self, name: Text<'a>) -> Read<()> {
        let end = u32::try_from(self.texts.len()).map_err(|_| Outside)?;
        self.names.push((name, end));
        Ok(())
    }

    /// Adds a text to the last list (which [`Self::end_list`] then closes).
    fn push_text(&mut self, text: Text<'a>) {
        self.texts.push(text);
    }

    /// Ends the last list after the texts pushed since its name.
    fn end_list(&mut self) -> Read<()> {
        let end = u32::try_from(self.texts.len()).map_err(|_| Outside)?;
        match self.names.last_mut() {
            Some(last) => last.1 = end,
            None => return Err(Outside),
        }
        Ok(())
    }

    /// Whether there is no list.
    pub(super) fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every text of every list, in turn.
    pub(super) fn texts(&self) -> &[Text<'a>] {
        &self.texts
    }

    /// Each list with its name.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&Text<'a>, &[Text<'a>])> + '_ {
        let mut start = 0;
        self.names.iter().map(move |(name, end)| {
            let end = *end as usize;
            let list = self.texts.get(start..end).unwrap_or_default();
            start = end;
            (name, list)
        })
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Lists<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let entries = Entries::<Vec<Text<'a>>>::deserialize(d)?;
        let mut out = Lists::default();
        for (name, list) in entries.0 {
            out.push_name(name).map_err(serde::de::Error::custom)?;
            for t in list {
                out.push_text(t);
            }
            out.end_list().map_err(serde::de::Error::custom)?;
        }
        Ok(out)
    }
}

/// A scenario file as read, its strings borrowed from the text.
#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename = "Scenario", deny_unknown_fields)]
pub(super) struct RawScenario<'a> {
    #[serde(borrow)]
    pub(super) title: Text<'a>,
    #[serde(default, borrow)]
    pub(super) description: Text<'a>,
    #[serde(default, borrow)]
    pub(super) source: Text<'a>,
    #[serde(default = "standard_name", borrow)]
    pub(super) map: Text<'a>,
    #[serde(borrow)]
    pub(super) phase: Text<'a>,
    #[serde(default)]
    pub(super) rules: Rules,
    #[serde(default, borrow)]
    pub(super) units: Lists<'a>,
    #[serde(default, borrow)]
    pub(super) dislodged: Entries<'a, Vec<RawDislodged<'a>>>,
    #[serde(default, borrow)]
    pub(super) contested: Vec<Text<'a>>,
    #[serde(default, borrow)]
    pub(super) owners: Option<Lists<'a>>,
    #[serde(default, borrow)]
    pub(super) orders: Lists<'a>,
    #[serde(default, borrow)]
    pub(super) expect: Option<RawExpect<'a>>,
    #[serde(default, borrow)]
    pub(super) retreats: Option<RawFollowUp<'a>>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(rename = "Dislodged", deny_unknown_fields)]
pub(super) struct RawDislodged<'a> {
    #[serde(borrow)]
    pub(super) unit: Text<'a>,
    #[serde(borrow)]
    pub(super) from: Text<'a>,
    #[serde(default)]
    pub(super) by_convoy: bool,
}

#[derive(Deserialize, Default, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct RawExpect<'a> {
    #[serde(default, borrow)]
    pub(super) results: Vec<(Text<'a>, Expected)>,
    #[serde(default, borrow)]
    pub(super) dislodged: Option<Vec<Text<'a>>>,
    #[serde(default, borrow)]
    pub(super) positions: Option<Lists<'a>>,
}

#[derive(Deserialize, Debug, PartialEq)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFollowUp<'a> {
    #[serde(default, borrow)]
    pub(super) orders: Lists<'a>,
    #[serde(default, borrow)]
    pub(super) expect: Option<RawExpect<'a>>,
}

/// Reads `text` with both scenario readers — the fast one ([`crate::base::ron_subset`]) and the `ron`
/// crate — and says whether they agree: `Ok(true)` when the fast reader read it and `ron` reads
/// the same value, `Ok(false)` when the fast reader left it to `ron`, `Err` (describing both
/// results) when the fast reader gave a value that `ron` does not give. For the fuzz target
/// and tests: loading never needs it (only with the `test-hooks` feature).
#[cfg(feature = "test-hooks")]
pub fn fast_reader_agrees(text: &str) -> Result<bool, String> {
    let Some(fast) = read(text) else {
        return Ok(false);
    };
    let slow: Result<RawScenario, _> = ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .from_str(text);
    match slow {
        Ok(slow) if slow == fast => Ok(true),
        Ok(slow) => Err(format!("the fast reader read {fast:?}, ron {slow:?}")),
        Err(e) => Err(format!("the fast reader read {fast:?}; ron says {e}")),
    }
}

/// Reads a scenario file in the subset ([`crate::base::ron_subset`]) with the schema reader; `None`
/// for anything outside it or wrong (read it with `ron`, which gives the value or the error).
pub(super) fn read(text: &str) -> Option<RawScenario<'_>> {
    let mut r = Reader::new(text);
    let raw = scenario(&mut r).ok()?;
    r.at_end().ok()?.then_some(raw)
}

/// Sets a field read once; a second time is an error (as serde's derived readers have it).
fn once<T>(slot: &mut Option<T>, value: T) -> Read<()> {
    if slot.is_some() {
        return Err(Outside);
    }
    *slot = Some(value);
    Ok(())
}

/// A struct's fields (`Name(field: value, …)`, the name optional but `name` when given): `field`
/// reads the value of each field by the field's name, and refuses names it does not know.
fn fields<'a>(
    r: &mut Reader<'a>,
    name: &str,
    mut field: impl FnMut(&mut Reader<'a>, &'a str) -> Read<()>,
) -> Read<()> {
    r.struct_name(name)?;
    r.items(b'(', b')', |r| {
        let f = r.ident()?.ok_or(Outside)?;
        r.expect(b':')?;
        field(r, f)
    })
}

fn text<'a>(r: &mut Reader<'a>) -> Read<Text<'a>> {
    r.string().map(Text)
}

/// `[…]`, each item read by `item`, into a vector with room for `room` (one allocation for a
/// usual list, not one per doubling).
fn list<'a, T>(
    r: &mut Reader<'a>,
    room: usize,
    mut item: impl FnMut(&mut Reader<'a>) -> Read<T>,
) -> Read<Vec<T>> {
    let mut out = Vec::with_capacity(room);
    r.items(b'[', b']', |r| {
        out.push(item(r)?);
        Ok(())
    })?;
    Ok(out)
}

fn texts<'a>(r: &mut Reader<'a>) -> Read<Vec<Text<'a>>> {
    list(r, 4, text)
}

/// `{ "key": value, … }`, each value read by `value`.
fn entries<'a, V>(
    r: &mut Reader<'a>,
    mut value: impl FnMut(&mut Reader<'a>) -> Read<V>,
) -> Read<Entries<'a, V>> {
    let mut out = Vec::new();
    r.items(b'{', b'}', |r| {
        let key = text(r)?;
        r.expect(b':')?;
        out.push((key, value(r)?));
        Ok(())
    })?;
    Ok(Entries(out))
}

fn text_lists<'a>(r: &mut Reader<'a>) -> Read<Lists<'a>> {
    let mut out = Lists::with_room();
    r.items(b'{', b'}', |r| {
        out.push_name(text(r)?)?;
        r.expect(b':')?;
        r.items(b'[', b']', |r| {
            out.push_text(text(r)?);
            Ok(())
        })?;
        out.end_list()
    })?;
    Ok(out)
}

fn scenario<'a>(r: &mut Reader<'a>) -> Read<RawScenario<'a>> {
    let (mut title, mut description, mut source, mut map, mut phase) =
        (None, None, None, None, None);
    let (mut rules, mut units, mut dislodged, mut contested) = (None, None, None, None);
    let (mut owners, mut orders, mut expect, mut retreats) = (None, None, None, None);
    fields(r, "Scenario", |r, field| match field {
        "title" => once(&mut title, text(r)?),
        "description" => once(&mut description, text(r)?),
        "source" => once(&mut source, text(r)?),
        "map" => once(&mut map, text(r)?),
        "phase" => once(&mut phase, text(r)?),
        // `rules: ()`, as most scenarios have it, is every default (what serde reads too).
        "rules" => once(
            &mut rules,
            if r.eat_empty(b"()")? {
                Rules::default()
            } else {
                r.value::<Rules>()?
            },
        ),
        "units" => once(&mut units, text_lists(r)?),
        "dislodged" => once(&mut dislodged, entries(r, |r| list(r, 2, dislodged_unit))?),
        "contested" => once(&mut contested, texts(r)?),
        // `owners: {}`, as most scenarios have it: an empty map, with no room made for lists.
        "owners" => once(
            &mut owners,
            r.option(|r| {
                if r.eat_empty(b"{}")? {
                    Ok(Lists::default())
                } else {
                    text_lists(r)
                }
            })?,
        ),
        "orders" => once(&mut orders, text_lists(r)?),
        "expect" => once(&mut expect, r.option(expectation)?),
        "retreats" => once(&mut retreats, r.option(follow_up)?),
        _ => Err(Outside),
    })?;
    Ok(RawScenario {
        title: title.ok_or(Outside)?,
        description: description.unwrap_or_default(),
        source: source.unwrap_or_default(),
        map: map.unwrap_or_else(standard_name),
        phase: phase.ok_or(Outside)?,
        rules: rules.unwrap_or_default(),
        units: units.unwrap_or_default(),
        dislodged: dislodged.unwrap_or_default(),
        contested: contested.unwrap_or_default(),
        owners: owners.flatten(),
        orders: orders.unwrap_or_default(),
        expect: expect.flatten(),
        retreats: retreats.flatten(),
    })
}

fn dislodged_unit<'a>(r: &mut Reader<'a>) -> Read<RawDislodged<'a>> {
    let (mut unit, mut from, mut by_convoy) = (None, None, None);
    fields(r, "Dislodged", |r, field| match field {
        "unit" => once(&mut unit, text(r)?),
        "from" => once(&mut from, text(r)?),
        "by_convoy" => once(&mut by_convoy, r.bool()?),
        _ => Err(Outside),
    })?;
    Ok(RawDislodged {
        unit: unit.ok_or(Outside)?,
        from: from.ok_or(Outside)?,
        by_convoy: by_convoy.unwrap_or_default(),
    })
}

fn expectation<'a>(r: &mut Reader<'a>) -> Read<RawExpect<'a>> {
    let (mut results, mut dislodged, mut positions) = (None, None, None);
    fields(r, "RawExpect", |r, field| match field {
        "results" => once(&mut results, list(r, 16, result)?),
        "dislodged" => once(&mut dislodged, r.option(texts)?),
        "positions" => once(&mut positions, r.option(text_lists)?),
        _ => Err(Outside),
    })?;
    Ok(RawExpect {
        results: results.unwrap_or_default(),
        dislodged: dislodged.flatten(),
        positions: positions.flatten(),
    })
}

/// `("order", Verdict)`, with an optional trailing comma: what the tuple's serde reading
/// accepts, read in sequence.
fn result<'a>(r: &mut Reader<'a>) -> Read<(Text<'a>, Expected)> {
    r.expect(b'(')?;
    let key = text(r)?;
    r.expect(b',')?;
    let verdict = match r.ident()? {
        Some("Succeeds") => Expected::Succeeds,
        Some("Fails") => Expected::Fails,
        Some("Illegal") => Expected::Illegal,
        Some("Void") => Expected::Void,
        _ => return Err(Outside),
    };
    r.eat(b',')?;
    r.expect(b')')?;
    Ok((key, verdict))
}

fn follow_up<'a>(r: &mut Reader<'a>) -> Read<RawFollowUp<'a>> {
    let (mut orders, mut expect) = (None, None);
    fields(r, "RawFollowUp", |r, field| match field {
        "orders" => once(&mut orders, text_lists(r)?),
        "expect" => once(&mut expect, r.option(expectation)?),
        _ => Err(Outside),
    })?;
    Ok(RawFollowUp {
        orders: orders.unwrap_or_default(),
        expect: expect.flatten(),
    })
}
