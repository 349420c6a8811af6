//! Several CSV columns in one pass, each through its own [`Transform`].

use super::{Outputs, Transform, ValueError, Values};

/// Sends the values of each transformed column to that column's transform
/// (one batch call per column per batch) and puts the outputs back in
/// record order. Value `i` of a batch is column `i % n` of its record, as
/// [`Layout::Csv`](super::Layout::Csv) lays them out.
///
/// ```
/// use tessera_cli::records::{self, Layout, Outputs, PerColumn, Transform, ValueError, Values};
///
/// struct Map(fn(u8) -> u8);
/// impl Transform for Map {
///     fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
///         for i in 0..input.len() {
///             out.data.extend(input.get(i).iter().map(|&b| (self.0)(b)));
///             out.ends.push(out.data.len());
///         }
///         Ok(())
///     }
/// }
/// let csv = b"a,b,c\nxy,kk,zz\n";
/// let mut input = &csv[..];
/// let mut out = Vec::new();
/// let layout = Layout::start(true, &["c".into(), "a".into()], &mut input, &mut out).unwrap();
/// let make = || {
///     let parts: Vec<Box<dyn Transform + Send>> =
///         vec![Box::new(Map(|b| b.to_ascii_uppercase())), Box::new(Map(|b| b + 1))];
///     Ok(Box::new(PerColumn::new(parts)) as Box<dyn Transform + Send>)
/// };
/// records::run(&layout, input, &mut out, 1, make).unwrap();
/// assert_eq!(out, b"a,b,c\nyz,kk,ZZ\n");
/// ```
pub struct PerColumn<'a> {
    parts: Vec<Box<dyn Transform + Send + 'a>>,
    ins: Vec<Values>,
    outs: Vec<Outputs>,
}

impl std::fmt::Debug for PerColumn<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PerColumn").field("columns", &self.parts.len()).finish_non_exhaustive()
    }
}

impl<'a> PerColumn<'a> {
    /// One transform per transformed column, in the order the columns were named.
    pub fn new(parts: Vec<Box<dyn Transform + Send + 'a>>) -> Self {
        let n = parts.len();
        PerColumn {
            parts,
            ins: (0..n).map(|_| Values::default()).collect(),
            outs: (0..n).map(|_| Outputs::default()).collect(),
        }
    }
}

impl Transform for PerColumn<'_> {
    fn apply(&mut self, input: &Values, out: &mut Outputs) -> Result<(), ValueError> {
        let n = self.parts.len();
        for (k, sub) in self.ins.iter_mut().enumerate() {
            sub.clear();
            for i in (k..input.len()).step_by(n) {
                sub.push(input.get(i));
                if let Some(t) = input.tweak(i) {
                    let span = sub.append(t);
                    sub.tweaks.push(span);
                }
            }
        }
        for (k, (part, (sub, o))) in self.parts.iter_mut().zip(self.ins.iter().zip(&mut self.outs)).enumerate() {
            o.clear();
            part.apply(sub, o).map_err(|e| ValueError { index: e.index * n + k, error: e.error })?;
        }
        for i in 0..input.len() {
            out.data.extend_from_slice(self.outs[i % n].get(i / n));
            out.ends.push(out.data.len());
        }
        Ok(())
    }
}
