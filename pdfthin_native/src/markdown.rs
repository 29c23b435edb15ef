//! Blocks -> Markdown: `pdfthin/model/markdown.py`'s `render_page` (with `_render`,
//! `join_lines`, `render_table`) and `pdfthin/model/text.py`'s `join_hyphenated`, step by step.
//!
//! The text tests are native where they are exact: `str.strip`, `\s` and `\S` are
//! `str.isspace` ([`is_space`], CPython's table) on any text; `_HYPHEN_END`, `_WORD_START`,
//! `isalnum` and `isdigit` only where the characters they read are ASCII. Elsewhere Python
//! answers through hooks: `clean(text)` for a text with presentation forms,
//! `join_pair(first, head, known_words)` for a line-end hyphen next to a character that is not
//! ASCII, `list_item(text)` for a list item whose marker Python's `\d` decides, and
//! `is_monospace(font)` always (its `re.IGNORECASE` knows more than ASCII).
//!
//! Everything is read before anything is made: the answer is `None` (Python renders) where a
//! block is not exactly of the `Block` class, a `kind`, text or font is not a `str` with a
//! UTF-8 form, a `level` not an `int` that fits `i64`, `run_in` not a `bool`, `y0` not a
//! `float`, or `rows` not `None` or a `list` of `list`s of `str`.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

use crate::pyops::{is_space, utf8};
use crate::structure::{marker, Marker};
use crate::text::clean;

/// Python's `round(x, 1)` (see `interp::round2` for why the fast path is exact).
pub fn round1(x: f64) -> f64 {
    let y = x * 10.0;
    if y.abs() < 35_184_372_088_832.0 {
        let n = y.round();
        if (y - n).abs() <= 0.49 {
            return n / 10.0;
        }
    }
    format!("{x:.1}").parse().unwrap_or(x)
}

fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

struct Hooks<'py> {
    clean: Bound<'py, PyAny>,
    is_monospace: Bound<'py, PyAny>,
    join_pair: Bound<'py, PyAny>,
    list_item: Bound<'py, PyAny>,
    anchor: Bound<'py, PyAny>,
    compound_tails: Bound<'py, PyAny>,
    compound_heads: Bound<'py, PyAny>,
}

/// `known_words` or `None`.
struct Known<'a, 'py>(Option<&'a Bound<'py, PyAny>>);

impl Known<'_, '_> {
    fn has(&self, word: &str) -> PyResult<bool> {
        match self.0 {
            // The native vocabulary is asked without making a Python string.
            Some(k) => match k.downcast::<crate::text::Vocabulary>() {
                Ok(vocabulary) => vocabulary.get().has(k.py(), word),
                Err(_) => k.contains(word),
            },
            None => Ok(false),
        }
    }
}

/// `join_hyphenated(first, second, known_words)` then `join_lines`' own fallback (`first[-2]`
/// and `second[0]` alphanumeric: joined as they are), for a `first` that ends with `-`.
/// The outer `None` when a character these tests read is not ASCII.
fn join_pair(
    first: &str,
    second: &str,
    known: &Known<'_, '_>,
    hooks: &Hooks<'_>,
) -> PyResult<Option<Option<String>>> {
    let f = first.as_bytes();
    let s = second.as_bytes();
    let Some((&b'-', before)) = f.split_last() else {
        return Ok(Some(None)); // join_lines only asks about a line ending with "-"
    };
    // _HYPHEN_END: the run of \w before the final "-"
    let mut start = before.len();
    while start > 0 && is_word(before[start - 1]) {
        start -= 1;
    }
    if start > 0 && !before[start - 1].is_ascii() {
        return Ok(None); // a \w of another script may go on
    }
    // _WORD_START on second: [a-zß-ÿ]\w*
    let Some(&s0) = s.first() else {
        return Ok(Some(None)); // a line's first word is never empty
    };
    if !s0.is_ascii() {
        return Ok(None);
    }
    let mut end = 0;
    if s0.is_ascii_lowercase() {
        end = 1;
        while end < s.len() && is_word(s[end]) {
            end += 1;
        }
        if end < s.len() && !s[end].is_ascii() {
            return Ok(None);
        }
    }
    let head = &before[start..];
    let joined = if head.is_empty() || end == 0 {
        None
    } else {
        let head = std::str::from_utf8(head).unwrap_or("");
        let tail = &second[..end];
        join_hyphenated(first, second, head, tail, known, hooks)?
    };
    if joined.is_some() {
        return Ok(Some(joined));
    }
    // `out[-1][-2:-1].isalnum() and head[:1].isalnum()`
    let last = before.last().copied();
    if last.is_some_and(|b| !b.is_ascii()) {
        return Ok(None);
    }
    if last.is_some_and(|b| b.is_ascii_alphanumeric()) && s0.is_ascii_alphanumeric() {
        return Ok(Some(Some(format!("{first}{second}"))));
    }
    Ok(Some(None))
}

