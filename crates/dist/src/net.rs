//! Connecting the processes of a [`Cluster`] and handing the sockets to timely.
//!
//! timely's own `CommunicationConfig::Cluster` would do this too, but it retries forever when a
//! peer never comes up and prints its progress to standard output, which would mix with a
//! front end's report (the CLI's `--format json`). So the sockets are made here, with the
//! cluster's connection timeout, silently, and passed to timely's
//! `initialize_networking_from_sockets`; the wire protocol after the handshake is timely's.
//!
//! Handshake: process `i` listens on `addresses[i]`, connects to every process `j < i` (retrying
//! until the timeout) and sends its index as 8 big-endian bytes; it accepts one connection from
//! every process `j > i` and reads the index from it.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::{Hooks, WorkerGuards};
use timely::worker::Worker;

use crate::config::Cluster;
use crate::error::DistError;

/// Runs `func` on `threads` workers in this process, connected to the other processes of
/// `cluster`.
pub(crate) fn execute_cluster<T, F>(
    cluster: &Cluster,
    threads: usize,
    func: F,
) -> Result<WorkerGuards<T>, DistError>
where
    T: Send + 'static,
    F: Fn(&mut Worker) -> T + Send + Sync + 'static,
{
    let sockets = connect(cluster)?;
    let hooks = Hooks::default();
    let process =
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(process, sockets, cluster.process, threads, hooks)
            .map_err(|e| DistError::Network(format!("starting the network threads: {e}")))?;
    let builders = builders.into_iter().map(AllocatorBuilder::Tcp).collect();
    timely::execute::execute_from(
        builders,
        Box::new(guard),
        timely::WorkerConfig::default(),
        func,
    )
    .map_err(DistError::Worker)
}

/// One connected socket per other process, in process order (`None` at this process's index).
fn connect(cluster: &Cluster) -> Result<Vec<Option<TcpStream>>, DistError> {
    let me = cluster.process;
    let deadline = Instant::now() + cluster.connect_timeout;
    let listener = TcpListener::bind(&cluster.addresses[me]).map_err(|e| {
        DistError::Network(format!("cannot listen on {}: {e}", cluster.addresses[me]))
    })?;
    let mut sockets: Vec<Option<TcpStream>> = (0..cluster.addresses.len()).map(|_| None).collect();
    for (j, address) in cluster.addresses.iter().enumerate().take(me) {
        let mut stream = connect_to(address, deadline)?;
        stream
            .write_all(&(me as u64).to_be_bytes())
            .map_err(|e| DistError::Network(format!("handshake with {address}: {e}")))?;
        sockets[j] = Some(stream);
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| DistError::Network(e.to_string()))?;
    let mut missing = cluster.addresses.len() - me - 1;
    while missing > 0 {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| DistError::Network(e.to_string()))?;
                stream
                    .set_read_timeout(Some(remaining(deadline)?))
                    .map_err(|e| DistError::Network(e.to_string()))?;
                let mut index = [0u8; 8];
                stream
                    .read_exact(&mut index)
                    .map_err(|e| DistError::Network(format!("handshake: {e}")))?;
                stream
                    .set_read_timeout(None)
                    .map_err(|e| DistError::Network(e.to_string()))?;
                let j = usize::try_from(u64::from_be_bytes(index)).unwrap_or(usize::MAX);
                if j <= me || j >= sockets.len() || sockets[j].is_some() {
                    return Err(DistError::Network(format!(
                        "process {me}: unexpected handshake from process index {j}"
                    )));
                }
                sockets[j] = Some(stream);
                missing -= 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                remaining(deadline)?;
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(DistError::Network(format!("accept: {e}"))),
        }
    }
    for stream in sockets.iter().flatten() {
        stream
            .set_nodelay(true)
            .map_err(|e| DistError::Network(e.to_string()))?;
    }
    Ok(sockets)
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
        std::thread::sleep(Duration::from_millis(20));
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
