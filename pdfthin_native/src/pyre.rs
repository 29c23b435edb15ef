//! Python's `re` on ASCII text without a line feed, for the few patterns the native mirrors
//! need: a backtracking matcher that tries the alternatives of a pattern in the order Python's
//! `sre` does (alternation left to right, greedy repeats longest first, lazy ones shortest
//! first), so that it finds the same match with the same groups.
//!
//! The pattern syntax read is the subset those patterns use: literals, `.`-free escapes
//! (`\d \D \s \S \w \W \b` and escaped punctuation), classes with ranges and negation,
//! capturing and `(?:...)` groups, `(?=...)`, `|`, `^`, `$` and the quantifiers `? * + {m}
//! {m,} {m,n}` (each also lazy). On ASCII text without a line feed, Python's Unicode classes
//! mean their ASCII selves (`\s` with CPython's white space, `\x1c`-`\x1f` included), `$`
//! means the end, IGNORECASE folds ASCII letters only, and a non-ASCII character of a pattern
//! matches nothing. Text must be short (the matcher recurses once per character).

use crate::pyops::is_space;

#[derive(Debug)]
enum Node {
    Char(u8),
    /// A non-ASCII character of the pattern: nothing in ASCII text.
    Never,
    Class(Box<[bool; 128]>, bool),
    Seq(Vec<Node>),
    Alt(Vec<Node>),
    Rep(Box<Node>, usize, usize, bool),
    Group(usize, Box<Node>),
    Start,
    End,
    WordBoundary,
    Ahead(Box<Node>),
}

/// A group's span, when it took part in the match.
pub type Caps = Vec<Option<(usize, usize)>>;

#[derive(Debug)]
pub struct Re {
    root: Node,
    groups: usize,
    icase: bool,
}

fn word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn class_of(escape: char) -> Option<([bool; 128], bool)> {
    let mut t = [false; 128];
    let (pred, negated): (fn(u8) -> bool, bool) = match escape {
        'd' => (|c| c.is_ascii_digit(), false),
        'D' => (|c| c.is_ascii_digit(), true),
        's' => (|c| is_space(char::from(c)), false),
        'S' => (|c| is_space(char::from(c)), true),
        'w' => (word, false),
        'W' => (word, true),
        _ => return None,
    };
    for (c, slot) in t.iter_mut().enumerate() {
        *slot = pred(c as u8);
    }
    Some((t, negated))
}

