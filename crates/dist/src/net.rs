//! Connecting the processes of a [`Cluster`], handing the sockets to timely, and watching the
//! other processes while the check runs.
//!
//! timely's own `CommunicationConfig::Cluster` would connect too, but it retries forever when a
//! peer never comes up and prints its progress to standard output, which would mix with a
//! front end's report (the CLI's `--format json`). So the sockets are made here, with the
//! cluster's connection timeout, silently, and passed to timely's
//! `initialize_networking_from_sockets`; the wire protocol after the handshake is timely's.
//!
//! Handshake: process `i` listens on `addresses[i]`, connects twice to every process `j < i`
//! (retrying until the timeout) and sends on each its index as 8 big-endian bytes and a byte
//! saying what the connection is for (timely's data, or heartbeats); it accepts two connections
//! from every process `j > i` and reads the same from them.
//!
//! # Faults
//!
//! timely has no fault tolerance: a process that dies makes its peers' network threads panic and
//! their workers may wait for its messages for good. So every pair of processes also keeps a
//! heartbeat connection, outside timely: each side writes a byte every [`HEARTBEAT`] and reads
//! the other's with a timeout ([`Cluster::heartbeat_timeout`]). A connection that closes without
//! the peer's "finished" byte, or stays silent past the timeout, makes the check return
//! [`DistError::PeerLost`] naming that process at once (the worker threads are left to end with
//! the process), and this process tells the others which one it lost, so that every survivor
//! names the same process. A process that finishes its check writes "finished" first; one that
//! fails closes its heartbeats, so that its peers stop too.
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::worker::Worker;

use crate::config::Cluster;
use crate::error::DistError;

/// How often a process writes a heartbeat to each other process.
pub(crate) const HEARTBEAT: Duration = Duration::from_millis(200);

/// The bytes of the heartbeat connections: alive, finished, and "I lost process k" (followed by
/// k as 8 big-endian bytes).
const BEAT: u8 = 1;
const FINISHED: u8 = 2;
const LOST: u8 = 3;

/// What a connection is for, sent in the handshake.
const DATA: u8 = 0;
const HEART: u8 = 1;

/// What ends a cluster run: the workers' results, or a lost process.
enum Event<T> {
    Finished(Result<Vec<Result<T, String>>, DistError>),
    Lost { process: usize, reason: String },
}

/// Runs `func` on `threads` workers in this process, connected to the other processes of
/// `cluster`; returns every worker's result (or its panic), or [`DistError::PeerLost`] as soon as
/// another process is lost.
pub(crate) fn run_cluster<T, F>(
    cluster: &Cluster,
    threads: usize,
    func: F,
) -> Result<Vec<Result<T, String>>, DistError>
where
    T: Send + 'static,
    F: Fn(&mut Worker) -> T + Send + Sync + 'static,
{
    let (sockets, beats) = connect(cluster)?;
    let (events, arrivals) = channel();
    let heart = Heart::start(beats, cluster.heartbeat_timeout, &events);
    let me = cluster.process;
    // The workers run on a thread of their own, so that this one can give up on them when a
    // peer is lost: they may be waiting for its messages for good.
    std::thread::Builder::new()
        .name(format!("guarantor-dist-{me}"))
        .spawn(move || {
            let result = execute(sockets, me, threads, func);
            let _ = events.send(Event::Finished(result));
        })
        .map_err(|e| DistError::Network(format!("starting the workers: {e}")))?;
    match arrivals.recv() {
        Ok(Event::Finished(result)) => {
            if result.as_ref().is_ok_and(|r| r.iter().all(Result::is_ok)) {
                heart.finish();
            } else {
                heart.fail(None);
            }
            result
        }
        Ok(Event::Lost { process, reason }) => {
            heart.fail(Some(process));
            Err(DistError::PeerLost {
                process,
                address: cluster.addresses[process].clone(),
                reason,
            })
        }
        Err(_) => Err(DistError::Worker(
            "the workers' thread ended without a result".into(),
        )),
    }
}

/// Starts timely's network threads on `sockets` and `threads` workers on them; joins the workers.
fn execute<T, F>(
    sockets: Vec<Option<TcpStream>>,
    me: usize,
    threads: usize,
    func: F,
) -> Result<Vec<Result<T, String>>, DistError>
where
    T: Send + 'static,
    F: Fn(&mut Worker) -> T + Send + Sync + 'static,
{
    let hooks = Hooks::default();
    let process =
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(process, sockets, me, threads, hooks)
            .map_err(|e| DistError::Network(format!("starting the network threads: {e}")))?;
    let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    let guards = timely::execute::execute_from(
        builders,
        Box::new(guard),
        timely::WorkerConfig::default(),
        func,
    )
    .map_err(DistError::Worker)?;
    Ok(guards.join())
}

