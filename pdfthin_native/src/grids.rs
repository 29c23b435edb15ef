//! Ruled grids: `pdfthin/layout/table_grid.py`'s `find_grids`, step by step, with the same
//! floating-point operations in the same order (sums as CPython's `sum()` makes them).
//! Pure geometry: rules in, grids out. Rules with a coordinate that is not finite are left
//! to Python (`None`).

use std::collections::HashMap;

use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::font::py_sum;
use crate::pyops::{pmax, pmin};

/// `(position, start, end)` of a horizontal (`y, x0, x1`) or vertical (`x, y0, y1`) rule.
type Seg = (f64, f64, f64);
type Component = (Vec<Seg>, Vec<Seg>);

struct Settings {
    same_line: f64,
    join_gap: f64,
    touch: f64,
    min_cell: f64,
    max_segments: usize,
    neumaier: bool,
}

fn cmp(a: &Seg, b: &Seg) -> std::cmp::Ordering {
    a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal)
}

impl Settings {
    /// `_merge`: collinear segments joined into lines.
    fn merge(&self, mut segments: Vec<Seg>) -> Vec<Seg> {
        segments.sort_by(cmp);
        let mut out: Vec<Seg> = Vec::new();
        let mut group: Vec<Seg> = Vec::new();
        for seg in segments {
            if !group.is_empty() && seg.0 - group[0].0 > self.same_line {
                out.extend(self.join(&group));
                group.clear();
            }
            group.push(seg);
        }
        if !group.is_empty() {
            out.extend(self.join(&group));
        }
        out
    }

    /// `_join`
    fn join(&self, group: &[Seg]) -> Vec<Seg> {
        let pos = py_sum(group.iter().map(|s| s.0), self.neumaier) / group.len() as f64;
        let mut pieces: Vec<(f64, f64)> = group.iter().map(|s| (s.1, s.2)).collect();
        pieces.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let mut out: Vec<Seg> = Vec::new();
        for (a, b) in pieces {
            match out.last_mut() {
                Some(last) if a <= last.2 + self.join_gap => last.2 = pmax(last.2, b),
                _ => out.push((pos, a, b)),
            }
        }
        out
    }

