package dditrace

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFindReturnsDecodesInstructions(t *testing.T) {
	code := []byte{
		0xb8, 0xc3, 0x00, 0x00, 0x00, // MOV EAX, 0xc3: a 0xC3 byte that is no RET
		0x48, 0x83, 0xc4, 0x18, // ADD RSP, 0x18
		0xc3,                                     // RET at 9
		0x48, 0x8d, 0x05, 0xc3, 0xc3, 0xc3, 0xc3, // LEA RAX, [RIP+0xc3c3c3c3]
		0xc3, // RET at 17
	}
	rets, err := findReturns(code)
	require.NoError(t, err)
	assert.Equal(t, []uint64{9, 17}, rets)
}

func TestFindReturnsNamesUndecodableBytes(t *testing.T) {
	// 0x0f 0x0b is UD2, decodable; 0x06 (PUSH ES) does not exist in
	// 64-bit mode.
	_, err := findReturns([]byte{0x90, 0x0f, 0x0b, 0x06, 0xc3})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "+0x3: cannot decode the instruction at 06 c3")
}

func TestFindReturnsBoundsTheProbes(t *testing.T) {
	code := bytes.Repeat([]byte{0xc3}, maxReturns+1)
	_, err := findReturns(code)
	assert.ErrorContains(t, err, "more than 1024 RET instructions")
	rets, err := findReturns(code[:maxReturns])
	require.NoError(t, err)
	assert.Len(t, rets, maxReturns)
}

func TestReadBinaryRefusesWhatIsNotEbref(t *testing.T) {
	_, err := ReadBinary(filepath.Join(t.TempDir(), "absent"), EntryPoints)
	assert.ErrorIs(t, err, os.ErrNotExist)

	notELF := filepath.Join(t.TempDir(), "text")
	require.NoError(t, os.WriteFile(notELF, []byte("#!/bin/sh\necho hi\n"), 0o755))
	_, err = ReadBinary(notELF, EntryPoints)
	require.Error(t, err)
	assert.Contains(t, err.Error(), notELF)

	// The test binary is a Go program that does not link package umd.
	self, err := os.Executable()
	require.NoError(t, err)
	_, err = ReadBinary(self, EntryPoints)
	assert.True(t, errors.Is(err, ErrNotEbref), "%v", err)
}

// buildTraced builds testdata/traced with extra flags into dir.
func buildTraced(t *testing.T, dir string, flags ...string) string {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		t.Skip("the tracer reads amd64 code; building for it needs GOARCH=amd64 set through, skipped on", runtime.GOARCH)
	}
	out := filepath.Join(dir, "traced")
	args := append(append([]string{"build", "-o", out}, flags...), "./testdata/traced")
	b, err := exec.Command("go", args...).CombinedOutput()
	require.NoError(t, err, "%s", b)
	return out
}

func TestReadBinaryFindsEveryEntryPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir := t.TempDir()
	full, err := ReadBinary(buildTraced(t, dir), EntryPoints)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, full.GoidOffset, int64(0), "the goroutine id's offset, from DWARF")
	assert.Equal(t, int64(8), full.StackHiOffset)
	// testdata/traced calls these; the rest are dropped by the linker.
	for _, sym := range []string{"(*CommandList).Barrier", "(*CommandList).Barrier0088", "(*Device).createHeapAndResource",
		"(*Queue).ExecuteCommandLists", "(*Queue).Signal", "(*Queue).Wait", "(*CommandList).Close"} {
		fn := full.Functions[umdPkg+sym]
		if assert.NotNil(t, fn, sym) {
			assert.NotEmpty(t, fn.Returns, sym)
			assert.NotZero(t, fn.FileOffset, sym)
		}
	}

	// Stripped of its symbol table and DWARF, the pclntab gives the same
	// functions, up to the padding that aligns the next one, and so the
	// same RETs; goroutine ids are then unknown.
	stripped, err := ReadBinary(buildTraced(t, filepath.Join(dir, "s"), "-ldflags=-s -w"), EntryPoints)
	require.NoError(t, err)
	assert.Equal(t, int64(-1), stripped.GoidOffset)
	require.Equal(t, len(full.Functions), len(stripped.Functions))
	for sym, fn := range full.Functions {
		s := stripped.Functions[sym]
		if assert.NotNil(t, s, sym) {
			assert.GreaterOrEqual(t, s.Size, fn.Size, sym)
			assert.Less(t, s.Size, fn.Size+64, sym)
			assert.Equal(t, fn.Returns, s.Returns, sym)
		}
	}
}
