//! Lines -> blocks -> reading order: `pdfthin/layout/blocks.py` (`build_blocks`, `summarise`)
//! and `pdfthin/layout/order.py` (`reading_order` and the functions it calls), step by step,
//! with the same floating-point operations in the same order.
//!
//! Both read everything they need before they make anything, and never change what they are
//! given, so they can answer `None` at any point: where a coordinate or size is not a finite
//! `float`, a `bold` not a `bool`, a `seq` not an `int` that fits `i64`, a text not a `str`,
//! a block not exactly of the `Block` class, or a container not a `list`. Then Python runs.
//!
//! `order.py`'s one test of membership (`b not in spanning` in `_split_at_spanning`) is the
//! test of the spanning predicate here: a block in `spanning` is in it by identity, and a
//! block outside it cannot equal (dataclass `__eq__`) one inside, since equal blocks have
//! equal `x0` and `x1` (finite floats, compared by value), which is all the predicate reads.

use std::cmp::Ordering;
use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString};

use crate::pyops::{pmax, pmin};

/// A finite `float` (exactly that type: an `int` would keep its type through `min`/`max`).
fn finite(obj: &Bound<'_, PyAny>) -> Option<f64> {
    let v = obj.downcast_exact::<PyFloat>().ok()?.value();
    v.is_finite().then_some(v)
}

fn attr<'py>(obj: &Bound<'py, PyAny>, name: &Bound<'py, PyString>) -> Option<Bound<'py, PyAny>> {
    obj.getattr(name).ok()
}

/// What the blocks read of a `Line`: its box, size, weight and length of text.
struct Geo {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    size: f64,
    bold: bool,
    chars: usize,
}

fn read_geo(py: Python<'_>, line: &Bound<'_, PyAny>) -> Option<Geo> {
    let f = |name: &Bound<'_, PyString>| -> Option<f64> { finite(&line.getattr(name).ok()?) };
    let bold = line.getattr(pyo3::intern!(py, "bold")).ok()?;
    let bold = bold.downcast_exact::<PyBool>().ok()?.is_true();
    Some(Geo {
        x0: f(pyo3::intern!(py, "x0"))?,
        y0: f(pyo3::intern!(py, "y0"))?,
        x1: f(pyo3::intern!(py, "x1"))?,
        y1: f(pyo3::intern!(py, "y1"))?,
        size: f(pyo3::intern!(py, "size"))?,
        bold,
        chars: text_len(py, line)?,
    })
}

/// `len(line.text)` of a `str`.
fn text_len(py: Python<'_>, line: &Bound<'_, PyAny>) -> Option<usize> {
    let text = line.getattr(pyo3::intern!(py, "text")).ok()?;
    text.downcast_exact::<PyString>().ok()?;
    text.len().ok()
}

/// `summarise(block)`: the size holding most characters (the larger of equals) and whether
/// most characters are bold. `weights` keeps its keys in insertion order, equal floats
/// (`0.0`, `-0.0`) as one, the first.
fn summarise<'a>(lines: impl Iterator<Item = &'a Geo>) -> (f64, bool) {
    let mut weights: Vec<(f64, usize)> = Vec::new();
    let (mut bold, mut total) = (0usize, 0usize);
    for line in lines {
        let n = line.chars;
        match weights.iter_mut().find(|kv| kv.0 == line.size) {
            Some(kv) => kv.1 += n,
            None => weights.push((line.size, n)),
        }
        total += n;
        if line.bold {
            bold += n;
        }
    }
    // `max(..., key=lambda kv: (kv[1], kv[0]))`: the first of the largest keys (all
    // distinct here, as the sizes are).
    let mut best = weights.first().copied().unwrap_or((0.0, 0));
    for &(size, n) in weights.iter().skip(1) {
        if n > best.1 || (n == best.1 && size > best.0) {
            best = (size, n);
        }
    }
    (best.0, bold * 2 > total)
}

fn make_block<'py>(
    block: &Bound<'py, PyAny>,
    lines: Bound<'py, PyList>,
    bbox: (f64, f64, f64, f64),
    summary: (f64, bool),
) -> PyResult<Bound<'py, PyAny>> {
    block.call1((lines, bbox.0, bbox.1, bbox.2, bbox.3, summary.0, summary.1))
}

