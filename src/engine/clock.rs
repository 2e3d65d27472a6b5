//! Time for the engine: the browser's timers in the app, a virtual clock in native tests so
//! that delays, backoff, stall timeouts and cooldowns are tested in microseconds.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use futures::future::LocalBoxFuture;

pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;
}

/// Virtual time: `sleep` parks until `run_virtual` advances the clock, which it does only when
/// every task is waiting.
#[derive(Clone)]
pub struct VirtualClock(Rc<RefCell<VirtualState>>);

struct VirtualState {
    now: u64,
    next_id: u64,
    timers: BinaryHeap<Reverse<(u64, u64)>>,
    wakers: std::collections::HashMap<u64, Waker>,
}

impl VirtualClock {
    pub fn new(start_ms: u64) -> Self {
        VirtualClock(Rc::new(RefCell::new(VirtualState {
            now: start_ms,
            next_id: 0,
            timers: BinaryHeap::new(),
            wakers: Default::default(),
        })))
    }

    /// Moves time to the earliest pending timer and wakes it. False when nothing waits.
    fn advance(&self) -> bool {
        let mut st = self.0.borrow_mut();
        let Some(Reverse((at, _))) = st.timers.peek().copied() else {
            return false;
        };
        st.now = st.now.max(at);
        while let Some(Reverse((t, id))) = st.timers.peek().copied() {
            if t > st.now {
                break;
            }
            st.timers.pop();
            if let Some(w) = st.wakers.remove(&id) {
                w.wake();
            }
        }
        true
    }
}

impl Clock for VirtualClock {
    fn now_ms(&self) -> u64 {
        self.0.borrow().now
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        let deadline = self.now_ms() + ms;
        Box::pin(VirtualSleep {
            clock: self.clone(),
            deadline,
            id: None,
        })
    }
}

struct VirtualSleep {
    clock: VirtualClock,
    deadline: u64,
    id: Option<u64>,
}

impl Future for VirtualSleep {
    type Output = ();
    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let mut st = self.clock.0.borrow_mut();
        if st.now >= self.deadline {
            return Poll::Ready(());
        }
        let id = match self.id {
            Some(id) => id,
            None => {
                let id = st.next_id;
                st.next_id += 1;
                st.timers.push(Reverse((self.deadline, id)));
                drop(st);
                self.id = Some(id);
                st = self.clock.0.borrow_mut();
                id
            }
        };
        st.wakers.insert(id, cx.waker().clone());
        Poll::Pending
    }
}

/// Runs `fut` to completion on one thread, advancing virtual time whenever every task is
/// blocked on a timer. Panics if the tasks wait on something that is not a timer (a
/// deadlock in the test), which is a test failure worth seeing.
pub fn run_virtual<T: 'static>(clock: &VirtualClock, fut: impl Future<Output = T> + 'static) -> T {
    run_virtual_with(clock, |_| fut)
}

/// Like `run_virtual`, but also hands the test a spawner so it can run side tasks (a user who
/// presses Stop, a human who types a turn) beside the debate.
pub fn run_virtual_with<T: 'static, F, Fut>(clock: &VirtualClock, make: F) -> T
where
    F: FnOnce(futures::executor::LocalSpawner) -> Fut,
    Fut: Future<Output = T> + 'static,
{
    use futures::executor::LocalPool;
    use futures::task::LocalSpawnExt;
    let mut pool = LocalPool::new();
    let spawner = pool.spawner();
    let fut = make(spawner.clone());
    let out = Rc::new(RefCell::new(None));
    let o = out.clone();
    spawner
        .spawn_local(async move {
            *o.borrow_mut() = Some(fut.await);
        })
        .expect("spawn on a fresh pool");
    loop {
        pool.run_until_stalled();
        if let Some(v) = out.borrow_mut().take() {
            return v;
        }
        if !clock.advance() {
            panic!("deadlock: every task waits and no timer is pending");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sleeps_complete_in_virtual_order_without_real_waiting() {
        let clock = VirtualClock::new(1_000);
        let c = clock.clone();
        let order = run_virtual(&clock, async move {
            let log = Rc::new(RefCell::new(Vec::new()));
            let a = {
                let (c, log) = (c.clone(), log.clone());
                async move {
                    c.sleep(60_000).await;
                    log.borrow_mut().push(("a", c.now_ms()));
                }
            };
            let b = {
                let (c, log) = (c.clone(), log.clone());
                async move {
                    c.sleep(5).await;
                    log.borrow_mut().push(("b", c.now_ms()));
                }
            };
            futures::join!(a, b);
            let v = log.borrow().clone();
            v
        });
        assert_eq!(order, vec![("b", 1_005), ("a", 61_000)]);
    }
}
