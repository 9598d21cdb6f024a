//! `serve --tcp`: the token line, several connections, the connection cap, and a network
//! server's log file with the messages in and out.

use super::*;

#[test]
fn tcp_needs_the_token_line_and_serves_several_connections() {
    let env = Env::new();
    let server = start(&env, &["serve", "--tcp", "0"]);
    let addr = server.tcp.expect("tcp address");
    // A wrong token line: one error, then the connection is closed.
    let mut s = TcpStream::connect(addr).expect("connect");
    writeln!(s, "Bearer not-the-token").expect("send");
    writeln!(s, "{INIT}").expect("send");
    let mut answer = String::new();
    s.read_to_string(&mut answer).expect("read");
    assert!(answer.contains("-32001") && !answer.contains("\"result\""), "{answer}");

    let token = env.token();
    let clients: Vec<TcpStream> = (0..3).map(|_| TcpStream::connect(addr).expect("connect")).collect();
    for (n, mut s) in clients.into_iter().enumerate() {
        writeln!(s, "Bearer {token}").expect("send");
        let mut reader = BufReader::new(s.try_clone().expect("clone"));
        let init = rpc(&mut s, &mut reader, &init_msg(1)).expect("answer");
        assert_eq!(init["result"]["serverInfo"]["name"], "mcp-java-index", "client {n}: {init}");
        rpc(&mut s, &mut reader, &initialized());
        // Bad input is answered and the connection goes on.
        writeln!(s, "{{not json").expect("send");
        let mut line = String::new();
        reader.read_line(&mut line).expect("read");
        assert!(line.contains("-32700"), "{line}");
        assert_outline(&rpc(&mut s, &mut reader, &outline_call(2)).expect("answer"));
    }
}

#[test]
fn a_network_server_writes_its_logs_and_the_tcp_messages_to_its_log_file() {
    let env = Env::new();
    let log = env.user.path().join("server.log");
    let log_arg = log.to_string_lossy().into_owned();
    let server = start(&env, &["serve", "--tcp", "0", "--log-file", &log_arg, "--log-level", "info"]);
    let mut s = TcpStream::connect(server.tcp.expect("tcp")).expect("connect");
    writeln!(s, "Bearer {}", env.token()).expect("send");
    let mut reader = BufReader::new(s.try_clone().expect("clone"));
    rpc(&mut s, &mut reader, &init_msg(1)).expect("answer");
    assert_outline(&rpc(&mut s, &mut reader, &outline_call(2)).expect("answer"));
    drop((s, reader));
    // The server's own log lines (not only on a stderr that a daemon has nowhere to send) and
    // each message in and out, in one owner-only file.
    wait_until("the server's log lines in its log file", 20, || {
        std::fs::read_to_string(&log).is_ok_and(|t| t.contains("connection ended"))
    });
    let text = std::fs::read_to_string(&log).expect("log");
    assert!(text.contains(" <- {") && text.contains(" -> {") && text.contains("\"java_index\""), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&log).expect("log").permissions().mode() & 0o777, 0o600);
    }
}

#[test]
fn connections_beyond_the_cap_are_closed_and_the_server_keeps_serving() {
    let env = Env::new();
    let server = start(&env, &["serve", "--tcp", "0"]);
    let addr = server.tcp.expect("tcp");
    // 256 connections that never send their token hold every slot…
    let idle: Vec<TcpStream> = (0..256).map(|_| TcpStream::connect(addr).expect("connect")).collect();
    std::thread::sleep(Duration::from_millis(300));
    // …so the next one is closed at once, without waiting for its token.
    let mut over = TcpStream::connect(addr).expect("connect");
    over.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
    let mut buf = [0u8; 64];
    let n = over.read(&mut buf).expect("closed, not timed out");
    assert_eq!(n, 0, "the connection over the cap was served: {:?}", String::from_utf8_lossy(&buf[..n]));
    // Once they go, a client with the token is served again.
    drop(idle);
    std::thread::sleep(Duration::from_millis(300));
    let mut s = TcpStream::connect(addr).expect("connect");
    writeln!(s, "Bearer {}", env.token()).expect("send");
    let mut reader = BufReader::new(s.try_clone().expect("clone"));
    let init = rpc(&mut s, &mut reader, &init_msg(1)).expect("answer");
    assert_eq!(init["result"]["serverInfo"]["name"], "mcp-java-index", "{init}");
}