struct Parser<'a> {
    chars: Vec<char>,
    at: usize,
    groups: usize,
    pattern: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bad(&self) -> ! {
        panic!("pattern not supported: {:?} at {}", self.pattern, self.at)
    }

    fn alt(&mut self) -> Node {
        let mut options = vec![self.seq()];
        while self.peek() == Some('|') {
            self.at += 1;
            options.push(self.seq());
        }
        if options.len() == 1 {
            options.pop().unwrap_or(Node::Seq(Vec::new()))
        } else {
            Node::Alt(options)
        }
    }

    fn seq(&mut self) -> Node {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom();
            items.push(self.quantified(atom));
        }
        Node::Seq(items)
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let s: String = self.chars[start..self.at].iter().collect();
        s.parse().ok()
    }

    fn quantified(&mut self, atom: Node) -> Node {
        let (min, max) = match self.peek() {
            Some('?') => (0, 1),
            Some('*') => (0, usize::MAX),
            Some('+') => (1, usize::MAX),
            Some('{') => {
                self.at += 1;
                let min = self.number().unwrap_or_else(|| self.bad());
                let max = if self.peek() == Some(',') {
                    self.at += 1;
                    self.number().unwrap_or(usize::MAX)
                } else {
                    min
                };
                if self.peek() != Some('}') {
                    self.bad();
                }
                (min, max)
            }
            _ => return atom,
        };
        self.at += 1;
        let greedy = if self.peek() == Some('?') {
            self.at += 1;
            false
        } else {
            true
        };
        Node::Rep(Box::new(atom), min, max, greedy)
    }

    fn literal(c: char) -> Node {
        if c.is_ascii() {
            Node::Char(c as u8)
        } else {
            Node::Never
        }
    }

    fn atom(&mut self) -> Node {
        let c = self.peek().unwrap_or_else(|| self.bad());
        self.at += 1;
        match c {
            '(' => {
                let node = if self.chars[self.at..].starts_with(&['?', ':']) {
                    self.at += 2;
                    self.alt()
                } else if self.chars[self.at..].starts_with(&['?', '=']) {
                    self.at += 2;
                    Node::Ahead(Box::new(self.alt()))
                } else {
                    self.groups += 1;
                    let g = self.groups;
                    Node::Group(g, Box::new(self.alt()))
                };
                if self.peek() != Some(')') {
                    self.bad();
                }
                self.at += 1;
                node
            }
            '[' => self.class(),
            '^' => Node::Start,
            '$' => Node::End,
            '.' | '*' | '+' | '?' | '{' | ')' | ']' | '}' => self.bad(),
            '\\' => {
                let e = self.peek().unwrap_or_else(|| self.bad());
                self.at += 1;
                if e == 'b' {
                    return Node::WordBoundary;
                }
                if let Some((t, negated)) = class_of(e) {
                    return Node::Class(Box::new(t), negated);
                }
                if e.is_ascii_alphanumeric() {
                    self.bad();
                }
                Self::literal(e)
            }
            c => Self::literal(c),
        }
    }

    fn class(&mut self) -> Node {
        let mut t = [false; 128];
        let negated = self.peek() == Some('^');
        if negated {
            self.at += 1;
        }
        let mut first = true;
        loop {
            let c = self.peek().unwrap_or_else(|| self.bad());
            self.at += 1;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = if c == '\\' {
                let e = self.peek().unwrap_or_else(|| self.bad());
                self.at += 1;
                if let Some((members, neg)) = class_of(e) {
                    for (slot, m) in t.iter_mut().zip(members) {
                        *slot |= m != neg;
                    }
                    continue;
                }
                if e.is_ascii_alphanumeric() {
                    self.bad();
                }
                e
            } else {
                c
            };
            let hi = if self.peek() == Some('-') && self.chars.get(self.at + 1) != Some(&']') {
                self.at += 1;
                let h = self.peek().unwrap_or_else(|| self.bad());
                self.at += 1;
                if h == '\\' {
                    self.bad();
                }
                h
            } else {
                lo
            };
            for code in (lo as u32)..=(hi as u32).min(127) {
                t[code as usize] = true;
            }
        }
        Node::Class(Box::new(t), negated)
    }
}

type Cont<'k> = &'k mut dyn FnMut(usize, &mut Caps) -> bool;

impl Re {
    /// Compile `pattern` (`icase`: `re.IGNORECASE`). Panics on syntax outside the subset:
    /// patterns are constants of this crate, checked by its tests.
    pub fn new(pattern: &str, icase: bool) -> Re {
        let mut p = Parser {
            chars: pattern.chars().collect(),
            at: 0,
            groups: 0,
            pattern,
        };
        let root = p.alt();
        if p.at != p.chars.len() {
            p.bad();
        }
        Re {
            root,
            groups: p.groups,
            icase,
        }
    }

    fn in_class(&self, t: &[bool; 128], negated: bool, c: u8) -> bool {
        let c = usize::from(c & 0x7f);
        let mut found = t[c];
        if self.icase && !found {
            let b = c as u8;
            let swapped = if b.is_ascii_lowercase() {
                b.to_ascii_uppercase()
            } else {
                b.to_ascii_lowercase()
            };
            found = t[usize::from(swapped)];
        }
        found != negated
    }

