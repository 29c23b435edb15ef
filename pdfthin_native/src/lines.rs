//! Runs -> lines: the grouping of `pdfthin/layout/lines.py` (`_group` and the functions it
//! calls), step by step, with the same floating-point operations in the same order.
//!
//! The geometry runs here; every test of a run's text (fonts' names, labels, prose) is asked
//! of the Python module through its hooks, so regular expressions and Unicode classes are
//! Python's own. Where the arithmetic could leave what `f64` and `i64` mirror exactly
//! (infinite, NaN or huge coordinates), `group_lines` answers `None` and Python groups.

use std::cell::RefCell;
use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::font::py_sum;
use crate::pyops::{is_space, pmax, pmin, utf8};

/// Coordinates beyond this make Python's `int(centre // 6)` leave `i64`; let Python group.
const MAX_COORD: f64 = 1e15;

struct Settings {
    same_line_overlap: f64,
    gutter_gap_em: f64,
    split_gap_em: f64,
    label_gap_em: f64,
    code_gap_em: f64,
    gutter_min_rows: usize,
    stretched_gap_em: f64,
    label_max_em: f64,
    label_align: f64,
    column_line_em: f64,
    bucket: f64,
}

struct Run<'py> {
    obj: Bound<'py, PyAny>,
    /// `x0, y0, x1, y1, size` as the run holds them (a line is made of these objects).
    raw: [Bound<'py, PyAny>; 5],
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
    size: f64,
}

/// A line being grown (`_Open`).
struct Open {
    runs: Vec<usize>,
    top: f64,
    bottom: f64,
    right: f64,
    size: f64,
}

struct Hooks<'py> {
    is_monospace: Bound<'py, PyAny>,
    sublabel: Bound<'py, PyAny>,
    hanging_label: Bound<'py, PyAny>,
    leader_to_number: Bound<'py, PyAny>,
    prose_row: Bound<'py, PyAny>,
    label_pair: Bound<'py, PyAny>,
}

/// What making a line needs from Python: the `Line` class, `logical_order`, and
/// `_make_line` itself for a line whose text has no UTF-8 form (lone surrogates).
struct Maker<'py> {
    line: Bound<'py, PyAny>,
    logical_order: Bound<'py, PyAny>,
    make_line: Bound<'py, PyAny>,
    word_gap_em: f64,
    punct_gap_em: f64,
}

struct Grouper<'py> {
    py: Python<'py>,
    monospace: RefCell<HashMap<usize, bool>>,
    runs: Vec<Run<'py>>,
    hooks: Hooks<'py>,
    make: Maker<'py>,
    s: Settings,
    neumaier: bool,
}

/// Whether `c` may be a right-to-left letter (bidi class R or AL) in some Unicode version:
/// the blocks of the right-to-left scripts and their presentation forms, and RLM. A line
/// without one is its own logical order (`bidi.logical_order` gives it back unchanged).
fn maybe_rtl(c: char) -> bool {
    matches!(
        c,
        '\u{0590}'..='\u{08FF}'
            | '\u{200F}'
            | '\u{FB1D}'..='\u{FDFF}'
            | '\u{FE70}'..='\u{FEFF}'
            | '\u{10800}'..='\u{10FFF}'
            | '\u{1E800}'..='\u{1EFFF}'
    )
}

/// Python's `x or 1.0` for a float.
fn or_one(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        x
    }
}

/// Python's `float // float` (CPython's `float_floor_div`).
fn py_floordiv(vx: f64, wx: f64) -> f64 {
    let mut m = vx % wx;
    let mut div = (vx - m) / wx;
    if m != 0.0 {
        if (wx < 0.0) != (m < 0.0) {
            m += wx;
            div -= 1.0;
        }
    } else {
        m = 0.0f64.copysign(wx);
    }
    let _ = m;
    if div != 0.0 {
        let mut floordiv = div.floor();
        if div - floordiv > 0.5 {
            floordiv += 1.0;
        }
        floordiv
    } else {
        0.0f64.copysign(vx / wx)
    }
}

/// Python's `round(x)` of a float (halves to even).
fn py_round(x: f64) -> i64 {
    let mut rounded = x.round();
    if (x - rounded).abs() == 0.5 {
        rounded = 2.0 * (x / 2.0).round();
    }
    rounded as i64
}