    /// `_components`: groups of rules connected by crossings or touching ends.
    fn components(&self, hs: &[Seg], vs: &[Seg]) -> Vec<Component> {
        let mut parent: Vec<usize> = (0..hs.len() + vs.len()).collect();
        fn find(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        let mut order: Vec<usize> = (0..vs.len()).collect();
        order.sort_by(|&a, &b| {
            vs[a]
                .0
                .partial_cmp(&vs[b].0)
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let xs: Vec<f64> = order.iter().map(|&k| vs[k].0).collect();
        for (i, &(y, hx0, hx1)) in hs.iter().enumerate() {
            let (low, high) = (hx0 - self.touch, hx1 + self.touch);
            let lo = xs.partition_point(|&x| x < low); // bisect_left
            let hi = xs.partition_point(|&x| x <= high); // bisect_right
            if lo >= hi {
                continue;
            }
            for &k in &order[lo..hi] {
                let (_, vy0, vy1) = vs[k];
                if vy0 - self.touch <= y && y <= vy1 + self.touch {
                    let a = find(&mut parent, i);
                    let b = find(&mut parent, hs.len() + k);
                    if a != b {
                        parent[a] = b;
                    }
                }
            }
        }
        let mut roots: Vec<usize> = Vec::new();
        let mut groups: HashMap<usize, Component> = HashMap::new();
        for (i, h) in hs.iter().enumerate() {
            let root = find(&mut parent, i);
            let entry = groups.entry(root).or_insert_with(|| {
                roots.push(root);
                (Vec::new(), Vec::new())
            });
            entry.0.push(*h);
        }
        for (k, v) in vs.iter().enumerate() {
            let root = find(&mut parent, hs.len() + k);
            let entry = groups.entry(root).or_insert_with(|| {
                roots.push(root);
                (Vec::new(), Vec::new())
            });
            entry.1.push(*v);
        }
        roots
            .into_iter()
            .filter_map(|r| groups.remove(&r))
            .filter(|g| !g.0.is_empty() && !g.1.is_empty())
            .collect()
    }

    /// `_stacked`: components one right above the other across the same width are one.
    fn stacked(&self, components: Vec<Component>) -> Vec<Component> {
        let boxes: Vec<[f64; 4]> = components.iter().map(|c| bbox(&c.0, &c.1)).collect();
        let mut order: Vec<usize> = (0..components.len()).collect();
        order.sort_by(|&a, &b| {
            boxes[a][1]
                .partial_cmp(&boxes[b][1])
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        let mut out: Vec<Component> = Vec::new();
        let mut out_boxes: Vec<[f64; 4]> = Vec::new();
        for i in order {
            let [x0, y0, x1, y1] = boxes[i];
            let mut merged = false;
            for k in 0..out_boxes.len() {
                let [bx0, by0, bx1, by1] = out_boxes[k];
                if 0.0 <= y0 - by1
                    && y0 - by1 <= self.min_cell
                    && (x0 - bx0).abs() <= self.touch
                    && (x1 - bx1).abs() <= self.touch
                {
                    out[k].0.extend(components[i].0.iter().copied());
                    out[k].1.extend(components[i].1.iter().copied());
                    out_boxes[k] = [pmin(x0, bx0), by0, pmax(x1, bx1), y1];
                    merged = true;
                    break;
                }
            }
            if !merged {
                out.push(components[i].clone());
                out_boxes.push(boxes[i]);
            }
        }
        out
    }

    /// `_boundaries`: distinct positions, nearby ones taken as one.
    fn boundaries(&self, mut values: Vec<f64>) -> Vec<f64> {
        values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let mut clusters: Vec<Vec<f64>> = Vec::new();
        for v in values {
            match clusters.last_mut() {
                Some(c) if v - c[c.len() - 1] < self.min_cell => c.push(v),
                _ => clusters.push(vec![v]),
            }
        }
        clusters
            .iter()
            .map(|c| py_sum(c.iter().copied(), self.neumaier) / c.len() as f64)
            .collect()
    }

    /// `_along`
    fn along(&self, segments: &[Seg], pos: f64) -> Vec<(f64, f64)> {
        segments
            .iter()
            .filter(|s| (s.0 - pos).abs() < self.min_cell)
            .map(|s| (s.1, s.2))
            .collect()
    }

    /// `_covered`
    fn covered(&self, extents: &[(f64, f64)], at: f64) -> bool {
        extents
            .iter()
            .any(|&(a, b)| a - self.touch <= at && at <= b + self.touch)
    }

    /// `_grid`: `(xs, ys, vrule, hrule)`, or `None` for what is not a table's lattice.
    fn grid(&self, hs: &[Seg], vs: &[Seg]) -> Option<GridParts> {
        let [x0, y0, x1, y1] = bbox(hs, vs);
        if x1 - x0 < 2.0 * self.min_cell || y1 - y0 < 2.0 * self.min_cell {
            return None;
        }
        let across = self.boundaries(
            hs.iter()
                .filter(|&&(_, a, b)| b - a >= 0.9 * (x1 - x0))
                .map(|s| s.0)
                .collect(),
        );
        if across.len() < 2 {
            return None;
        }
        let mut xv = vec![x0, x1];
        xv.extend(vs.iter().map(|v| v.0));
        let xs = self.boundaries(xv);
        let mut yv = vec![y0, y1];
        yv.extend(hs.iter().map(|h| h.0));
        let ys = self.boundaries(yv);
        if xs.len() < 2 || ys.len() < 2 {
            return None;
        }
        let vlines: Vec<Vec<(f64, f64)>> = xs.iter().map(|&x| self.along(vs, x)).collect();
        let hlines: Vec<Vec<(f64, f64)>> = ys.iter().map(|&y| self.along(hs, y)).collect();
        let vrule = (0..ys.len() - 1)
            .map(|r| {
                (0..xs.len())
                    .map(|k| self.covered(&vlines[k], (ys[r] + ys[r + 1]) / 2.0))
                    .collect()
            })
            .collect();
        let hrule = (0..ys.len())
            .map(|k| {
                (0..xs.len() - 1)
                    .map(|c| self.covered(&hlines[k], (xs[c] + xs[c + 1]) / 2.0))
                    .collect()
            })
            .collect();
        Some((xs, ys, vrule, hrule))
    }
}

/// `_box`: the extent of a component (each bound the first of equals, as `min`/`max` give).
fn bbox(hs: &[Seg], vs: &[Seg]) -> [f64; 4] {
    let fold = |it: &mut dyn Iterator<Item = f64>, f: fn(f64, f64) -> f64| {
        let first = it.next().unwrap_or(0.0);
        it.fold(first, f)
    };
    [
        fold(
            &mut hs.iter().map(|h| h.1).chain(vs.iter().map(|v| v.0)),
            pmin,
        ),
        fold(
            &mut vs.iter().map(|v| v.1).chain(hs.iter().map(|h| h.0)),
            pmin,
        ),
        fold(
            &mut hs.iter().map(|h| h.2).chain(vs.iter().map(|v| v.0)),
            pmax,
        ),
        fold(
            &mut vs.iter().map(|v| v.2).chain(hs.iter().map(|h| h.0)),
            pmax,
        ),
    ]
}

/// A grid's `(xs, ys, vrule, hrule)`.
pub type GridParts = (Vec<f64>, Vec<f64>, Vec<Vec<bool>>, Vec<Vec<bool>>);

/// The grids of finite `rules` (what `find_grids` makes `Grid` objects of), for the native
/// callers of `find_grids`. `settings` as `find_grids` takes them.
pub fn grids_of(
    rules: &[(f64, f64, f64, f64)],
    settings: (f64, f64, f64, f64, usize),
    neumaier: bool,
) -> Vec<GridParts> {
    let s = Settings {
        same_line: settings.0,
        join_gap: settings.1,
        touch: settings.2,
        min_cell: settings.3,
        max_segments: settings.4,
        neumaier,
    };
    let mut out = Vec::new();
    if rules.is_empty() {
        return out;
    }
    let hs = s.merge(
        rules
            .iter()
            .filter(|&&(x0, y0, x1, y1)| y0 == y1 && x1 > x0)
            .map(|&(x0, y0, x1, _)| (y0, x0, x1))
            .collect(),
    );
    let vs = s.merge(
        rules
            .iter()
            .filter(|&&(x0, y0, x1, y1)| x0 == x1 && y1 > y0)
            .map(|&(x0, y0, _, y1)| (x0, y0, y1))
            .collect(),
    );
    if hs.is_empty() || vs.is_empty() || hs.len() + vs.len() > s.max_segments {
        return out;
    }
    for (comp_h, comp_v) in s.stacked(s.components(&hs, &vs)) {
        if let Some(parts) = s.grid(&comp_h, &comp_v) {
            out.push(parts);
        }
    }
    out
}

/// `find_grids(rules, grid_class, settings)`: the grids `table_grid.find_grids` finds, made
/// with `grid_class`, or `None` when a rule has a coordinate that is not finite (Python
/// finds them then). `settings` is `(SAME_LINE, JOIN_GAP, TOUCH, MIN_CELL, MAX_SEGMENTS)`.
#[pyfunction]
pub fn find_grids<'py>(
    py: Python<'py>,
    rules: Vec<Bound<'py, PyAny>>,
    grid_class: Bound<'py, PyAny>,
    settings: (f64, f64, f64, f64, usize),
) -> PyResult<Option<Bound<'py, PyList>>> {
    crate::boundary::guard("find_grids", || {
        let mut numbers: Vec<(f64, f64, f64, f64)> = Vec::with_capacity(rules.len());
        for rule in &rules {
            match rule.extract::<(f64, f64, f64, f64)>() {
                Ok(r) if [r.0, r.1, r.2, r.3].iter().all(|v| v.is_finite()) => numbers.push(r),
                _ => return Ok(None),
            }
        }
        let out = PyList::empty(py);
        for (xs, ys, vrule, hrule) in grids_of(&numbers, settings, py.version_info() >= (3, 12)) {
            out.append(grid_class.call1((xs, ys, vrule, hrule))?)?;
        }
        Ok(Some(out))
    })
}
