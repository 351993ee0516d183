//! The outside-adjudicator protocol's answers on arbitrary JSON: the first byte chooses a phase
//! (DATC movement cases, a whole board, retreat and adjustment phases), the rest is read as the
//! answer to its request (`serde_json`) and turned into a phase result (`answer_to_result`): no
//! panic; a result has one outcome per order, one-line reasons of bounded length, a board that
//! can be (one unit a province, each unit where its kind stands) and each unit dislodged once.
//! (The body is [`dipsandbox_fuzz::protocol_answer`], which `cargo test` also runs on the corpus.)

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    dipsandbox_fuzz::protocol_answer(data);
});