/// A block being grown by `build_blocks`.
struct Growing {
    lines: Vec<usize>,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

struct Joining {
    line_gap_em: f64,
    size_tolerance: f64,
}

impl Joining {
    /// `_joins(block, last, line, gap)`.
    fn joins(&self, block: &Growing, last: &Geo, line: &Geo, gap: f64) -> bool {
        let em = pmax(last.size, line.size);
        if gap < -0.5 * em || gap > self.line_gap_em * em {
            return false;
        }
        if (last.size - line.size).abs() > self.size_tolerance * em {
            return false;
        }
        if last.bold != line.bold && (last.chars < 120 || line.chars < 120) {
            return false;
        }
        let overlap = pmin(block.x1, line.x1) - pmax(block.x0, line.x0);
        if overlap <= 0.3 * pmin(block.x1 - block.x0, line.x1 - line.x0) {
            return false;
        }
        let right = pmax(block.x1, line.x1);
        let short = last.x1 < right - 2.0 * em;
        let indented = line.x0 > block.x0 + 0.5 * em && line.x0 > last.x0 - 0.5 * em;
        !(short && indented)
    }
}

/// `build_blocks(lines, Block, settings)`: `pdfthin.layout.blocks.build_blocks` (new `Block`
/// objects made with the class given, holding the very `Line` objects), or `None` where
/// Python must group (see the module's comment). `settings` is `(LINE_GAP_EM,
/// SIZE_TOLERANCE)`.
#[pyfunction]
pub fn build_blocks<'py>(
    py: Python<'py>,
    lines: Bound<'py, PyAny>,
    block: Bound<'py, PyAny>,
    settings: (f64, f64),
) -> PyResult<Option<Bound<'py, PyList>>> {
    crate::boundary::guard("build_blocks", || {
        let Ok(lines) = lines.downcast_exact::<PyList>() else {
            return Ok(None);
        };
        let objs: Vec<Bound<'py, PyAny>> = lines.iter().collect();
        let mut geos: Vec<Geo> = Vec::with_capacity(objs.len());
        for obj in &objs {
            match read_geo(py, obj) {
                Some(g) => geos.push(g),
                None => return Ok(None),
            }
        }
        let rules = Joining {
            line_gap_em: settings.0,
            size_tolerance: settings.1,
        };
        let mut blocks: Vec<Growing> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        for (i, line) in geos.iter().enumerate() {
            let mut best: Option<usize> = None;
            let mut best_gap = f64::INFINITY;
            let mut still_open: Vec<usize> = Vec::with_capacity(open.len());
            for &b in &open {
                let Some(last) = blocks[b].lines.last().and_then(|&k| geos.get(k)) else {
                    return Ok(None);
                };
                let em = pmax(last.size, line.size);
                let gap = line.y0 - last.y1;
                if gap > rules.line_gap_em * em + 2.0 {
                    continue; // too far above: this block is finished
                }
                still_open.push(b);
                if rules.joins(&blocks[b], last, line, gap) && gap < best_gap {
                    best = Some(b);
                    best_gap = gap;
                }
            }
            open = still_open;
            match best {
                None => {
                    open.push(blocks.len());
                    blocks.push(Growing {
                        lines: vec![i],
                        x0: line.x0,
                        y0: line.y0,
                        x1: line.x1,
                        y1: line.y1,
                    });
                }
                Some(b) => {
                    let best = &mut blocks[b];
                    best.lines.push(i);
                    best.x0 = pmin(best.x0, line.x0);
                    best.x1 = pmax(best.x1, line.x1);
                    best.y1 = pmax(best.y1, line.y1);
                }
            }
        }
        let out = PyList::empty(py);
        for b in &blocks {
            let members = PyList::new(py, b.lines.iter().map(|&k| &objs[k]))?;
            let summary = summarise(b.lines.iter().map(|&k| &geos[k]));
            out.append(make_block(
                &block,
                members,
                (b.x0, b.y0, b.x1, b.y1),
                summary,
            )?)?;
        }
        Ok(Some(out))
    })
}

/// A line of a block, as `reading_order` reads it.
struct OLine<'py> {
    obj: Bound<'py, PyAny>,
    seq: i64,
}

