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
//! - `ok-then-crash`: answers the first request like `counter`, then exits (status 0) on the
//!   next one without answering it;
//! - `answer-exit`: answers each request like `counter`, then exits at once (one process per
//!   phase in line mode);
//! - `blank-flood`: answers every request with blank lines, without end;
//! - `child`: starts a child process (`sleep 600`), writes its own process id and the child's on
//!   a line to the file `$BROKEN_ADAPTER_PIDS` (if set), then hangs;
//! - `two-units`: answers properly but gives the units after the phase as two in London;
//! - `fleet-inland`: answers properly but gives a fleet in Moscow as the units after the phase;
//! - `newline-reason`: answers properly, with a reason that holds line ends, an ESC sequence
//!   and a right-to-left override;
//! - `long`: writes 256 MiB and one byte without a line end;
//! - `all-succeed`: answers every order `succeeds`, giving no units (the board is worked out
//!   from those verdicts);
//! - `dislodged-stays`: answers like `counter`, dislodges the first unit and lists it among the
//!   units after the phase too.

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
            "answer-exit" => {
                let a = json!({ "protocol": 1, "id": id, "results": results(&request, n) });
                let _ = writeln!(out, "{a}");
                let _ = out.flush();
                std::process::exit(0);
            }
            "blank-flood" => loop {
                if out.write_all(b"\n\n\n\n\n\n\n\n").is_err() {
                    std::process::exit(0);
                }
            },
            "child" => {
                let child = std::process::Command::new("sleep").arg("600").spawn();
                if let (Ok(path), Ok(c)) = (std::env::var("BROKEN_ADAPTER_PIDS"), &child) {
                    let _ = std::fs::write(path, format!("{} {}\n", std::process::id(), c.id()));
                }
                loop {
                    std::thread::sleep(std::time::Duration::from_secs(60));
                }
            }
            "all-succeed" => {
                let r: Vec<Value> = results(&request, n)
                    .into_iter()
                    .map(|mut r| {
                        r["result"] = json!("succeeds");
                        r
                    })
                    .collect();
                json!({ "protocol": 1, "id": id, "results": r })
            }
            "dislodged-stays" => {
                let first = request["units"][0].clone();
                json!({
                    "protocol": 1,
                    "id": id,
                    "results": results(&request, n),
                    "dislodged": [{ "unit": first["unit"], "attacker_from": "Lon" }],
                    "units": request["units"],
                })
            }
            "two-units" => json!({
                "protocol": 1,
                "id": id,
                "results": results(&request, n),
                "units": [
                    { "power": "England", "unit": "A Lon" },
                    { "power": "England", "unit": "F Lon" },
                ],
            }),
            "fleet-inland" => json!({
                "protocol": 1,
                "id": id,
                "results": results(&request, n),
                "units": [{ "power": "Russia", "unit": "F Mos" }],
            }),
            "newline-reason" => {
                let r: Vec<Value> = results(&request, n)
                    .into_iter()
                    .map(|mut r| {
                        r["reason"] = json!("bounced\r\nFORGED LINE \u{1b}[2J\u{202e}desrever");
                        r
                    })
                    .collect();
                json!({ "protocol": 1, "id": id, "results": r })
            }
            "long" => {
                let chunk = vec![b'x'; 1 << 20];
                for _ in 0..256 {
                    if out.write_all(&chunk).is_err() {
                        std::process::exit(0);
                    }
                }
                let _ = out.write_all(b"x");
                let _ = out.flush();
                std::process::exit(0);
            }
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