fn sort_by_key<T, F: Fn(&T) -> f64>(items: &mut [T], key: F) {
    // Keys are finite (checked on entry), so this is Python's stable sort on them.
    items.sort_by(|a, b| {
        key(a)
            .partial_cmp(&key(b))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
}

impl<'py> Grouper<'py> {
    fn run_list(&self, indices: &[usize]) -> PyResult<Bound<'py, PyList>> {
        PyList::new(self.py, indices.iter().map(|&i| &self.runs[i].obj))
    }

    fn text(&self, i: usize) -> PyResult<Bound<'py, PyAny>> {
        self.runs[i].obj.getattr(pyo3::intern!(self.py, "text"))
    }

    fn is_monospace(&self, i: usize) -> PyResult<bool> {
        let font = self.runs[i].obj.getattr(pyo3::intern!(self.py, "font"))?;
        // Runs of one font share its name's object: ask once per object (each stays alive,
        // held by its run, for the whole call).
        let key = font.as_ptr() as usize;
        if let Some(&known) = self.monospace.borrow().get(&key) {
            return Ok(known);
        }
        let answer = self.hooks.is_monospace.call1((font,))?.is_truthy()?;
        self.monospace.borrow_mut().insert(key, answer);
        Ok(answer)
    }

    fn hanging_label(&self, line: &Open, run: usize) -> PyResult<bool> {
        if line.runs.len() > 3 {
            return Ok(false); // `_hanging_label`'s first test, without the call
        }
        let runs = self.run_list(&line.runs)?;
        self.hooks
            .hanging_label
            .call1((runs, &self.runs[run].obj))?
            .is_truthy()
    }

    fn leader_to_number(&self, line: &Open, run: usize) -> PyResult<bool> {
        // Dot leaders end the line so far with a full stop: without one, no need to ask.
        let last = *line.runs.last().expect("an open line has a run");
        let tail = self.text(last)?;
        if let Some(tail) = utf8(&tail)? {
            if !tail.trim_end_matches(is_space).ends_with('.') {
                return Ok(false);
            }
        } // (a text with lone surrogates has no UTF-8 form: the hook decides)
        let runs = self.run_list(&line.runs)?;
        self.hooks
            .leader_to_number
            .call1((runs, line.right, &self.runs[run].obj))?
            .is_truthy()
    }

    fn sublabel(&self, run: usize) -> PyResult<bool> {
        self.hooks.sublabel.call1((self.text(run)?,))?.is_truthy()
    }

    /// `_Open(run)`
    fn open(&self, run: usize) -> Open {
        let r = &self.runs[run];
        Open {
            runs: vec![run],
            top: r.y0,
            bottom: r.y1,
            right: r.x1,
            size: r.size,
        }
    }

    /// `_duplicate(a, b)`: the same text drawn twice a fraction of a point apart.
    fn duplicate(&self, a: usize, b: usize) -> PyResult<bool> {
        let (ra, rb) = (&self.runs[a], &self.runs[b]);
        if !((ra.x0 - rb.x0).abs() < 1.0 && (ra.y0 - rb.y0).abs() < 1.0) {
            return Ok(false);
        }
        self.text(a)?.eq(self.text(b)?)
    }

    /// `_Open.add`
    fn add(&self, line: &mut Open, run: usize) -> PyResult<()> {
        let last = *line.runs.last().expect("an open line has a run");
        if self.duplicate(last, run)? {
            return Ok(());
        }
        line.runs.push(run);
        let r = &self.runs[run];
        line.right = pmax(line.right, r.x1);
        if r.y1 - r.y0 > line.bottom - line.top {
            line.top = r.y0;
            line.bottom = r.y1;
            line.size = r.size;
        }
        Ok(())
    }

    /// `_make_line` (and `_one_run_line`): the line of these runs, left to right.
    fn make_line(&self, runs: &[usize]) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let mut texts: Vec<Bound<'py, PyAny>> = Vec::with_capacity(runs.len());
        let mut strs: Vec<String> = Vec::with_capacity(runs.len());
        for &i in runs {
            let text = self.text(i)?;
            match utf8(&text)? {
                Some(t) => strs.push(t),
                // No UTF-8 form (lone surrogates): Python makes this line.
                None => return self.make.make_line.call1((self.run_list(runs)?,)),
            }
            texts.push(text);
        }
        let joined: String = if runs.len() == 1 {
            strs[0]
                .split(is_space)
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            let mut parts: Vec<&str> = Vec::with_capacity(2 * runs.len());
            let mut right = 0.0;
            for (k, &i) in runs.iter().enumerate() {
                let r = &self.runs[i];
                let text = strs[k].as_str();
                if k > 0 {
                    let prev = &self.runs[runs[k - 1]];
                    let gap = r.x0 - right;
                    let em = or_one(pmin(prev.size, r.size));
                    let closing = text
                        .chars()
                        .next()
                        .is_some_and(|c| ",.;:)]}!?%".contains(c));
                    let threshold = if closing {
                        self.make.punct_gap_em
                    } else {
                        self.make.word_gap_em
                    };
                    if gap > threshold * em
                        && parts.last().is_some_and(|p| !p.ends_with(' '))
                        && !text.starts_with(' ')
                    {
                        parts.push(" ");
                    }
                }
                parts.push(text);
                right = if k == 0 { r.x1 } else { pmax(right, r.x1) };
            }
            parts
                .concat()
                .split(is_space)
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let text = if joined.is_ascii() || !joined.chars().any(maybe_rtl) {
            PyString::new(py, &joined).into_any()
        } else {
            self.make.logical_order.call1((joined,))?
        };
        let attr = |i: usize, name: &Bound<'py, PyString>| self.runs[i].obj.getattr(name);
        let (bold_name, italic_name, font_name, artifact_name, seq_name) = (
            pyo3::intern!(py, "bold"),
            pyo3::intern!(py, "italic"),
            pyo3::intern!(py, "font"),
            pyo3::intern!(py, "artifact"),
            pyo3::intern!(py, "seq"),
        );
        let spans = PyList::empty(py);
        for (k, &i) in runs.iter().enumerate() {
            let r = &self.runs[i];
            spans.append((&r.raw[0], &r.raw[2], &texts[k]))?;
        }
        let first = &self.runs[runs[0]];
        if runs.len() == 1 {
            let i = runs[0];
            return self.make.line.call1((
                text,
                &first.raw[0],
                &first.raw[1],
                &first.raw[2],
                &first.raw[3],
                &first.raw[4],
                attr(i, bold_name)?,
                attr(i, italic_name)?,
                attr(i, font_name)?,
                attr(i, artifact_name)?,
                attr(i, seq_name)?,
                spans,
            ));
        }
        // size: the most used (by characters), the larger of equals; font: the most used,
        // the first of equals; bold and italic: more than half of the characters.
        let mut weights: Vec<(f64, usize, i64)> = Vec::new(); // (size, run giving the key, n)
        let mut fonts: Vec<(Bound<'py, PyAny>, i64)> = Vec::new();
        let (mut bold, mut italic, mut total) = (0i64, 0i64, 0i64);
        let mut artifact = true;
        let mut seq: Option<Bound<'py, PyAny>> = None;
        let (mut x0, mut y0, mut x1, mut y1) = (runs[0], runs[0], runs[0], runs[0]);
        for (k, &i) in runs.iter().enumerate() {
            let r = &self.runs[i];
            let n = match strs[k].trim_matches(is_space).chars().count() {
                0 => 1,
                n => n as i64,
            };
            total += n;
            match weights.iter_mut().find(|w| w.0 == r.size) {
                Some(w) => w.2 += n,
                None => weights.push((r.size, i, n)),
            }
            let font = attr(i, font_name)?;
            let mut found = false;
            for f in fonts.iter_mut() {
                if f.0.is(&font) || f.0.eq(&font)? {
                    f.1 += n;
                    found = true;
                    break;
                }
            }
            if !found {
                fonts.push((font, n));
            }
            if attr(i, bold_name)?.is_truthy()? {
                bold += n;
            }
            if attr(i, italic_name)?.is_truthy()? {
                italic += n;
            }
            if artifact && !attr(i, artifact_name)?.is_truthy()? {
                artifact = false;
            }
            let s = attr(i, seq_name)?;
            seq = Some(match seq {
                Some(best) if !s.lt(&best)? => best,
                _ => s,
            });
            if r.x0 < self.runs[x0].x0 {
                x0 = i;
            }
            if r.y0 < self.runs[y0].y0 {
                y0 = i;
            }
            if r.x1 > self.runs[x1].x1 {
                x1 = i;
            }
            if r.y1 > self.runs[y1].y1 {
                y1 = i;
            }
        }
        let mut size = &weights[0];
        for w in &weights[1..] {
            if (w.2, w.0) > (size.2, size.0) {
                size = w;
            }
        }
        let mut font = &fonts[0];
        for f in &fonts[1..] {
            if f.1 > font.1 {
                font = f;
            }
        }
        self.make.line.call1((
            text,
            &self.runs[x0].raw[0],
            &self.runs[y0].raw[1],
            &self.runs[x1].raw[2],
            &self.runs[y1].raw[3],
            &self.runs[size.1].raw[4],
            bold * 2 > total,
            italic * 2 > total,
            &font.0,
            artifact,
            seq,
            spans,
        ))
    }

    /// `_rows`: page-wide rows of runs sharing a baseline, each left to right.
    fn rows(&self, usable: &[usize]) -> Vec<Vec<usize>> {
        let mut ordered = usable.to_vec();
        ordered.sort_by(|&a, &b| {
            let (ra, rb) = (&self.runs[a], &self.runs[b]);
            let ka = ((ra.y0 + ra.y1) / 2.0, ra.x0);
            let kb = ((rb.y0 + rb.y1) / 2.0, rb.x0);
            ka.partial_cmp(&kb).unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut rows: Vec<Vec<usize>> = Vec::new();
        let mut boxes: Vec<(f64, f64)> = Vec::new();
        for run in ordered {
            let r = &self.runs[run];
            let height = r.y1 - r.y0;
            let n = rows.len();
            let lowest = n.saturating_sub(5);
            let mut placed = false;
            for k in (lowest..n).rev() {
                let (top, bottom) = boxes[k];
                let overlap = pmin(bottom, r.y1) - pmax(top, r.y0);
                if overlap >= self.s.same_line_overlap * pmin(height, bottom - top) {
                    rows[k].push(run);
                    if height > bottom - top {
                        boxes[k] = (r.y0, r.y1);
                    }
                    placed = true;
                    break;
                }
                if bottom < r.y0 {
                    rows.push(vec![run]);
                    boxes.push((r.y0, r.y1));
                    placed = true;
                    break;
                }
            }
            if !placed {
                rows.push(vec![run]);
                boxes.push((r.y0, r.y1));
            }
        }
        for row in rows.iter_mut() {
            sort_by_key(row, |&i| self.runs[i].x0);
        }
        rows
    }

    /// `_gutters`
    fn gutters(&self, rows: &[Vec<usize>]) -> Vec<(f64, f64)> {
        let mut events: Vec<(f64, i64)> = Vec::new();
        let mut gapped_rows = 0usize;
        for row in rows {
            let mut wide = false;
            let mut right = self.runs[row[0]].x1;
            for pair in row.windows(2) {
                let (prev, run) = (&self.runs[pair[0]], &self.runs[pair[1]]);
                if run.x0 > right {
                    let em = or_one(pmin(prev.size, run.size));
                    let (a, b) = (right, run.x0);
                    if b - a >= self.s.gutter_gap_em * em {
                        wide = true;
                        events.push((a, 1));
                        events.push((b, -1));
                    }
                }
                right = pmax(right, run.x1);
            }
            if wide {
                gapped_rows += 1;
            }
        }
        if events.is_empty() {
            return Vec::new();
        }
        // int(0.1 * gapped_rows), truncated toward zero
        let need = (self.s.gutter_min_rows as i64).max((0.1 * gapped_rows as f64) as i64);
        events.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let mut segments: Vec<(f64, f64, i64)> = Vec::new();
        let mut depth = 0i64;
        for pair in events.windows(2) {
            let ((x, delta), (nxt, _)) = (pair[0], pair[1]);
            depth += delta;
            if nxt > x {
                segments.push((x, nxt, depth));
            }
        }
        let mut candidates: Vec<(f64, f64)> = Vec::new();
        let mut i = 0;
        while i < segments.len() {
            if segments[i].2 < need {
                i += 1;
                continue;
            }
            let mut j = i;
            while j + 1 < segments.len() && segments[j + 1].2 >= need {
                j += 1;
            }
            let region = &segments[i..=j];
            let peak = region.iter().map(|s| s.2).max().unwrap_or(0);
            let core: Vec<&(f64, f64, i64)> = region
                .iter()
                .filter(|s| (s.2 as f64) >= 0.8 * peak as f64)
                .collect();
            candidates.push((core[0].0, core[core.len() - 1].1));
            i = j + 1;
        }
        candidates
            .into_iter()
            .filter(|&g| self.clear(g, rows))
            .collect()
    }

    /// `_clear`
    fn clear(&self, gutter: (f64, f64), rows: &[Vec<usize>]) -> bool {
        let mid = (gutter.0 + gutter.1) / 2.0;
        let half = pmax((gutter.1 - gutter.0) / 4.0, 0.5);
        let (g0, g1) = (mid - half, mid + half);
        let mut support: Vec<f64> = Vec::new();
        let mut crossing: Vec<f64> = Vec::new();
        for row in rows {
            let first = &self.runs[row[0]];
            let last = &self.runs[row[row.len() - 1]];
            let y = (first.y0 + first.y1) / 2.0;
            if row
                .iter()
                .any(|&i| self.runs[i].x0 < g1 && self.runs[i].x1 > g0)
            {
                crossing.push(y);
            } else if first.x0 < g0 && last.x1 > g1 {
                support.push(y);
            }
        }
        if support.len() < self.s.gutter_min_rows {
            return false;
        }
        let top = support.iter().copied().fold(support[0], pmin);
        let bottom = support.iter().copied().fold(support[0], pmax);
        let inside = crossing
            .iter()
            .filter(|&&y| top <= y && y <= bottom)
            .count();
        (inside as f64) <= 0.25 * support.len() as f64
    }

    /// The main loop of `_group`: lines grow left to right from close runs.
    #[allow(clippy::nonminimal_bool)] // spelled as the Python it mirrors
    fn grow(&self, usable: &[usize], gutters: &[(f64, f64)]) -> PyResult<Vec<Open>> {
        let s = &self.s;
        let mut buckets: HashMap<i64, Vec<usize>> = HashMap::new();
        let mut opened: Vec<Open> = Vec::new();
        let mut by_x = usable.to_vec();
        sort_by_key(&mut by_x, |&i| self.runs[i].x0);
        for run in by_x {
            let r = &self.runs[run];
            let height = r.y1 - r.y0;
            let centre = (r.y0 + r.y1) / 2.0;
            let key = py_floordiv(centre, s.bucket) as i64;
            let mut best: Option<usize> = None;
            let mut best_score = 0.0;
            for k in key - 2..key + 3 {
                let Some(members) = buckets.get(&k) else {
                    continue;
                };
                for &c in members {
                    let cand = &opened[c];
                    let bottom = if cand.bottom < r.y1 {
                        cand.bottom
                    } else {
                        r.y1
                    };
                    let top = if cand.top > r.y0 { cand.top } else { r.y0 };
                    let tall = cand.bottom - cand.top;
                    let share = (bottom - top) / (if height < tall { height } else { tall });
                    if share < s.same_line_overlap {
                        continue;
                    }
                    let em = or_one(if cand.size < r.size {
                        cand.size
                    } else {
                        r.size
                    });
                    let gap = r.x0 - cand.right;
                    if gap < -3.0 * em {
                        continue;
                    }
                    if gap >= s.gutter_gap_em * em {
                        let last = *cand.runs.last().expect("an open line has a run");
                        let code = self.is_monospace(run)? && self.is_monospace(last)?;
                        if gap > s.split_gap_em * em
                            && !(gap <= s.label_gap_em * em && self.hanging_label(cand, run)?)
                            && !(code && gap <= s.code_gap_em * em)
                            && !self.leader_to_number(cand, run)?
                        {
                            continue;
                        }
                        if !code
                            && gutters
                                .iter()
                                .any(|&(g0, g1)| cand.right <= g1 && r.x0 >= g0)
                            && !self.leader_to_number(cand, run)?
                            && !self.hanging_label(cand, run)?
                        {
                            continue;
                        }
                    }
                    if gap < 0.0
                        && gutters.iter().any(|&(g0, g1)| {
                            let m = (g0 + g1) / 2.0;
                            cand.right <= m && m < r.x1
                        })
                        && self.sublabel(run)?
                    {
                        continue;
                    }
                    let score = share - pmax(gap, 0.0) / (10.0 * em);
                    if score > best_score {
                        best = Some(c);
                        best_score = score;
                    }
                }
            }
            match best {
                None => {
                    buckets.entry(key).or_default().push(opened.len());
                    opened.push(self.open(run));
                }
                Some(c) => {
                    let mut line = std::mem::replace(&mut opened[c], self.open(run));
                    let result = self.add(&mut line, run);
                    opened[c] = line;
                    result?;
                }
            }
        }
        Ok(opened)
    }

    /// Moves the runs of line `from` to the end of line `to` (`to.add(run)` for each).
    fn absorb(&self, opened: &mut [Open], to: usize, from: usize) -> PyResult<()> {
        let moved = std::mem::take(&mut opened[from].runs);
        let mut head = std::mem::replace(
            &mut opened[to],
            Open {
                runs: Vec::new(),
                top: 0.0,
                bottom: 0.0,
                right: 0.0,
                size: 0.0,
            },
        );
        let mut result = Ok(());
        for run in moved {
            result = self.add(&mut head, run);
            if result.is_err() {
                break;
            }
        }
        opened[to] = head;
        result
    }

    /// `_join_stretched_rows`
    fn join_stretched_rows(&self, opened: &mut [Open], gutters: &[(f64, f64)]) -> PyResult<()> {
        let mut order: Vec<(i64, i64)> = Vec::new();
        let mut rows: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (k, line) in opened.iter().enumerate() {
            let first = &self.runs[line.runs[0]];
            let key = (py_round(first.y1), py_round(first.size));
            let entry = rows.entry(key).or_default();
            if entry.is_empty() {
                order.push(key);
            }
            entry.push(k);
        }
        for key in order {
            let mut pieces = rows.remove(&key).unwrap_or_default();
            if pieces.len() < 3 {
                continue;
            }
            sort_by_key(&mut pieces, |&p| self.runs[opened[p].runs[0]].x0);
            let lists = PyList::empty(self.py);
            for &p in &pieces {
                lists.append(self.run_list(&opened[p].runs)?)?;
            }
            if !self.hooks.prose_row.call1((lists,))?.is_truthy()? {
                continue;
            }
            let gaps: Vec<f64> = pieces
                .windows(2)
                .map(|w| self.runs[opened[w[1]].runs[0]].x0 - opened[w[0]].right)
                .collect();
            let em = or_one(opened[pieces[0]].size);
            let mean = py_sum(gaps.iter().copied(), self.neumaier) / gaps.len() as f64;
            if !(0.0 < mean && mean <= self.s.stretched_gap_em * em) {
                continue;
            }
            if gaps.iter().any(|&g| (g - mean).abs() > 0.2 * mean) {
                continue;
            }
            let across = pieces.windows(2).any(|w| {
                let (a, b) = (&opened[w[0]], &opened[w[1]]);
                let bx = self.runs[b.runs[0]].x0;
                gutters.iter().any(|&(g0, g1)| a.right <= g1 && bx >= g0)
            });
            if across {
                continue;
            }
            for &piece in &pieces[1..] {
                self.absorb(opened, pieces[0], piece)?;
            }
        }
        Ok(())
    }

    /// `_column_gutters`
    fn column_gutters(
        &self,
        gutters: &[(f64, f64)],
        opened: &[Open],
        pieces: &[usize],
    ) -> Vec<(f64, f64)> {
        let mut out = Vec::new();
        for &(g0, g1) in gutters {
            let near = 3.0
                * pieces
                    .iter()
                    .map(|&p| opened[p].size)
                    .reduce(pmax)
                    .unwrap_or(10.0);
            let (mut left, mut right) = (false, false);
            for &p in pieces {
                let line = &opened[p];
                let x0 = self.runs[line.runs[0]].x0;
                let width = line.right - x0;
                if width < self.s.column_line_em * or_one(line.size) {
                    continue;
                }
                left = left || (g0 - near <= line.right && line.right <= g1);
                right = right || (g0 <= x0 && x0 <= g1 + near);
            }
            if left && right {
                out.push((g0, g1));
            }
        }
        out
    }

    /// `_open_rows`
    fn open_rows(&self, opened: &[Open], pieces: &[usize]) -> Vec<Vec<usize>> {
        let mut ordered = pieces.to_vec();
        sort_by_key(&mut ordered, |&p| (opened[p].top + opened[p].bottom) / 2.0);
        let mut rows: Vec<Vec<usize>> = Vec::new();
        for piece in ordered {
            if let Some(row) = rows.last_mut() {
                let last = &opened[*row.last().expect("rows are not empty")];
                let this = &opened[piece];
                let overlap = pmin(last.bottom, this.bottom) - pmax(last.top, this.top);
                if overlap
                    >= self.s.same_line_overlap
                        * pmin(last.bottom - last.top, this.bottom - this.top)
                {
                    row.push(piece);
                    continue;
                }
            }
            rows.push(vec![piece]);
        }
        for row in rows.iter_mut() {
            sort_by_key(row, |&p| self.runs[opened[p].runs[0]].x0);
        }
        rows
    }

    /// `_join_label_rows`
    fn join_label_rows(&self, opened: &mut [Open], gutters: &[(f64, f64)]) -> PyResult<()> {
        let s = &self.s;
        let pieces: Vec<usize> = (0..opened.len())
            .filter(|&k| !opened[k].runs.is_empty())
            .collect();
        let columns = self.column_gutters(gutters, opened, &pieces);
        // (label, description, label start, description start, label end, crowded)
        let mut candidates: Vec<(usize, usize, f64, f64, f64, bool)> = Vec::new();
        for row in self.open_rows(opened, &pieces) {
            for i in 0..row.len().saturating_sub(1) {
                let (a, b) = (&opened[row[i]], &opened[row[i + 1]]);
                let em = or_one(pmin(a.size, b.size));
                let left = self.runs[a.runs[0]].x0;
                let start = self.runs[b.runs[0]].x0;
                let gap = start - a.right;
                if !(0.0 < gap && gap <= s.label_gap_em * em)
                    || a.right - left > s.label_max_em * em
                {
                    continue;
                }
                let (label, description) = (self.run_list(&a.runs)?, self.run_list(&b.runs)?);
                if !self
                    .hooks
                    .label_pair
                    .call1((label, description))?
                    .is_truthy()?
                {
                    continue;
                }
                let crowded = i + 2 < row.len() && {
                    let next = self.runs[opened[row[i + 2]].runs[0]].x0;
                    next - b.right <= s.label_gap_em * em
                        && !columns.iter().any(|&(g0, g1)| b.right <= g1 && next >= g0)
                };
                candidates.push((row[i], row[i + 1], left, start, a.right, crowded));
            }
        }
        if candidates.len() < s.gutter_min_rows {
            return Ok(());
        }
        let mut by_key: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (k, c) in candidates.iter().enumerate() {
            by_key
                .entry((py_round(c.2), py_round(c.3)))
                .or_default()
                .push(k);
        }
        let mut joins: Vec<(usize, usize)> = Vec::new();
        for &(a, b, ax, bx, _, _) in &candidates {
            let (rx, ry) = (py_round(ax), py_round(bx));
            let mut group: Vec<&(usize, usize, f64, f64, f64, bool)> = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(ks) = by_key.get(&(rx + dx, ry + dy)) {
                        for &k in ks {
                            let c = &candidates[k];
                            if (c.2 - ax).abs() <= s.label_align
                                && (c.3 - bx).abs() <= s.label_align
                            {
                                group.push(c);
                            }
                        }
                    }
                }
            }
            let crowded = group.iter().filter(|g| g.5).count();
            if group.len() < s.gutter_min_rows || crowded * 4 > group.len() {
                continue;
            }
            let ends = group.iter().map(|g| g.4);
            let high = ends.clone().reduce(pmax).unwrap_or(0.0);
            let low = ends.reduce(pmin).unwrap_or(0.0);
            if high - low > s.label_align {
                joins.push((a, b));
            }
        }
        for (a, b) in joins {
            if !opened[a].runs.is_empty() && !opened[b].runs.is_empty() {
                self.absorb(opened, a, b)?;
            }
        }
        Ok(())
    }
}

/// `build_lines(runs, hooks, settings)`: `pdfthin.layout.lines.build_lines` of runs already
/// filtered to `y1 > y0` (the lines, sorted), or `None` where Python must group (see the
/// module's comment).
///
/// `hooks` is `(is_monospace, sublabel, hanging_label, leader_to_number, prose_row,
/// label_pair, Line, logical_order, _make_line)`; `settings` the module's constants, in
/// `_SETTINGS`' order.
#[pyfunction]
pub fn build_lines<'py>(
    py: Python<'py>,
    runs: Vec<Bound<'py, PyAny>>,
    hooks: Bound<'py, PyTuple>,
    settings: [f64; 13],
) -> PyResult<Option<Bound<'py, PyList>>> {
    crate::boundary::guard("build_lines", || {
        let names = [
            pyo3::intern!(py, "x0"),
            pyo3::intern!(py, "y0"),
            pyo3::intern!(py, "x1"),
            pyo3::intern!(py, "y1"),
            pyo3::intern!(py, "size"),
        ];
        let mut table: Vec<Run<'py>> = Vec::with_capacity(runs.len());
        for obj in runs {
            let raw = [
                obj.getattr(names[0])?,
                obj.getattr(names[1])?,
                obj.getattr(names[2])?,
                obj.getattr(names[3])?,
                obj.getattr(names[4])?,
            ];
            let mut v = [0.0f64; 5];
            for (slot, value) in v.iter_mut().zip(raw.iter()) {
                *slot = value.extract()?;
                if !slot.is_finite() || slot.abs() > MAX_COORD {
                    return Ok(None);
                }
            }
            table.push(Run {
                obj,
                raw,
                x0: v[0],
                y0: v[1],
                x1: v[2],
                y1: v[3],
                size: v[4],
            });
        }
        let hooks_tuple = hooks;
        let hooks = Hooks {
            is_monospace: hooks_tuple.get_item(0)?,
            sublabel: hooks_tuple.get_item(1)?,
            hanging_label: hooks_tuple.get_item(2)?,
            leader_to_number: hooks_tuple.get_item(3)?,
            prose_row: hooks_tuple.get_item(4)?,
            label_pair: hooks_tuple.get_item(5)?,
        };
        let make = Maker {
            line: hooks_tuple.get_item(6)?,
            logical_order: hooks_tuple.get_item(7)?,
            make_line: hooks_tuple.get_item(8)?,
            word_gap_em: settings[11],
            punct_gap_em: settings[12],
        };
        let s = Settings {
            same_line_overlap: settings[0],
            gutter_gap_em: settings[1],
            split_gap_em: settings[2],
            label_gap_em: settings[3],
            code_gap_em: settings[4],
            gutter_min_rows: settings[5] as usize,
            stretched_gap_em: settings[6],
            label_max_em: settings[7],
            label_align: settings[8],
            column_line_em: settings[9],
            bucket: settings[10],
        };
        let g = Grouper {
            py,
            monospace: RefCell::new(HashMap::new()),
            runs: table,
            hooks,
            make,
            s,
            neumaier: py.version_info() >= (3, 12),
        };
        let usable: Vec<usize> = (0..g.runs.len()).collect();
        let gutters = g.gutters(&g.rows(&usable));
        let mut opened = g.grow(&usable, &gutters)?;
        g.join_stretched_rows(&mut opened, &gutters)?;
        g.join_label_rows(&mut opened, &gutters)?;
        let mut made: Vec<(f64, f64, Bound<'py, PyAny>)> = Vec::with_capacity(opened.len());
        for line in opened.iter().filter(|o| !o.runs.is_empty()) {
            let obj = g.make_line(&line.runs)?;
            let y0: f64 = obj.getattr(pyo3::intern!(py, "y0"))?.extract()?;
            let x0: f64 = obj.getattr(pyo3::intern!(py, "x0"))?.extract()?;
            made.push((y0, x0, obj));
        }
        // `lines.sort(key=lambda ln: (ln.y0, ln.x0))`: stable, keys finite.
        made.sort_by(|a, b| {
            (a.0, a.1)
                .partial_cmp(&(b.0, b.1))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        Ok(Some(PyList::new(py, made.into_iter().map(|m| m.2))?))
    })
}
