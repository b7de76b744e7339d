//! The system under learning: anything that can be reset and then answers each input with an
//! output ([`Sul`], AALpy's `SUL` with `pre`/`step`/`post`, LearnLib's `SUL`), a simulated one
//! made from a known [`Mealy`] machine ([`Simulated`]), and one made from two closures over input
//! names ([`system`]) for the few-lines case.
//!
//! The learners never talk to a [`Sul`] directly: they go through the [`Cache`](super::Cache),
//! which counts, answers what it has seen and checks that the system is deterministic.

use std::fmt;
use std::hash::Hash;

use crate::dfa::Symbol;
use crate::mealy::machine::{Mealy, OutputId, StateId};

/// A system under learning that produces an output for each input.
///
/// Inputs are [`Symbol`]s, indices into the alphabet the learner was given (its names). Outputs are
/// any values that can be compared and printed; the learned machine names its outputs by their
/// [`Display`](fmt::Display) text.
///
/// ```
/// use guarantor_lstar::mealy::Sul;
/// use guarantor_lstar::Symbol;
/// /// Counts inputs 0 modulo 3 and says whether the count is zero.
/// struct Counter(u8);
/// impl Sul for Counter {
///     type Output = bool;
///     type Error = std::convert::Infallible;
///     fn reset(&mut self) -> Result<(), Self::Error> {
///         self.0 = 0;
///         Ok(())
///     }
///     fn step(&mut self, input: Symbol) -> Result<bool, Self::Error> {
///         if input.index() == 0 {
///             self.0 = (self.0 + 1) % 3;
///         }
///         Ok(self.0 == 0)
///     }
/// }
/// let mut c = Counter(0);
/// let mut out = Vec::new();
/// c.query(&[Symbol::new(0), Symbol::new(0), Symbol::new(0)], &mut out)?;
/// assert_eq!(out, [false, false, true]);
/// # Ok::<(), std::convert::Infallible>(())
/// ```
pub trait Sul {
    /// What the system answers to one input.
    type Output: Clone + Eq + Hash + fmt::Display;
    /// How talking to the system can fail.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Brings the system to its initial state.
    ///
    /// # Errors
    /// Whatever the system reports.
    fn reset(&mut self) -> Result<(), Self::Error>;

    /// Feeds one input; the system's output.
    ///
    /// # Errors
    /// Whatever the system reports.
    fn step(&mut self, input: Symbol) -> Result<Self::Output, Self::Error>;

    /// Runs a whole word from the initial state, writing one output per input into `outputs`
    /// (cleared first). The default resets and steps; a system that can run a batch faster (one
    /// round trip to a device, a test harness that takes whole words) overrides it.
    ///
    /// # Errors
    /// Whatever the system reports.
    fn query(
        &mut self,
        word: &[Symbol],
        outputs: &mut Vec<Self::Output>,
    ) -> Result<(), Self::Error> {
        self.reset()?;
        outputs.clear();
        for &a in word {
            outputs.push(self.step(a)?);
        }
        Ok(())
    }

    /// A small number naming `output`, if the system numbers its outputs (a [`Simulated`]
    /// machine does): the cache then interns outputs through a table instead of hashing each
    /// one, which is most of a simulated step's cost. Equal numbers must mean equal outputs.
    /// `None` (the default) for systems that do not number them.
    fn output_number(output: &Self::Output) -> Option<usize> {
        let _ = output;
        None
    }
}

impl<S: Sul + ?Sized> Sul for Box<S> {
    type Output = S::Output;
    type Error = S::Error;
    fn reset(&mut self) -> Result<(), Self::Error> {
        (**self).reset()
    }
    fn step(&mut self, input: Symbol) -> Result<Self::Output, Self::Error> {
        (**self).step(input)
    }
    fn query(
        &mut self,
        word: &[Symbol],
        outputs: &mut Vec<Self::Output>,
    ) -> Result<(), Self::Error> {
        (**self).query(word, outputs)
    }
    fn output_number(output: &Self::Output) -> Option<usize> {
        S::output_number(output)
    }
}

/// A simulated black box: a known machine answering as a system would (tests, benchmarks, and
/// `guarantor learn`). Outputs are the machine's outputs ([`SimulatedOutput`]: the name, and the
/// machine's number for it).
#[derive(Clone, Debug)]
pub struct Simulated<'a> {
    machine: &'a Mealy,
    state: StateId,
}

impl<'a> Simulated<'a> {
    /// A black box behaving as `machine`, in its initial state.
    pub fn new(machine: &'a Mealy) -> Self {
        Self {
            machine,
            state: machine.initial(),
        }
    }
}

/// An output of a [`Simulated`] machine: shown as its name, compared and hashed by the machine's
/// [`OutputId`] (the machine keeps one id per name, so the two agree).
///
/// ```
/// use guarantor_lstar::mealy::{Mealy, Simulated, Sul};
/// use guarantor_lstar::Symbol;
/// let m = Mealy::from_dot("digraph g { s0 -> s0 [label=\"a/beep\"]; __start0 -> s0; }")?;
/// let mut box_ = Simulated::new(&m);
/// box_.reset()?;
/// let out = box_.step(Symbol::new(0))?;
/// assert_eq!(out.name(), "beep");
/// assert_eq!(out.to_string(), "beep");
/// assert_eq!(out.id(), m.output("beep").unwrap());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SimulatedOutput<'a> {
    id: OutputId,
    /// The machine, for the name: looked up only when shown, not on every step.
    machine: &'a Mealy,
}