/// A block given to `reading_order`.
struct OBlock<'py> {
    obj: Bound<'py, PyAny>,
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    /// Indices into `Orderer::lines`.
    lines: Vec<usize>,
    table: bool,
}

/// What `reading_order` answers: a block given, or a new one of some of its lines.
enum Placed {
    Given(usize),
    Piece(Vec<usize>),
}

struct Orderer<'py> {
    py: Python<'py>,
    blocks: Vec<OBlock<'py>>,
    lines: Vec<OLine<'py>>,
    min_gutter: f64,
    max_depth: usize,
    stream_tolerance: f64,
}

/// `sorted(items, key=...)` of finite floats, or of pairs of them: stable.
fn sort_by_key<K: PartialOrd, F: Fn(usize) -> K>(items: &mut [usize], key: F) {
    items.sort_by(|&a, &b| key(a).partial_cmp(&key(b)).unwrap_or(Ordering::Equal));
}

/// `_gaps(intervals, min_gap)`: the cut positions between the merged intervals.
fn gaps(mut intervals: Vec<(f64, f64)>, min_gap: f64) -> Vec<f64> {
    intervals.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
    let mut cuts = Vec::new();
    let Some(&(_, mut end)) = intervals.first() else {
        return cuts;
    };
    for &(lo, hi) in intervals.iter().skip(1) {
        if lo - end >= min_gap {
            cuts.push((lo + end) / 2.0);
        }
        end = pmax(end, hi);
    }
    cuts
}

/// `k = sum(1 for c in cuts if centre > c)` for each block, then the non-empty groups.
fn split_by(blocks: &[usize], cuts: &[f64], centre: impl Fn(usize) -> f64) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); cuts.len() + 1];
    for &b in blocks {
        let c = centre(b);
        let k = cuts.iter().filter(|&&cut| c > cut).count();
        if let Some(group) = groups.get_mut(k) {
            group.push(b);
        }
    }
    groups.retain(|g| !g.is_empty());
    groups
}

