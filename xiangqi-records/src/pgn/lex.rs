//! The PGN tokenizer: tags, comments, words, NAGs, parentheses, with line and column.

/// A character cursor with line and column.
pub(super) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// A token and where it starts.
pub(super) struct Located {
    pub(super) line: usize,
    pub(super) column: usize,
    pub(super) token: Token,
}

pub(super) enum Token {
    Tag(String, String),
    /// A `{...}` comment (trimmed) or a `;` comment (the rest of the line).
    Comment(String),
    Word(String),
    Nag(u8),
    Open,
    Close,
    /// A line of one repeated punctuation character (`=====`).
    Separator(String),
    /// Something that is not a token; the lexer skipped it.
    Bad(LexError),
}

pub(super) enum LexError {
    BadTag(String),
    Unterminated(char),
}

impl<'a> Cursor<'a> {
    pub(super) fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text,
            pos: 0,
            line: 1,
            column: 1,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// The next token, or `None` at the end.
    pub(super) fn next_token(&mut self) -> Option<Located> {
        loop {
            let (line, column) = (self.line, self.column);
            let at = |token| {
                Some(Located {
                    line,
                    column,
                    token,
                })
            };
            let c = self.peek()?;
            match c {
                c if c.is_whitespace() || c == '\u{feff}' => {
                    self.bump();
                }
                '%' if column == 1 => {
                    self.rest_of_line();
                }
                '=' | '-' | '*' | '#' | '~' | '_' if column == 1 && self.separator_ahead(c) => {
                    let t = self.rest_of_line();
                    return at(Token::Separator(t.trim_end().to_string()));
                }
                ';' => {
                    self.bump();
                    let s = self.rest_of_line();
                    let s = s.strip_prefix(' ').unwrap_or(&s);
                    return at(Token::Comment(s.trim_end_matches('\r').to_string()));
                }
                '{' => {
                    self.bump();
                    let mut s = String::new();
                    loop {
                        match self.bump() {
                            None => return at(Token::Bad(LexError::Unterminated('{'))),
                            Some('}') => break,
                            Some(c) => s.push(c),
                        }
                    }
                    return at(Token::Comment(comment_line_breaks(s.trim())));
                }
                '(' => {
                    self.bump();
                    return at(Token::Open);
                }
                ')' => {
                    self.bump();
                    return at(Token::Close);
                }
                '$' => {
                    self.bump();
                    let mut n: u32 = 0;
                    while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
                        n = (n * 10 + d).min(255);
                        self.bump();
                    }
                    return at(Token::Nag(n as u8));
                }
                '[' => return at(self.read_tag()),
                _ => {
                    let s = self.word();
                    if s.is_empty() {
                        // A stray `]` or `}`: skip it.
                        self.bump();
                        continue;
                    }
                    return at(Token::Word(s));
                }
            }
        }
    }

    fn word(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];$".contains(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// Whether the line ahead is three or more of `c` and nothing else.
    fn separator_ahead(&self, c: char) -> bool {
        let line = self.text[self.pos..].split('\n').next().unwrap_or("");
        let t = line.trim_end();
        t.chars().count() >= 3 && t.chars().all(|x| x == c)
    }

    /// Skips a `( ... )` variation whose `(` has been read, nested ones and comments
    /// inside included. Returns false if the file ends first.
    pub(super) fn skip_variation(&mut self) -> bool {
        let mut depth = 1usize;
        loop {
            match self.bump() {
                None => return false,
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return true;
                    }
                }
                Some('{') => loop {
                    match self.bump() {
                        None => return false,
                        Some('}') => break,
                        Some(_) => {}
                    }
                },
                Some(';') => {
                    self.rest_of_line();
                }
                Some(_) => {}
            }
        }
    }

    /// Reads `[Name "value"]` (the cursor is on `[`).
    fn read_tag(&mut self) -> Token {
        self.bump();
        let mut raw = String::from("[");
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            raw.push(c);
            self.bump();
        }
        while self.peek().is_some_and(|c| c.is_whitespace() && c != '\n') {
            self.bump();
        }
        if self.peek() != Some('"') || name.is_empty() {
            raw.push_str(&self.rest_of_line());
            return Token::Bad(LexError::BadTag(raw));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => return Token::Bad(LexError::Unterminated('"')),
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some(c) => {
                        value.push('\\');
                        value.push(c);
                    }
                    None => return Token::Bad(LexError::Unterminated('"')),
                },
                Some('"') => {
                    // Some writers put unescaped quotes inside values: a quote not followed
                    // by `]` (after blanks) is taken as part of the value.
                    let mut rest = String::new();
                    while let Some(c) = self.peek().filter(|&c| c == ' ' || c == '\t') {
                        rest.push(c);
                        self.bump();
                    }
                    if matches!(self.peek(), Some(']') | Some('\n') | None) {
                        break;
                    }
                    value.push('"');
                    value.push_str(&rest);
                }
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() == Some(']') {
            self.bump();
        }
        Token::Tag(name, value)
    }
}

/// A comment's line breaks as PGN holds them: a carriage return before a line feed belongs to
/// the file's line end (CRLF files), not to the comment, so every `\r\n` is `\n`, repeated
/// until none is left (`\r\r\n` is one line break too). The reader reads comments so and
/// the writer writes them so, so a comment reads back as it was written.
pub(crate) fn comment_line_breaks(text: &str) -> String {
    let mut text = text.to_string();
    while text.contains("\r\n") {
        text = text.replace("\r\n", "\n");
    }
    text
}
