//! A deliberately broken outside adjudicator, for the tests of dipsandbox's error handling
//! (tests/it/outside.rs): `broken_adapter MODE`, where MODE is
//!
//! - `crash`: reads the request, writes to standard error, exits with status 3;
//! - `hang`: reads the request and never answers;
//! - `garbage`: answers a line that is not JSON;
//! - `missing`: answers every order but the last;
//! - `extra`: answers every order and one more;
//! - `province`: answers properly but dislodges a unit in a province no map has;
//! - `wrong-id`: answers for another request;
//! - `counter`: answers every order `fails` with the reason `process PID answer N` (for the
//!   line-mode test: one process, answers counted);
//! - `ok-then-crash`: answers the first request like `counter`, then exits.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn results(request: &Value, n: u64) -> Vec<Value> {
    let pid = std::process::id();
    request["orders"]
        .as_array()
        .map(|orders| {
            orders
                .iter()
                .map(|o| {
                    json!({
                        "id": o["id"],
                        "result": "fails",
                        "reason": format!("process {pid} answer {n}"),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut n = 0u64;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let request: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let id = request["id"].clone();
        n += 1;
        let answer = match mode.as_str() {
            "crash" => {
                eprintln!("broken_adapter: giving up on purpose");
                std::process::exit(3);
            }
            "hang" => loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
            },
            "garbage" => {
                let _ = writeln!(out, "this is not JSON");
                let _ = out.flush();
                continue;
            }
            "missing" => {
                let mut r = results(&request, n);
                r.pop();
                json!({ "protocol": 1, "id": id, "results": r })
            }
            "extra" => {
                let mut r = results(&request, n);
                r.push(json!({ "id": r.len(), "result": "succeeds" }));
                json!({ "protocol": 1, "id": id, "results": r })
            }
            "province" => json!({
                "protocol": 1,
                "id": id,
                "results": results(&request, n),
                "dislodged": [{ "unit": "A Atlantis", "attacker_from": "Lon" }],
            }),
            "wrong-id" => json!({
                "protocol": 1,
                "id": id.as_u64().unwrap_or(0) + 1000,
                "results": results(&request, n),
            }),
            "ok-then-crash" if n > 1 => std::process::exit(0),
            _ => json!({ "protocol": 1, "id": id, "results": results(&request, n) }),
        };
        if writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}
