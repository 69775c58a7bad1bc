// Package printable makes text from outside (a report read back, a
// translator's standard error, a name a program chose) safe to print on a
// terminal: control characters are shown escaped, never sent raw, so an
// escape sequence cannot recolour, move or rewrite what a user reads.
//
// This package imports nothing of ebref.
package printable

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// String returns s with every control character but newline and tab
// written as \xNN (DEL and C1 controls included), and each byte that is
// not UTF-8 as \xNN too. Text with nothing to escape comes back as is.
func String(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case control(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func control(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0
}

func clean(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || control(r) {
			return false
		}
	}
	return true
}