    fn m(&self, n: &Node, s: &[u8], i: usize, caps: &mut Caps, k: Cont<'_>) -> bool {
        match n {
            Node::Char(c) => {
                i < s.len()
                    && (s[i] == *c || (self.icase && s[i].eq_ignore_ascii_case(c)))
                    && k(i + 1, caps)
            }
            Node::Never => false,
            Node::Class(t, negated) => {
                i < s.len() && s[i].is_ascii() && self.in_class(t, *negated, s[i]) && k(i + 1, caps)
            }
            Node::Seq(items) => self.seq(items, s, i, caps, k),
            Node::Alt(options) => {
                for o in options {
                    if self.m(o, s, i, caps, k) {
                        return true;
                    }
                }
                false
            }
            Node::Rep(node, min, max, greedy) => {
                self.rep(node, (*min, *max, *greedy), 0, s, i, caps, k)
            }
            Node::Group(g, node) => {
                let g = *g;
                self.m(node, s, i, caps, &mut |j, caps: &mut Caps| {
                    let old = caps[g];
                    caps[g] = Some((i, j));
                    if k(j, caps) {
                        true
                    } else {
                        caps[g] = old;
                        false
                    }
                })
            }
            Node::Start => i == 0 && k(i, caps),
            Node::End => i == s.len() && k(i, caps),
            Node::WordBoundary => {
                let before = i > 0 && word(s[i - 1]);
                let after = i < s.len() && word(s[i]);
                before != after && k(i, caps)
            }
            Node::Ahead(node) => {
                let mut inner = caps.clone();
                self.m(node, s, i, &mut inner, &mut |_, _| true) && k(i, caps)
            }
        }
    }

    fn seq(&self, items: &[Node], s: &[u8], i: usize, caps: &mut Caps, k: Cont<'_>) -> bool {
        match items.split_first() {
            None => k(i, caps),
            Some((first, rest)) => self.m(first, s, i, caps, &mut |j, caps: &mut Caps| {
                self.seq(rest, s, j, caps, k)
            }),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn rep(
        &self,
        node: &Node,
        bounds: (usize, usize, bool),
        count: usize,
        s: &[u8],
        i: usize,
        caps: &mut Caps,
        k: Cont<'_>,
    ) -> bool {
        let (min, max, greedy) = bounds;
        let again = |caps: &mut Caps, k: Cont<'_>| {
            count < max
                && self.m(node, s, i, caps, &mut |j, caps: &mut Caps| {
                    // An empty turn ends the repeat (none of the patterns here has one).
                    j != i && self.rep(node, bounds, count + 1, s, j, caps, k)
                })
        };
        // Lazy: the rest first; greedy: one more turn first.
        if !greedy && count >= min && k(i, caps) {
            return true;
        }
        again(caps, k) || (greedy && count >= min && k(i, caps))
    }

    /// `pattern.match(s, at)`... anchored at `at`: the end and the groups (0: the whole).
    pub fn match_at(&self, s: &[u8], at: usize) -> Option<Caps> {
        let mut caps: Caps = vec![None; self.groups + 1];
        let mut end = None;
        if self.m(&self.root, s, at, &mut caps, &mut |j, _| {
            end = Some(j);
            true
        }) {
            caps[0] = end.map(|e| (at, e));
            Some(caps)
        } else {
            None
        }
    }

    /// `pattern.match(s)`.
    pub fn matches(&self, s: &[u8]) -> Option<Caps> {
        self.match_at(s, 0)
    }

    /// `pattern.search(s)`.
    pub fn search(&self, s: &[u8]) -> Option<Caps> {
        (0..=s.len()).find_map(|at| self.match_at(s, at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basics() {
        let re = Re::new(r"^(\d{1,2}(?:\.\d{1,2}){0,4})(\.?)(?:\s+|$)", false);
        let c = re.matches(b"3.1 Methods").unwrap();
        assert_eq!(c[0], Some((0, 4)));
        assert_eq!(c[1], Some((0, 3)));
        assert!(re.matches(b"123 x").is_none());
        let lazy = Re::new(r"^a{1,3}?", false);
        assert_eq!(lazy.matches(b"aaa").unwrap()[0], Some((0, 1)));
        let icase = Re::new(r"^(fig\.?|table)\s*([ivx]+\b)", true);
        assert!(icase.matches(b"TABLE IV").is_some());
        assert!(Re::new(r"\S@\S+\.\w", false).search(b"x a@b.c").is_some());
    }
}
