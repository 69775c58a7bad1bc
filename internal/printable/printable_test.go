package printable

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, ünïcode\tand\nlines": "plain text, ünïcode\tand\nlines",
		"red \x1b[31mtitle\x1b[0m":        `red \x1b[31mtitle\x1b[0m`,
		"bell\a and CR\r":                 `bell\x07 and CR\x0d`,
		"not UTF-8 \xff":                  `not UTF-8 \xff`,
		"DEL \x7f and C1 \u009b":          `DEL \x7f and C1 \x9b`,
	} {
		assert.Equal(t, want, String(in), "%q", in)
	}
}