impl<'py> Orderer<'py> {
    fn block(&self, b: usize) -> &OBlock<'py> {
        &self.blocks[b]
    }

    fn sorted_yx(&self, mut blocks: Vec<usize>) -> Vec<usize> {
        sort_by_key(&mut blocks, |b| (self.block(b).y0, self.block(b).x0));
        blocks
    }

    /// `_order(blocks, out, depth)`.
    fn order(&self, blocks: Vec<usize>, out: &mut Vec<usize>, depth: usize) {
        if blocks.len() <= 1 || depth > self.max_depth {
            out.extend(self.sorted_yx(blocks));
            return;
        }
        if let Some(columns) = self.split_columns(&blocks) {
            for column in columns {
                self.order(column, out, depth + 1);
            }
            return;
        }
        let bands = self
            .split_at_spanning(&blocks)
            .or_else(|| self.split_rows(&blocks));
        match bands {
            None => out.extend(self.sorted_yx(blocks)),
            Some(bands) => {
                for band in bands {
                    self.order(band, out, depth + 1);
                }
            }
        }
    }

    fn split_columns(&self, blocks: &[usize]) -> Option<Vec<Vec<usize>>> {
        let intervals = blocks.iter().map(|&b| (self.block(b).x0, self.block(b).x1));
        let cuts = gaps(intervals.collect(), self.min_gutter);
        if cuts.is_empty() {
            return None;
        }
        Some(split_by(blocks, &cuts, |b| {
            (self.block(b).x0 + self.block(b).x1) / 2.0
        }))
    }

    fn split_rows(&self, blocks: &[usize]) -> Option<Vec<Vec<usize>>> {
        let intervals = blocks.iter().map(|&b| (self.block(b).y0, self.block(b).y1));
        let cuts = gaps(intervals.collect(), 0.5);
        if cuts.is_empty() {
            return None;
        }
        Some(split_by(blocks, &cuts, |b| {
            (self.block(b).y0 + self.block(b).y1) / 2.0
        }))
    }

    /// `_mass(block)`.
    fn mass(&self, b: usize) -> f64 {
        let block = self.block(b);
        pmax(block.y1 - block.y0, 1.0) * block.lines.len().max(1) as f64
    }

    /// `_split_at_spanning(blocks)`.
    fn split_at_spanning(&self, blocks: &[usize]) -> Option<Vec<Vec<usize>>> {
        // (crossing blocks, -balance, x)
        let mut best: Option<(usize, f64, f64)> = None;
        let half = self.min_gutter / 2.0;
        let spans: Vec<(f64, f64, f64)> = blocks
            .iter()
            .map(|&b| (self.block(b).x0, self.block(b).x1, self.mass(b)))
            .collect();
        // `sorted({b.x1 + half for b in blocks})`: equal values as one, the first.
        let mut xs: Vec<f64> = blocks.iter().map(|&b| self.block(b).x1 + half).collect();
        xs.sort_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
        xs.dedup_by(|later, earlier| later == earlier);
        for &x in &xs {
            let (mut left, mut right) = (0.0f64, 0.0f64);
            let mut crossing = 0usize;
            let lo = x - half;
            let hi = x + half;
            for &(x0, x1, mass) in &spans {
                if x1 <= lo {
                    left += mass;
                } else if x0 >= hi {
                    right += mass;
                } else {
                    crossing += 1;
                }
            }
            let side = left + right;
            let least = pmin(left, right);
            if side <= 0.0 || least < 0.15 * side || crossing > blocks.len() / 2 {
                continue;
            }
            let candidate = (crossing, -least, x);
            let better = match best {
                None => true,
                Some(b) => {
                    if candidate.0 != b.0 {
                        candidate.0 < b.0
                    } else if candidate.1 != b.1 {
                        candidate.1 < b.1
                    } else {
                        candidate.2 < b.2
                    }
                }
            };
            if better {
                best = Some(candidate);
            }
        }
        let cut = best?.2;
        let (spanning, rest): (Vec<usize>, Vec<usize>) = blocks.iter().partition(|&&b| {
            let block = self.block(b);
            block.x0 < cut + self.min_gutter / 2.0 && block.x1 > cut - self.min_gutter / 2.0
        });
        let (mut spanning, mut rest) = (spanning, rest);
        sort_by_key(&mut spanning, |b| self.block(b).y0);
        if spanning.is_empty() {
            return None;
        }
        sort_by_key(&mut rest, |b| self.block(b).y0);
        let centre = |b: usize| (self.block(b).y0 + self.block(b).y1) / 2.0;
        let mut bands: Vec<Vec<usize>> = Vec::new();
        let mut i = 0;
        for &span in &spanning {
            let mut above = Vec::new();
            while let Some(&r) = rest.get(i).filter(|&&r| centre(r) < centre(span)) {
                above.push(r);
                i += 1;
            }
            if !above.is_empty() {
                bands.push(above);
            }
            bands.push(vec![span]);
        }
        if i < rest.len() {
            bands.push(rest[i..].to_vec());
        }
        (bands.len() > 1).then_some(bands)
    }

    /// `Block.seq`: the smallest `seq` of its lines, 0 without lines.
    fn seq_of(&self, lines: &[usize]) -> i64 {
        let mut it = lines.iter().map(|&k| self.lines[k].seq);
        let first = it.next().unwrap_or(0);
        it.fold(first, |acc, s| if s < acc { s } else { acc })
    }

    /// `Block.chars`, or `None` where a text is not a `str`.
    fn chars(&self, b: usize) -> Option<usize> {
        let mut total = 0usize;
        for &k in &self.block(b).lines {
            total += text_len(self.py, &self.lines[k].obj)?;
        }
        Some(total)
    }

    /// `_stream_agrees(geometric)`, or `None` where a text is not a `str`.
    fn stream_agrees(&self, geometric: &[usize]) -> Option<bool> {
        let mut seqs: Vec<i64> = Vec::new();
        for &b in geometric {
            if self.block(b).lines.len() >= 2 || self.chars(b)? >= 40 {
                seqs.push(self.seq_of(&self.block(b).lines));
            }
        }
        if seqs.len() < 2 {
            return Some(true);
        }
        let pairs = seqs.len() * (seqs.len() - 1) / 2;
        let mut inversions = 0usize;
        for (i, &a) in seqs.iter().enumerate() {
            inversions += seqs[i + 1..].iter().filter(|&&b| a > b).count();
        }
        Some(inversions as f64 <= self.stream_tolerance * pairs as f64)
    }

    /// `_split_interleaved(blocks)`.
    fn split_interleaved(&self, blocks: &[usize]) -> Vec<Placed> {
        let geometric: Vec<usize> = blocks
            .iter()
            .flat_map(|&b| self.block(b).lines.iter().copied())
            .collect();
        let mut ranked: Vec<usize> = (0..geometric.len()).collect();
        ranked.sort_by_key(|&i| self.lines[geometric[i]].seq);
        // `{id(line): rank}`: a line object met twice keeps its last rank.
        let mut rank: HashMap<usize, usize> = HashMap::with_capacity(ranked.len());
        for (r, &i) in ranked.iter().enumerate() {
            rank.insert(self.lines[geometric[i]].obj.as_ptr() as usize, r);
        }
        let rank_of = |k: usize| {
            rank.get(&(self.lines[k].obj.as_ptr() as usize))
                .copied()
                .unwrap_or(0)
        };
        let mut out = Vec::new();
        for &b in blocks {
            let block = self.block(b);
            if block.table || block.lines.len() < 2 {
                out.push(Placed::Given(b));
                continue;
            }
            let mut piece = vec![block.lines[0]];
            for pair in block.lines.windows(2) {
                let (prev, line) = (pair[0], pair[1]);
                if rank_of(line) != rank_of(prev) + 1 {
                    out.push(Placed::Piece(std::mem::take(&mut piece)));
                }
                piece.push(line);
            }
            if piece.len() == block.lines.len() {
                out.push(Placed::Given(b));
            } else {
                out.push(Placed::Piece(piece));
            }
        }
        out
    }

    /// `_block_of(lines, like)`, or `None` where a line is not read exactly.
    fn block_of(
        &self,
        cls: &Bound<'py, PyAny>,
        lines: &[usize],
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mut geos = Vec::with_capacity(lines.len());
        for &k in lines {
            match read_geo(self.py, &self.lines[k].obj) {
                Some(g) => geos.push(g),
                None => return Ok(None),
            }
        }
        let Some(first) = geos.first() else {
            return Ok(None);
        };
        let mut bbox = (first.x0, first.y0, first.x1, first.y1);
        for g in geos.iter().skip(1) {
            bbox.0 = pmin(bbox.0, g.x0);
            bbox.1 = pmin(bbox.1, g.y0);
            bbox.2 = pmax(bbox.2, g.x1);
            bbox.3 = pmax(bbox.3, g.y1);
        }
        let members = PyList::new(self.py, lines.iter().map(|&k| &self.lines[k].obj))?;
        make_block(cls, members, bbox, summarise(geos.iter())).map(Some)
    }
}

