package translator

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestServedIOReopensPipes: Serve's pipes are reopened non-blocking, the
// descriptors it was given keep blocking, bytes pass both ways, the end is
// seen as io.EOF, and a file that is not a pipe is used as it is.
func TestServedIOReopensPipes(t *testing.T) {
	inR, inW, err := childPipe(false)
	require.NoError(t, err)
	outW, outR, err := childPipe(true)
	require.NoError(t, err)
	defer outR.Close()
	in, out, done := servedIO(inR, outW)
	require.IsType(t, &rawPipe{}, in)
	require.IsType(t, &rawPipe{}, out)
	flags := func(f *os.File) int {
		fl, err := fcntlFlags(f)
		require.NoError(t, err)
		return fl
	}
	assert.Zero(t, flags(inR)&syscall.O_NONBLOCK, "the given descriptor keeps blocking")
	assert.Zero(t, flags(outW)&syscall.O_NONBLOCK)
	inR.Close()
	outW.Close()

	big := make([]byte, 1<<20) // more than a pipe holds: the write waits for the reader
	for i := range big {
		big[i] = byte(i * 7)
	}
	go func() {
		inW.Write(big)
		inW.Close()
	}()
	got, err := io.ReadAll(in)
	require.NoError(t, err)
	assert.Equal(t, big, got)

	go func() {
		out.Write(big)
		done()
	}()
	got, err = io.ReadAll(outR)
	require.NoError(t, err)
	assert.Equal(t, big, got)

	f, err := os.Create(filepath.Join(t.TempDir(), "not-a-pipe"))
	require.NoError(t, err)
	defer f.Close()
	fin, fout, fdone := servedIO(f, f)
	defer fdone()
	assert.Same(t, f, fin)
	assert.Same(t, f, fout)
}

func fcntlFlags(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var fl uintptr
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		fl, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil {
		return 0, err
	}
	if errno != 0 {
		return 0, errno
	}
	return int(fl), nil
}