/// This process's side of the heartbeat connections.
struct Heart {
    /// Per other process, its heartbeat connection.
    streams: Vec<(usize, TcpStream)>,
    /// Set when this process has its result: the threads then report nothing more.
    over: Arc<AtomicBool>,
}

impl Heart {
    /// Starts, per other process, a thread writing heartbeats and one reading its heartbeats,
    /// which sends [`Event::Lost`] to `events` when the connection closes without the peer's
    /// "finished", stays silent for `timeout`, or the peer reports a lost process.
    fn start<T: Send + 'static>(
        beats: Vec<Option<TcpStream>>,
        timeout: Duration,
        events: &Sender<Event<T>>,
    ) -> Self {
        let over = Arc::new(AtomicBool::new(false));
        let mut streams = Vec::new();
        for (peer, stream) in beats.into_iter().enumerate() {
            let Some(stream) = stream else { continue };
            if let (Ok(writer), Ok(reader)) = (stream.try_clone(), stream.try_clone()) {
                let over_w = Arc::clone(&over);
                std::thread::spawn(move || write_beats(writer, &over_w));
                let over_r = Arc::clone(&over);
                let events = events.clone();
                std::thread::spawn(move || {
                    if let Some((process, reason)) = read_beats(reader, peer, timeout)
                        && !over_r.load(Ordering::SeqCst)
                    {
                        let _ = events.send(Event::Lost { process, reason });
                    }
                });
            }
            streams.push((peer, stream));
        }
        Self { streams, over }
    }

    /// Tells every other process this one finished.
    fn finish(&self) {
        self.over.store(true, Ordering::SeqCst);
        for (_, mut stream) in self.streams.iter().map(|(p, s)| (p, s)) {
            let _ = stream.write_all(&[FINISHED]);
        }
    }

    /// Tells every other process which process was lost, if known, and closes the heartbeats
    /// (which the others read as this process lost, when they do not know better).
    fn fail(&self, lost: Option<usize>) {
        self.over.store(true, Ordering::SeqCst);
        for (peer, mut stream) in self.streams.iter().map(|(p, s)| (*p, s)) {
            if let Some(k) = lost.filter(|&k| k != peer) {
                let mut message = vec![LOST];
                message.extend_from_slice(&(k as u64).to_be_bytes());
                let _ = stream.write_all(&message);
            }
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// Writes a heartbeat every [`HEARTBEAT`] until `over` (or the connection fails: the reader of
/// the same connection is the one that reports).
fn write_beats(mut stream: TcpStream, over: &AtomicBool) {
    while !over.load(Ordering::SeqCst) {
        if stream.write_all(&[BEAT]).is_err() {
            return;
        }
        std::thread::sleep(HEARTBEAT);
    }
}

/// Reads `peer`'s heartbeats until it finishes (`None`) or is lost: the lost process (the peer,
/// or the one it reports lost) and why.
fn read_beats(mut stream: TcpStream, peer: usize, timeout: Duration) -> Option<(usize, String)> {
    if stream.set_read_timeout(Some(timeout)).is_err() {
        return Some((peer, "cannot watch its heartbeat connection".into()));
    }
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(0) => return Some((peer, "its connection closed".into())),
            Ok(_) if byte[0] == BEAT => {}
            Ok(_) if byte[0] == FINISHED => return None,
            Ok(_) if byte[0] == LOST => {
                let mut index = [0u8; 8];
                return match stream.read_exact(&mut index) {
                    Ok(()) => {
                        let k = usize::try_from(u64::from_be_bytes(index)).unwrap_or(usize::MAX);
                        Some((k, format!("process {peer} lost it")))
                    }
                    Err(_) => Some((peer, "its connection closed".into())),
                };
            }
            Ok(_) => return Some((peer, "it sent a malformed heartbeat".into())),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return Some((
                    peer,
                    format!("no heartbeat for {:.1} s", timeout.as_secs_f64()),
                ));
            }
            Err(e) => return Some((peer, format!("its connection failed: {e}"))),
        }
    }
}