/// `join_hyphenated` once both regexes matched: `head` is `m.group(1)` (at the end of
/// `first`, before its `-`), `tail` is `n.group(1)`; both ASCII.
fn join_hyphenated(
    first: &str,
    second: &str,
    head: &str,
    tail: &str,
    known: &Known<'_, '_>,
    hooks: &Hooks<'_>,
) -> PyResult<Option<String>> {
    let start = first.len() - 1 - head.len();
    if head.len() < 2 || head.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(None);
    }
    if start > 0 && first.as_bytes()[start - 1] == b'-' {
        return Ok(None); // a compound: state-of-the-art
    }
    let whole = || format!("{}{second}", &first[..first.len() - 1]);
    let head_l = head.to_ascii_lowercase();
    let tail_l = tail.to_ascii_lowercase();
    if known.0.is_some() {
        if known.has(&format!("{head_l}{tail_l}"))? {
            return Ok(Some(whole()));
        }
        if known.has(&format!("{head_l}-{tail_l}"))? {
            return Ok(None);
        }
        if known.has(&head_l)? && known.has(&tail_l)? {
            return Ok(None);
        }
    }
    let trimmed = tail_l.trim_end_matches(['.', ',', ';', ':']);
    if hooks.compound_tails.contains(trimmed)? || hooks.compound_heads.contains(&head_l)? {
        return Ok(None);
    }
    Ok(Some(whole()))
}

/// `join_lines(lines, known_words, sep)`.
fn join_lines(
    lines: &[String],
    known: &Known<'_, '_>,
    sep: &str,
    hooks: &Hooks<'_>,
) -> PyResult<String> {
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    for line in lines {
        let line = strip(line);
        if line.is_empty() {
            continue;
        }
        if let Some(last) = out.last_mut().filter(|l| l.ends_with('-')) {
            let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
            let joined = match join_pair(last, head, known, hooks)? {
                Some(j) => j,
                None => {
                    let answer = hooks.join_pair.call1((last.as_str(), head, known.0))?;
                    if answer.is_none() {
                        None
                    } else {
                        Some(answer.extract::<String>()?)
                    }
                }
            };
            if let Some(joined) = joined {
                *last = joined;
                if !rest.is_empty() {
                    out.push(rest.to_owned());
                }
                continue;
            }
        }
        out.push(line.to_owned());
    }
    Ok(out.join(sep))
}

/// `_LEADING_MARKUP.match(text)`: `^(#{1,6}\s|>|[-+*]\s)`.
fn leading_markup(text: &str) -> bool {
    let mut chars = text.chars();
    match chars.next() {
        Some('>') => true,
        Some('-' | '+' | '*') => chars.next().is_some_and(is_space),
        Some('#') => {
            let hashes = 1 + text[1..].bytes().take_while(|&b| b == b'#').count();
            hashes <= 6 && text[hashes..].chars().next().is_some_and(is_space)
        }
        _ => false,
    }
}

/// What a block holds for rendering.
enum Body {
    Table(Vec<Vec<String>>),
    Lines {
        texts: Vec<String>,
        fonts: Option<Vec<String>>,
    },
}

struct RBlock {
    kind: String,
    level: i64,
    run_in: bool,
    y0: f64,
    body: Body,
}

fn exact_str(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if !obj.is_exact_instance_of::<PyString>() {
        return Ok(None);
    }
    utf8(obj)
}

