package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Pos is a place in a scenario file: 1-based line and column.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// ParseError is a scenario file that cannot be read: where, and what was
// expected there.
type ParseError struct {
	Pos Pos
	Msg string
}

func (e *ParseError) Error() string { return e.Pos.String() + ": " + e.Msg }

// tokKind is a kind of token.
type tokKind uint8

const (
	tWord   tokKind = iota // a name, keyword or enum value: letters, digits, _ | - $ { }
	tNumber                // starts with a digit: 4096, 0x10, 64KiB, 64x64
	tString                // "text"
	tPunct                 // -> .. = == <= >= < > [ ] + @
)

// token is one token and where it starts.
type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) String() string {
	if t.kind == tString {
		return fmt.Sprintf("%q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// line is the tokens of one logical line (a statement).
type line struct {
	toks []token
	pos  Pos // the first token's position
}

// lex splits a file into lines of tokens. # starts a comment; a line
// ending in \ continues on the next.
func lex(file, src string) ([]line, error) {
	var out []line
	var cur []token
	flush := func() {
		if len(cur) > 0 {
			out = append(out, line{toks: cur, pos: cur[0].pos})
			cur = nil
		}
	}
	src = strings.TrimPrefix(src, "\uFEFF") // a UTF-8 byte-order mark some editors write
	if strings.HasPrefix(src, "\xff\xfe") || strings.HasPrefix(src, "\xfe\xff") {
		return nil, &ParseError{Pos{file, 1, 1}, "the file is UTF-16 (it starts with a UTF-16 byte-order mark): scenario files are UTF-8 text"}
	}
	for ln, text := range strings.Split(src, "\n") {
		text = strings.TrimSuffix(text, "\r")
		cont := false
		for i := 0; i < len(text); {
			c := text[i]
			pos := Pos{file, ln + 1, i + 1}
			switch {
			case c == ' ' || c == '\t':
				i++
			case c == '#':
				i = len(text)
			case c == '\\' && strings.TrimSpace(text[i+1:]) == "":
				cont = true
				i = len(text)
			case c == '"':
				var b strings.Builder
				j := i + 1
				for ; j < len(text) && text[j] != '"'; j++ {
					if text[j] == '\\' && j+1 < len(text) {
						j++
					}
					// A string is printed (titles, names): a control
					// character would reach the terminal raw.
					if c := text[j]; c < 0x20 && c != '\t' || c == 0x7f {
						return nil, &ParseError{Pos{file, ln + 1, j + 1}, fmt.Sprintf("control character %U in a string: strings hold printable text", rune(c))}
					}
					b.WriteByte(text[j])
				}
				if j >= len(text) {
					return nil, &ParseError{pos, "unterminated string: expected a closing \""}
				}
				cur = append(cur, token{tString, b.String(), pos})
				i = j + 1
			case isDigit(c):
				j := i
				for j < len(text) && (isDigit(text[j]) || isLetter(text[j]) || text[j] == '_' || text[j] == '|') {
					j++
				}
				cur = append(cur, token{tNumber, text[i:j], pos})
				i = j
			case isLetter(c) || c == '_' || c == '$':
				j := i
				for j < len(text) && isWordByte(text, j) {
					j++
				}
				cur = append(cur, token{tWord, text[i:j], pos})
				i = j
			default:
				p := ""
				for _, op := range []string{"->", "..", "==", "<=", ">=", "=", "<", ">", "[", "]", "+", "@"} {
					if strings.HasPrefix(text[i:], op) {
						p = op
						break
					}
				}
				if p == "" {
					return nil, &ParseError{pos, unexpected(text[i:])}
				}
				cur = append(cur, token{tPunct, p, pos})
				i += len(p)
			}
		}
		if !cont {
			flush()
		}
	}
	flush()
	return out, nil
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isWordByte: letters, digits, _ | and /; - unless it starts ->; . before a
// letter (Subresources.NumPlanes); ${NAME}.
func isWordByte(s string, j int) bool {
	c := s[j]
	switch {
	case isLetter(c) || isDigit(c) || c == '_' || c == '|' || c == '/' || c == '$' || c == '{' || c == '}':
		return true
	case c == '-':
		return j+1 >= len(s) || s[j+1] != '>'
	case c == '.':
		return j+1 < len(s) && isLetter(s[j+1])
	}
	return false
}

// unexpected says what the character at the start of text is, telling
// apart a byte that is not UTF-8, a NUL (a UTF-16 or binary file), a
// control character and a character the language has no use for.
func unexpected(text string) string {
	r, size := utf8.DecodeRuneInString(text)
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf("byte 0x%02x is not UTF-8: scenario files are UTF-8 text", text[0])
	case r == 0:
		return "a NUL byte: scenario files are UTF-8 text (is this file UTF-16, or binary?)"
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf("unexpected control character %U", r)
	}
	return fmt.Sprintf("unexpected character %q", r)
}