impl<'a> SimulatedOutput<'a> {
    /// The output's name.
    pub fn name(&self) -> &'a str {
        self.machine.output_name(self.id)
    }

    /// The machine's id of the output.
    pub fn id(&self) -> OutputId {
        self.id
    }
}

impl PartialEq for SimulatedOutput<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for SimulatedOutput<'_> {}

impl Hash for SimulatedOutput<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl fmt::Display for SimulatedOutput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A [`Simulated`] machine was given an input its state has no transition for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no transition from state {} on input `{input}`", state.index())]
#[non_exhaustive]
pub struct Undefined {
    /// The state.
    pub state: StateId,
    /// The input's name.
    pub input: String,
}

impl<'a> Sul for Simulated<'a> {
    type Output = SimulatedOutput<'a>;
    type Error = Undefined;

    fn reset(&mut self) -> Result<(), Undefined> {
        self.state = self.machine.initial();
        Ok(())
    }

    fn step(&mut self, input: Symbol) -> Result<SimulatedOutput<'a>, Undefined> {
        let m = self.machine;
        match m.transition(self.state, input) {
            Some((r, o)) => {
                self.state = r;
                Ok(SimulatedOutput { id: o, machine: m })
            }
            None => Err(Undefined {
                state: self.state,
                input: m.input_name(input).to_owned(),
            }),
        }
    }

    /// The whole word in one loop over the machine's table (what the default does step by step,
    /// with one `Result` per input: a simulated step is otherwise mostly that overhead).
    fn query(
        &mut self,
        word: &[Symbol],
        outputs: &mut Vec<SimulatedOutput<'a>>,
    ) -> Result<(), Undefined> {
        let m = self.machine;
        let (table, k) = (m.table(), m.num_inputs());
        let mut q = m.initial();
        outputs.clear();
        // One pass that stops at the first undefined transition (or unknown input, which
        // `transition` would reject): the table read directly, each output written once.
        outputs.extend(word.iter().map_while(|&input| {
            let slot = (input.index() < k)
                .then(|| table.get(q.index() * k + input.index()).copied().flatten())
                .flatten();
            slot.map(|(r, o)| {
                q = r;
                SimulatedOutput { id: o, machine: m }
            })
        }));
        self.state = q;
        if let Some(&input) = word.get(outputs.len()) {
            return Err(Undefined {
                state: q,
                input: m.input_name(input).to_owned(),
            });
        }
        Ok(())
    }

    fn output_number(output: &SimulatedOutput<'a>) -> Option<usize> {
        Some(output.id.index())
    }
}

/// A system made of closures over input names: `init` makes the initial state, `step` maps a
/// state and an input to the next state and the output. See [`system`].
pub struct FnSystem<T, I, F> {
    names: Vec<String>,
    init: I,
    step: F,
    /// `None` before the first reset (and after a step that panicked: the next starts afresh).
    state: Option<T>,
}

impl<T, I, F> fmt::Debug for FnSystem<T, I, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FnSystem")
            .field("inputs", &self.names)
            .finish_non_exhaustive()
    }
}

/// A system from closures over input names, for learning with [`learn`](super::learn): `init`
/// gives the initial state (called on every reset), `step` maps a state and an input to the next
/// state and the output, as a Mealy machine's transition function does.
///
/// ```
/// use guarantor_lstar::mealy::{learn, system, Config};
/// // Toggles a light: `press` answers on/off alternately, `look` repeats the last answer.
/// let sys = system(["press", "look"], || false, |on: bool, i: &str| {
///     let on = on != (i == "press");
///     (on, if on { "on" } else { "off" })
/// });
/// let learned = learn(sys, &mut guarantor_lstar::mealy::WpMethod::new(1), Config::default())?;
/// assert_eq!(learned.machine.num_states(), 2);
/// # Ok::<(), guarantor_lstar::mealy::MealyError>(())
/// ```
pub fn system<T, I, F, O, N, S>(inputs: N, init: I, step: F) -> FnSystem<T, I, F>
where
    I: FnMut() -> T,
    F: FnMut(T, &str) -> (T, O),
    N: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let names = inputs.into_iter().map(|s| s.as_ref().to_owned()).collect();
    FnSystem {
        names,
        init,
        step,
        state: None,
    }
}

impl<T, I, F> FnSystem<T, I, F> {
    /// The input names, in symbol order.
    pub fn input_names(&self) -> &[String] {
        &self.names
    }
}

impl<T, I, F, O> Sul for FnSystem<T, I, F>
where
    I: FnMut() -> T,
    F: FnMut(T, &str) -> (T, O),
    O: Clone + Eq + Hash + fmt::Display,
{
    type Output = O;
    type Error = std::convert::Infallible;

    fn reset(&mut self) -> Result<(), Self::Error> {
        self.state = Some((self.init)());
        Ok(())
    }

    fn step(&mut self, input: Symbol) -> Result<O, Self::Error> {
        let state = self.state.take().unwrap_or_else(&mut self.init);
        let (next, out) = (self.step)(state, &self.names[input.index()]);
        self.state = Some(next);
        Ok(out)
    }
}

/// A system that knows its own input names, so [`learn`](super::learn) needs nothing else.
pub trait Named: Sul {
    /// The input names, in symbol order.
    fn input_names(&self) -> Vec<String>;
}

impl<T, I, F, O> Named for FnSystem<T, I, F>
where
    I: FnMut() -> T,
    F: FnMut(T, &str) -> (T, O),
    O: Clone + Eq + Hash + fmt::Display,
{
    fn input_names(&self) -> Vec<String> {
        self.names.clone()
    }
}

impl Named for Simulated<'_> {
    fn input_names(&self) -> Vec<String> {
        self.machine.input_names().to_vec()
    }
}