fn read_block(
    py: Python<'_>,
    block: &Bound<'_, PyAny>,
    block_cls: &Bound<'_, PyAny>,
) -> PyResult<Option<RBlock>> {
    if !block.get_type().is(block_cls) {
        return Ok(None);
    }
    let Some(kind) = exact_str(&block.getattr(intern!(py, "kind"))?)? else {
        return Ok(None);
    };
    let level = block.getattr(intern!(py, "level"))?;
    let Some(level) = level
        .downcast_exact::<PyInt>()
        .ok()
        .and_then(|l| l.extract::<i64>().ok())
    else {
        return Ok(None);
    };
    let run_in = block.getattr(intern!(py, "run_in"))?;
    let Ok(run_in) = run_in.downcast_exact::<PyBool>() else {
        return Ok(None);
    };
    let y0 = block.getattr(intern!(py, "y0"))?;
    let Ok(y0) = y0.downcast_exact::<PyFloat>() else {
        return Ok(None);
    };
    let mut out = RBlock {
        kind,
        level,
        run_in: run_in.is_true(),
        y0: y0.value(),
        body: Body::Table(Vec::new()),
    };
    if out.kind == "table" {
        let rows = block.getattr(intern!(py, "rows"))?;
        if !rows.is_none() {
            let Ok(rows) = rows.downcast_exact::<PyList>() else {
                return Ok(None);
            };
            if !rows.is_empty() {
                let mut read = Vec::with_capacity(rows.len());
                for row in rows.iter() {
                    let Ok(row) = row.downcast_exact::<PyList>() else {
                        return Ok(None);
                    };
                    let mut cells = Vec::with_capacity(row.len());
                    for cell in row.iter() {
                        let Some(cell) = exact_str(&cell)? else {
                            return Ok(None);
                        };
                        cells.push(cell);
                    }
                    read.push(cells);
                }
                out.body = Body::Table(read);
                return Ok(Some(out));
            }
        }
    }
    let lines = block.getattr(intern!(py, "lines"))?;
    let Ok(lines) = lines.downcast_exact::<PyList>() else {
        return Ok(None);
    };
    // Fonts are read only where a code block is possible.
    let code = lines.len() >= 2 && out.kind != "heading" && out.kind != "list_item";
    let mut texts = Vec::with_capacity(lines.len());
    let mut fonts = code.then(|| Vec::with_capacity(lines.len()));
    for line in lines.iter() {
        let Some(text) = exact_str(&line.getattr(intern!(py, "text"))?)? else {
            return Ok(None);
        };
        texts.push(text);
        if let Some(fonts) = fonts.as_mut() {
            let Some(font) = exact_str(&line.getattr(intern!(py, "font"))?)? else {
                return Ok(None);
            };
            fonts.push(font);
        }
    }
    out.body = Body::Lines { texts, fonts };
    Ok(Some(out))
}

fn clean_line(text: &str, hooks: &Hooks<'_>) -> PyResult<String> {
    match clean(text) {
        Some(c) => Ok(c),
        None => hooks.clean.call1((text,))?.extract(),
    }
}

/// `render_table(cleaned, cleaned=True)`.
fn render_table(rows: &[Vec<String>]) -> String {
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    let line = |row: &Vec<String>| {
        let mut cells: Vec<String> = row
            .iter()
            .map(|c| strip(&c.replace('|', "\\|")).to_owned())
            .collect();
        cells.resize(width, String::new());
        format!("| {} |", cells.join(" | "))
    };
    let mut out = vec![line(&rows[0])];
    out.push(format!("|{}|", vec!["---"; width].join("|")));
    out.extend(rows[1..].iter().map(line));
    out.join("\n")
}

/// `_render(block, known_words)`: the block as Markdown and as plain text.
fn render(
    block: &RBlock,
    known: &Known<'_, '_>,
    hooks: &Hooks<'_>,
    monospace: &mut Vec<(String, bool)>,
) -> PyResult<(String, String)> {
    let (texts, fonts) = match &block.body {
        Body::Table(rows) => {
            let mut cleaned = Vec::with_capacity(rows.len());
            for row in rows {
                let mut cells = Vec::with_capacity(row.len());
                for cell in row {
                    cells.push(clean_line(cell, hooks)?);
                }
                cleaned.push(cells);
            }
            let plain: Vec<String> = cleaned
                .iter()
                .zip(rows)
                .map(|(row, raw)| {
                    let kept: Vec<&str> = row
                        .iter()
                        .zip(raw)
                        .filter(|(_, r)| !r.is_empty())
                        .map(|(c, _)| c.as_str())
                        .collect();
                    kept.join(" ")
                })
                .collect();
            return Ok((render_table(&cleaned), plain.join("\n")));
        }
        Body::Lines { texts, fonts } => (texts, fonts),
    };
    let mut lines = Vec::with_capacity(texts.len());
    for text in texts {
        lines.push(clean_line(text, hooks)?);
    }
    let plain = join_lines(&lines, known, "\n", hooks)?;
    if block.kind == "heading" {
        let text = join_lines(&lines, known, " ", hooks)?;
        if text.is_empty() {
            return Ok((String::new(), plain));
        }
        let hashes = "#".repeat(block.level.clamp(1, 6) as usize);
        return Ok((format!("{hashes} {text}"), plain));
    }
    if block.kind == "list_item" {
        let text = join_lines(&lines, known, "\n  ", hooks)?;
        let item = match marker(&text) {
            Some(Marker::None) => format!("- {text}"),
            Some(Marker::Bullet(end)) => format!("- {}", &text[end..]),
            Some(Marker::Enum { marker, end }) => {
                let rest = &text[end..];
                let found = &text[..marker];
                let number = found.trim_end_matches(['.', ')']);
                if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
                    format!("{number}. {rest}")
                } else {
                    format!("- {found} {rest}")
                }
            }
            None => hooks.list_item.call1((text.as_str(),))?.extract()?,
        };
        return Ok((item, plain));
    }
    if let Some(fonts) = fonts {
        let mut all = true;
        for font in fonts {
            let mono = match monospace.iter().find(|(f, _)| f == font) {
                Some(&(_, m)) => m,
                None => {
                    let m = hooks.is_monospace.call1((font.as_str(),))?.is_truthy()?;
                    monospace.push((font.clone(), m));
                    m
                }
            };
            if !mono {
                all = false;
                break;
            }
        }
        if all {
            let body: Vec<&str> = lines
                .iter()
                .filter(|l| !strip(l).is_empty())
                .map(String::as_str)
                .collect();
            let body = body.join("\n");
            let text = if body.is_empty() {
                String::new()
            } else {
                format!("```\n{body}\n```")
            };
            return Ok((text, plain));
        }
    }
    let text = if leading_markup(&plain) {
        format!("\\{plain}")
    } else {
        plain.clone()
    };
    Ok((text, plain))
}