/// `reading_order(blocks, Block, settings)`: `pdfthin.layout.order.reading_order` (the blocks
/// given, reordered, and new `Block` objects where a block splits), or `None` where Python
/// must order (see the module's comment). `settings` is `(MIN_GUTTER, MAX_DEPTH,
/// STREAM_TOLERANCE)`.
#[pyfunction]
pub fn reading_order<'py>(
    py: Python<'py>,
    blocks: Bound<'py, PyAny>,
    block: Bound<'py, PyAny>,
    settings: (f64, usize, f64),
) -> PyResult<Option<Bound<'py, PyList>>> {
    crate::boundary::guard("reading_order", || {
        let Ok(given) = blocks.downcast_exact::<PyList>() else {
            return Ok(None);
        };
        let mut o = Orderer {
            py,
            blocks: Vec::with_capacity(given.len()),
            lines: Vec::new(),
            min_gutter: settings.0,
            max_depth: settings.1,
            stream_tolerance: settings.2,
        };
        for obj in given.iter() {
            if !obj.get_type().is(&block) {
                return Ok(None);
            }
            let f = |name: &Bound<'py, PyString>| attr(&obj, name).as_ref().and_then(finite);
            let (Some(x0), Some(y0), Some(x1), Some(y1)) = (
                f(pyo3::intern!(py, "x0")),
                f(pyo3::intern!(py, "y0")),
                f(pyo3::intern!(py, "x1")),
                f(pyo3::intern!(py, "y1")),
            ) else {
                return Ok(None);
            };
            let Some(kind) = attr(&obj, pyo3::intern!(py, "kind")) else {
                return Ok(None);
            };
            let Ok(kind) = kind.downcast_exact::<PyString>() else {
                return Ok(None);
            };
            let table = kind.as_any().eq(pyo3::intern!(py, "table"))?;
            let Some(members) = attr(&obj, pyo3::intern!(py, "lines")) else {
                return Ok(None);
            };
            let Ok(members) = members.downcast_exact::<PyList>() else {
                return Ok(None);
            };
            let mut lines = Vec::with_capacity(members.len());
            for line in members.iter() {
                let Some(seq) = attr(&line, pyo3::intern!(py, "seq")) else {
                    return Ok(None);
                };
                let Some(seq) = seq
                    .downcast_exact::<PyInt>()
                    .ok()
                    .and_then(|s| s.extract::<i64>().ok())
                else {
                    return Ok(None);
                };
                lines.push(o.lines.len());
                o.lines.push(OLine { obj: line, seq });
            }
            o.blocks.push(OBlock {
                obj,
                x0,
                y0,
                x1,
                y1,
                lines,
                table,
            });
        }
        let mut out = Vec::with_capacity(o.blocks.len());
        o.order((0..o.blocks.len()).collect(), &mut out, 0);
        let Some(agrees) = o.stream_agrees(&out) else {
            return Ok(None);
        };
        if !agrees {
            return Ok(Some(PyList::new(
                py,
                out.iter().map(|&b| &o.blocks[b].obj),
            )?));
        }
        let mut placed = o.split_interleaved(&out);
        // `sorted(..., key=lambda b: b.seq)`: stable.
        placed.sort_by_key(|p| match p {
            Placed::Given(b) => o.seq_of(&o.blocks[*b].lines),
            Placed::Piece(lines) => o.seq_of(lines),
        });
        let result = PyList::empty(py);
        for p in &placed {
            match p {
                Placed::Given(b) => result.append(&o.blocks[*b].obj)?,
                Placed::Piece(lines) => match o.block_of(&block, lines)? {
                    Some(made) => result.append(made)?,
                    None => return Ok(None),
                },
            }
        }
        Ok(Some(result))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(size: f64, bold: bool, chars: usize) -> Geo {
        Geo {
            x0: 0.0,
            y0: 0.0,
            x1: 1.0,
            y1: 1.0,
            size,
            bold,
            chars,
        }
    }

    #[test]
    fn gaps_cut_between_merged_intervals() {
        assert_eq!(gaps(vec![(20.0, 30.0), (0.0, 10.0)], 6.0), vec![15.0]);
        // Overlapping intervals merge; a narrow gap is no cut.
        assert_eq!(
            gaps(vec![(0.0, 10.0), (5.0, 12.0), (15.0, 20.0)], 6.0),
            Vec::<f64>::new()
        );
        assert_eq!(
            gaps(vec![(0.0, 50.0), (5.0, 12.0), (60.0, 70.0)], 6.0),
            vec![55.0]
        );
        assert_eq!(gaps(vec![], 6.0), Vec::<f64>::new());
    }

    #[test]
    fn summarise_weighs_sizes_by_characters() {
        // 10.0 holds 5 characters, 12.0 holds 5: the larger of equals; 3 of 10 bold.
        let lines = [geo(10.0, false, 5), geo(12.0, true, 3), geo(12.0, false, 2)];
        assert_eq!(summarise(lines.iter()), (12.0, false));
        let lines = [geo(10.0, true, 6), geo(12.0, false, 5)];
        assert_eq!(summarise(lines.iter()), (10.0, true));
        // 0.0 and -0.0 are one size, the first met.
        let lines = [geo(0.0, false, 1), geo(-0.0, false, 1)];
        let (size, _) = summarise(lines.iter());
        assert!(size == 0.0 && size.is_sign_positive());
        let lines = [geo(-0.0, false, 1), geo(0.0, false, 1)];
        assert!(summarise(lines.iter()).0.is_sign_negative());
    }

    #[test]
    fn split_by_counts_the_cuts_left_of_the_centre() {
        let centres = [5.0, 25.0, 15.0, 40.0];
        let groups = split_by(&[0, 1, 2, 3], &[15.0, 30.0], |b| centres[b]);
        assert_eq!(groups, vec![vec![0, 2], vec![1], vec![3]]);
    }
}