/// Per other process, in process order (`None` at this process's index), one connected socket
/// for timely's data and one for heartbeats.
type Links = (Vec<Option<TcpStream>>, Vec<Option<TcpStream>>);

/// How long a process waits between two attempts to connect, or to accept a connection: the
/// processes of a local cluster start within milliseconds of each other, and a check of a few
/// hundred milliseconds should not wait tens of them for its peers (with 20 and 5 ms, two
/// processes took 0.243 s on Client-Server N = 14, 0.236 s with 1 ms).
const POLL: Duration = Duration::from_millis(1);

fn connect(cluster: &Cluster) -> Result<Links, DistError> {
    let me = cluster.process;
    let n = cluster.addresses.len();
    let deadline = Instant::now() + cluster.connect_timeout;
    let listener = TcpListener::bind(&cluster.addresses[me]).map_err(|e| {
        DistError::Network(format!("cannot listen on {}: {e}", cluster.addresses[me]))
    })?;
    let mut data: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    let mut beats: Vec<Option<TcpStream>> = (0..n).map(|_| None).collect();
    for (j, address) in cluster.addresses.iter().enumerate().take(me) {
        for (kind, slot) in [(DATA, &mut data[j]), (HEART, &mut beats[j])] {
            let mut stream = connect_to(address, deadline)?;
            let mut hello = (me as u64).to_be_bytes().to_vec();
            hello.push(kind);
            stream
                .write_all(&hello)
                .map_err(|e| DistError::Network(format!("handshake with {address}: {e}")))?;
            *slot = Some(stream);
        }
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| DistError::Network(e.to_string()))?;
    let mut missing = 2 * (n - me - 1);
    while missing > 0 {
        match listener.accept() {
            Ok((stream, _)) => {
                let (j, kind, stream) = greet(stream, deadline)?;
                let slot = match kind {
                    DATA => data.get_mut(j),
                    HEART => beats.get_mut(j),
                    _ => None,
                };
                match slot {
                    Some(slot @ None) if j > me => *slot = Some(stream),
                    _ => {
                        return Err(DistError::Network(format!(
                            "process {me}: unexpected handshake from process index {j}"
                        )));
                    }
                }
                missing -= 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                remaining(deadline)?;
                std::thread::sleep(POLL);
            }
            Err(e) => return Err(DistError::Network(format!("accept: {e}"))),
        }
    }
    for stream in data.iter().chain(&beats).flatten() {
        stream
            .set_nodelay(true)
            .map_err(|e| DistError::Network(e.to_string()))?;
    }
    Ok((data, beats))
}

/// Reads the handshake of an accepted connection: the peer's index and the connection's kind.
fn greet(mut stream: TcpStream, deadline: Instant) -> Result<(usize, u8, TcpStream), DistError> {
    let net = |e: std::io::Error| DistError::Network(e.to_string());
    stream.set_nonblocking(false).map_err(net)?;
    stream
        .set_read_timeout(Some(remaining(deadline)?))
        .map_err(net)?;
    let mut hello = [0u8; 9];
    stream
        .read_exact(&mut hello)
        .map_err(|e| DistError::Network(format!("handshake: {e}")))?;
    stream.set_read_timeout(None).map_err(net)?;
    let mut index = [0u8; 8];
    index.copy_from_slice(&hello[..8]);
    let j = usize::try_from(u64::from_be_bytes(index)).unwrap_or(usize::MAX);
    Ok((j, hello[8], stream))
}

/// Connects to `address`, retrying until `deadline`.
fn connect_to(address: &str, deadline: Instant) -> Result<TcpStream, DistError> {
    loop {
        let last = match address.to_socket_addrs() {
            Ok(addrs) => {
                let mut last = String::from("no address");
                for addr in addrs {
                    match TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
                        Ok(stream) => return Ok(stream),
                        Err(e) => last = e.to_string(),
                    }
                }
                last
            }
            Err(e) => e.to_string(),
        };
        if Instant::now() >= deadline {
            return Err(DistError::Network(format!(
                "cannot connect to {address}: {last}"
            )));
        }
        std::thread::sleep(POLL);
    }
}

/// The time left before `deadline`, or the timeout error.
fn remaining(deadline: Instant) -> Result<Duration, DistError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        Err(DistError::Network(
            "timed out waiting for the other processes to connect".into(),
        ))
    } else {
        Ok(left)
    }
}