/// `render_page(blocks, known_words, Block, hooks)`: `pdfthin.model.markdown.render_page`,
/// `(markdown, anchors, plain)`, or `None` where Python must render (see the module's
/// comment). `hooks` is `(clean, is_monospace, join_pair, list_item, Anchor, COMPOUND_TAILS,
/// COMPOUND_HEADS)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn render_page<'py>(
    py: Python<'py>,
    blocks: &Bound<'py, PyAny>,
    known_words: &Bound<'py, PyAny>,
    block_cls: &Bound<'py, PyAny>,
    hooks: &Bound<'py, PyTuple>,
) -> PyResult<Option<(String, Bound<'py, PyList>, String)>> {
    crate::boundary::guard("render_page", || {
        let Ok(blocks) = blocks.downcast_exact::<PyList>() else {
            return Ok(None);
        };
        let mut read = Vec::with_capacity(blocks.len());
        for block in blocks.iter() {
            match read_block(py, &block, block_cls)? {
                Some(b) => read.push(b),
                None => return Ok(None),
            }
        }
        let hooks = Hooks {
            clean: hooks.get_item(0)?,
            is_monospace: hooks.get_item(1)?,
            join_pair: hooks.get_item(2)?,
            list_item: hooks.get_item(3)?,
            anchor: hooks.get_item(4)?,
            compound_tails: hooks.get_item(5)?,
            compound_heads: hooks.get_item(6)?,
        };
        let known = Known((!known_words.is_none()).then_some(known_words));
        let mut monospace = Vec::new();
        let mut out = String::new();
        let mut anchors = Vec::new();
        let mut length = 0usize;
        let mut previous: &str = "";
        let mut plain_out = String::new();
        let mut any_plain = false;
        let mut glue = "";
        for block in &read {
            let (text, plain) = render(block, &known, &hooks, &mut monospace)?;
            if !plain.is_empty() {
                if any_plain {
                    plain_out.push_str(glue);
                }
                plain_out.push_str(&plain);
                any_plain = true;
                glue = if block.run_in { " " } else { "\n" };
            }
            if text.is_empty() {
                continue;
            }
            if !anchors.is_empty() {
                let sep = if block.kind == "list_item" && previous == "list_item" {
                    "\n"
                } else {
                    "\n\n"
                };
                out.push_str(sep);
                length += sep.len();
            }
            let level = if block.kind == "heading" {
                block.level
            } else {
                0
            };
            anchors.push((length, round1(block.y0), level));
            out.push_str(&text);
            length += text.chars().count();
            previous = &block.kind;
        }
        // `Anchor(offset, y, level)` is the NamedTuple's `tuple.__new__(Anchor, (offset, y,
        // level))`, called here directly.
        let tuple_new = py.get_type::<PyTuple>().getattr(intern!(py, "__new__"))?;
        let made = PyList::empty(py);
        for (offset, y, level) in anchors {
            made.append(tuple_new.call1((&hooks.anchor, (offset, y, level)))?)?;
        }
        Ok(Some((out, made, plain_out)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_half_to_even() {
        assert_eq!(round1(0.25), 0.2);
        assert_eq!(round1(0.75), 0.8);
        assert_eq!(round1(-0.04).to_bits(), (-0.0f64).to_bits());
        assert_eq!(round1(123.456), 123.5);
    }

    #[test]
    fn markup() {
        assert!(leading_markup("# a"));
        assert!(leading_markup("###### a"));
        assert!(!leading_markup("####### a"));
        assert!(leading_markup(">"));
        assert!(leading_markup("-\u{2003}x"));
        assert!(!leading_markup("-x"));
        assert!(!leading_markup("#"));
    }
}
