package hlk

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileFiles: each file of testdata/hostile is one class of hostile
// input; each gets its clear error, at its place, within a bound on the
// memory parsing it allocates (time follows: nothing here loops beyond the
// limits docs/conformance.md "Limits" states).
func TestHostileFiles(t *testing.T) {
	fsys := os.DirFS("testdata/hostile")
	cases := []struct {
		file, where, what string
	}{
		{"fanout/a.ebs", "fanout/e.ebs:2:1", "the file and its includes have more than 100000 lines"},
		{"params.ebs", "params.ebs:18:1", "the file makes more than 16384 cases"},
		{"absolute-include.ebs", "absolute-include.ebs:2:9", `cannot include "/etc/passwd": include paths are relative to the including file`},
		{"non-ascii.ebs", "non-ascii.ebs:2:10", `unexpected character 'ü'`},
		{"unterminated-param.ebs", "unterminated-param.ebs:3:8", "B${X: ${ without its closing }"},
		{"octal.ebs", "octal.ebs:2:10", "010 has a leading zero: numbers are decimal (write 10) or 0x hex"},
		{"width.ebs", "width.ebs:2:22", "65537 does not fit a mip count (at most 65535)"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = LoadFile(fsys, c.file) })
			var pe *ParseError
			require.True(t, errors.As(err, &pe), "want a *ParseError, got %v", err)
			assert.Equal(t, c.where, pe.Pos.String())
			assert.Contains(t, err.Error(), c.what)
			assert.Less(t, bytes, uint64(256<<20), "parsing allocated %d bytes", bytes)
		})
	}
	sc, err := LoadFile(fsys, "bom.ebs")
	require.NoError(t, err, "a byte-order mark is not an error")
	require.Len(t, sc, 1)
}

// TestNumbersAreNeverCut: a value out of its field's range is an error at
// its place, never the field's low bits; numbers are decimal or 0x hex.
func TestNumbersAreNeverCut(t *testing.T) {
	const buf = "buffer B 4096\ntexture T 16x16 mips 2 array 2 flags RENDER_TARGET layout RENDER_TARGET\n"
	cases := []struct{ src, where, what string }{
		{"texture U 16x16 mips 65537", "t.ebs:1:22", "65537 does not fit a mip count"},
		{"texture U 16x16 array 65536", "t.ebs:1:23", "65536 does not fit an array size"},
		{"texture U 16x16x65536", "t.ebs:1:11", "16x16x65536: 65536 does not fit the texture's depth (at most 65535)"},
		{"texture U 4294967296x16", "t.ebs:1:11", "does not fit the texture's width"},
		{buf + "list L DIRECT\n  barrier texture T sync NONE -> NONE access NO_ACCESS -> NO_ACCESS layout RENDER_TARGET -> RENDER_TARGET subresources 4294967296\nend",
			"t.ebs:4:120", "4294967296 does not fit a subresource index"},
		{buf + "list L DIRECT\n  barrier texture T sync NONE -> NONE access NO_ACCESS -> NO_ACCESS layout RENDER_TARGET -> RENDER_TARGET subresources slices 0+4294967297\nend",
			"t.ebs:4:129", "4294967297 does not fit a last index or a count"},
		{buf + "list L DIRECT\n  barrier type 4294967296\nend", "t.ebs:4:16", "does not fit a barrier type value"},
		{"expect error 4294968630", "t.ebs:1:14", "does not fit a message ID"},
		{buf + "list L DIRECT\n  clear-rt T 4294967296\nend", "t.ebs:4:14", "does not fit a 32-bit number"},
		{"buffer B 0o20", "t.ebs:1:10", "expected a number"},
		{"buffer B 0b1000", "t.ebs:1:10", "expected a number"},
		{"buffer B 4_096", "t.ebs:1:10", "expected a number"},
		{"buffer B 0x", "t.ebs:1:10", "expected a number"},
	}
	for _, c := range cases {
		_, err := Parse("t.ebs", c.src, nil)
		var pe *ParseError
		if assert.True(t, errors.As(err, &pe), "%q: want a *ParseError, got %v", c.src, err) {
			assert.Equal(t, c.where, pe.Pos.String(), c.src)
			assert.Contains(t, err.Error(), c.what, c.src)
		}
	}
	sc, err := Parse("t.ebs", "buffer B 0x10\nbuffer C 16\nbuffer D 1KiB\nbuffer E 0\n", nil)
	require.NoError(t, err)
	assert.Len(t, sc[0].Steps, 4)
}

// TestTitlesTakeParameters: ${NAME} in a scenario title is substituted,
// as in any string.
func TestTitlesTakeParameters(t *testing.T) {
	sc, err := Parse("t.ebs", "scenario \"copy on ${Q}\"\nparam Q DIRECT COPY\nqueue X ${Q}\n", nil)
	require.NoError(t, err)
	require.Len(t, sc, 2)
	assert.Equal(t, "copy on DIRECT", sc[0].Title)
	assert.Equal(t, "copy on COPY", sc[1].Title)
}

// TestBytesExpectationKeepsToItsView: a view larger than its buffer, or
// bytes beyond the view, fail the expectation.
func TestBytesExpectationKeepsToItsView(t *testing.T) {
	p, _ := hwmodel.LookupProfile("coherent")
	for src, detail := range map[string]string{
		"buffer B 4096\nexpect bytes B[0+8192] = 00\n":     "runs past the 4096 bytes",
		"buffer B 4096\nexpect bytes B[0+1] = 00 00\n":     "2 bytes expected of the 1-byte view",
		"buffer B 4096\nexpect bytes B[4000+96] = 00 00\n": "",
	} {
		sc, err := Parse("t.ebs", src, nil)
		require.NoError(t, err)
		r := Run(Reference, sc[0], p, "")
		if detail == "" {
			assert.Equal(t, Pass, r.Status, src)
			continue
		}
		assert.Equal(t, Fail, r.Status, src)
		assert.Contains(t, r.Expectations[0].Detail, detail, src)
	}
}

// An expectation that names one resource many thousand times is restated
// in memory proportional to its length (it once took 128 s for 200,000
// names on three profiles, copying the line once per name).
func TestLongExpectationIsRestatedLinearly(t *testing.T) {
	e := Expect{Kind: "detected"}
	for range 20000 {
		e.Res = append(e.Res, ViewRef{Res: "B"})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := e.String()
	runtime.ReadMemStats(&after)
	assert.Len(t, s, len("detected")+2*20000)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "bytes allocated to restate 20000 names")
}
