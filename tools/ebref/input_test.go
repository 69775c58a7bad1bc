package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zeros is an endless input.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestInputsAreBounded: a device, a FIFO or an endless standard input is
// refused with what and where, in bounded time and memory, by every
// command that reads one, and by an include.
func TestInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	incZero := filepath.Join(dir, "zero.ebs")
	require.NoError(t, os.WriteFile(incZero, []byte(`include "../../../../../../../../../dev/zero"`+"\n"), 0o644))
	big := filepath.Join(dir, "big.ebs")
	require.NoError(t, os.WriteFile(big, make([]byte, maxScenarioBytes+1), 0o644))
	cases := []struct {
		args  []string
		stdin io.Reader
		want  string
	}{
		{[]string{"run", "/dev/zero"}, nil, "/dev/zero is not a regular file"},
		{[]string{"run", incZero}, nil, "dev/zero is not a regular file"},
		{[]string{"run", big}, nil, "a scenario file may have at most 8388608"},
		{[]string{"run", "-"}, zeros{}, "standard input has more than 8388608 bytes"},
		{[]string{"decode", "/dev/zero"}, nil, "not a regular file"},
		{[]string{"decode", "-"}, zeros{}, "a file of barrier records may have at most 67108864"},
		{[]string{"disasm", "/dev/zero"}, nil, "not a regular file"},
		{[]string{"translator", "replay", dir, "--", "true"}, nil, "is not a regular file (d"},
	}
	if runtime.GOOS == "linux" {
		fifo := filepath.Join(dir, "fifo")
		require.NoError(t, syscall.Mkfifo(fifo, 0o644))
		incFifo := filepath.Join(dir, "fifo.ebs")
		require.NoError(t, os.WriteFile(incFifo, []byte(`include "fifo"`+"\n"), 0o644))
		cases = append(cases, struct {
			args  []string
			stdin io.Reader
			want  string
		}{[]string{"run", incFifo}, nil, "fifo is not a regular file (p"})
	}
	for _, c := range cases {
		in := c.stdin
		if in == nil {
			in = bytes.NewReader(nil)
		}
		var out, errb bytes.Buffer
		code := run(&env{in, &out, &errb}, c.args)
		stderr := errb.String()
		assert.NotZero(t, code, "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
}
