package hlk

import (
	"errors"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/internal/memtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allocated runs f and returns the bytes it allocated.
var allocated = memtest.Allocated

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
			bytes := allocated(func() { _, err = scenario.LoadFile(fsys, c.file) })
			var pe *scenario.ParseError
			require.True(t, errors.As(err, &pe), "want a *ParseError, got %v", err)
			assert.Equal(t, c.where, pe.Pos.String())
			assert.Contains(t, err.Error(), c.what)
			assert.Less(t, bytes, uint64(256<<20), "parsing allocated %d bytes", bytes)
		})
	}
	sc, err := scenario.LoadFile(fsys, "bom.ebs")
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
		{"heap H default 1MiB\ntexture U 16x16 at H 4096 align 3000", "t.ebs:2:33", "alignment 3000 is not a power of two"},
		{"heap H default 1MiB\ntexture U 16x16 at H 4096 align 0", "t.ebs:2:33", "alignment 0 is not a power of two"},
		{"heap H default 1MiB\ntexture U 16x16 at H 4096 align 8388608", "t.ebs:2:33", "8388608 does not fit an alignment in bytes (at most 4194304)"},
		{"heap H default 1MiB\ntexture U 16x16 at H 4096 align 99999999999999999999999", "t.ebs:2:33", "expected"},
		{"texture U 16x16 align 4096", "t.ebs:1:17", "align is a placed resource's"},
		{buf + "list L DIRECT\n  predication B\nend", "t.ebs:4:16", "expected the predicate's offset"},
		{buf + "list L DIRECT\n  predication B 0 SIDEWAYS\nend", "t.ebs:4:19", "expected the predicate's offset, then EQUAL_ZERO or NOT_EQUAL_ZERO"},
		{buf + "list L DIRECT\n  predication B 0 EQUAL_ZERO NOT_EQUAL_ZERO\nend", "t.ebs:4:30", "unexpected NOT_EQUAL_ZERO"},
		{buf + "list L DIRECT\n  predication B 0 8\nend", "t.ebs:4:19", "unexpected 8"},
		{buf + "list L DIRECT\n  predication B 18446744073709551616\nend", "t.ebs:4:17", "expected a number"},
		{"query-heap QH OCCLUSION 1048577", "t.ebs:1:25", "1048577 does not fit a query count (at most 1048576)"},
		{"query-heap QH OCCLUSION 99999999999999999999999", "t.ebs:1:25", "expected a number"},
		{"query-heap QH SIDEWAYS 4", "t.ebs:1:15", "expected a query heap type"},
		{"query-heap QH OCCLUSION 4\nlist L DIRECT\n  end-query QH OCCLUSION 4294967296\nend", "t.ebs:3:26", "4294967296 does not fit the query's index"},
		{"query-heap QH OCCLUSION 4\nlist L DIRECT\n  resolve-query QH OCCLUSION 0 4294967296 B 0\nend", "t.ebs:3:32", "does not fit the number of queries"},
		{buf + "query-heap QH OCCLUSION 4\nlist L DIRECT\n  resolve-query QH OCCLUSION 0 1 B\nend", "t.ebs:5:35", "expected the destination offset"},
		{buf + "list L DIRECT\n  end-query B OCCLUSION 0\nend", "t.ebs:4:13", "B is a resource, not a query heap"},
		{"buffer B 0o20", "t.ebs:1:10", "expected a number"},
		{"buffer B 0b1000", "t.ebs:1:10", "expected a number"},
		{"buffer B 4_096", "t.ebs:1:10", "expected a number"},
		{"buffer B 0x", "t.ebs:1:10", "expected a number"},
	}
	for _, c := range cases {
		_, err := scenario.Parse("t.ebs", c.src, nil)
		var pe *scenario.ParseError
		if assert.True(t, errors.As(err, &pe), "%q: want a *ParseError, got %v", c.src, err) {
			assert.Equal(t, c.where, pe.Pos.String(), c.src)
			assert.Contains(t, err.Error(), c.what, c.src)
		}
	}
	sc, err := scenario.Parse("t.ebs", "buffer B 0x10\nbuffer C 16\nbuffer D 1KiB\nbuffer E 0\n", nil)
	require.NoError(t, err)
	assert.Len(t, sc[0].Steps, 4)
}

// TestTitlesTakeParameters: ${NAME} in a scenario title is substituted,
// as in any string.
func TestTitlesTakeParameters(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", "scenario \"copy on ${Q}\"\nparam Q DIRECT COPY\nqueue X ${Q}\n", nil)
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
		sc, err := scenario.Parse("t.ebs", src, nil)
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
	e := scenario.Expect{Kind: "detected"}
	for range 20000 {
		e.Res = append(e.Res, scenario.ViewRef{Res: "B"})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := e.String()
	runtime.ReadMemStats(&after)
	assert.Len(t, s, len("detected")+2*20000)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(4<<20), "bytes allocated to restate 20000 names")
}

// TestParsingIsBoundedInBytes: lines alone do not bound a parse. A value
// used many times expands a small file into gigabytes, a long line holds
// thousands of tokens: each has its bound, met at its place, within
// bounded memory (issue 32: a 175 KB file became 2 GB, a 365 KB file took
// 2.7 GB to parse). The default suites stay far below every bound.
func TestParsingIsBoundedInBytes(t *testing.T) {
	big := strings.Repeat("x", 60_000)
	cases := []struct {
		name, src, where, what string
	}{
		{"expansion", "param V " + big + "\n" + strings.Repeat("buffer B${V} 4096\n", 1200),
			"t.ebs:1120:8", "more than 67108864 bytes of text in all once parameters are substituted"},
		{"tokens", "param X " + strings.TrimSpace(strings.Repeat("1 ", 1002)) + "\nbuffer B 4096\nexpect detected" +
			strings.Repeat(" B", 999) + " ${X}\n", "", "more than 1000000 tokens in all"},
		{"fill", "buffer B 16MiB\n" + strings.Repeat("expect bytes B[0+16] = fill 0 16MiB\n", 5), "t.ebs:5:24", "(fill's bytes count)"},
		{"one token", "param V " + big + big + "\nbuffer B${V} 4096\n", "t.ebs:2:8", "a token of more than 65536 bytes once parameters are substituted"},
		{"a value naming a parameter", "param X ${Y}\nparam Y 1\nbuffer B${X}${Y} 4096\n", "t.ebs:3:8",
			"B${X}${Y}: a parameter's value holds ${Y}, and values are not substituted again"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			bytes := allocated(func() { _, err = scenario.Parse("t.ebs", c.src, nil) })
			var pe *scenario.ParseError
			require.True(t, errors.As(err, &pe), "want a *ParseError, got %v", err)
			if c.where != "" {
				assert.Equal(t, c.where, pe.Pos.String())
			}
			assert.Contains(t, err.Error(), c.what)
			assert.Less(t, bytes, uint64(512<<20), "parsing %d bytes of source allocated %d bytes", len(c.src), bytes)
			t.Logf("%d bytes of source: %d MB allocated", len(c.src), bytes>>20)
		})
	}

	// A parameter used only in the title is used: titles are substituted.
	sc, err := scenario.Parse("t.ebs", "scenario \"size ${N}\"\nparam N 1 2\nbuffer B 4096\n", nil)
	require.NoError(t, err)
	assert.Equal(t, "size 2", sc[1].Title)
}

// TestWhatIsNotTextSaysWhatItIs: a byte that is not UTF-8, a UTF-16 file,
// a NUL and a control character are told apart, and a string cannot carry
// a control character to the terminal that prints its title.
func TestWhatIsNotTextSaysWhatItIs(t *testing.T) {
	for _, c := range []struct{ src, where, what string }{
		{"buffer B\xff 4096", "t.ebs:1:9", "byte 0xff is not UTF-8"},
		{"\xff\xfeb\x00u\x00f\x00", "t.ebs:1:1", "the file is UTF-16"},
		{"buffer B 4096\x00", "t.ebs:1:14", "a NUL byte"},
		{"buffer B 4096 \x07", "t.ebs:1:15", "unexpected control character U+0007"},
		{"scenario \"red \x1b[31m title\"\nbuffer B 4096", "t.ebs:1:15", "control character U+001B in a string"},
		{"buffer B 4096\nbuffer C 40\x7f96", "t.ebs:2:12", "unexpected control character U+007F"},
	} {
		_, err := scenario.Parse("t.ebs", c.src, nil)
		var pe *scenario.ParseError
		if assert.True(t, errors.As(err, &pe), "%q: got %v", c.src, err) {
			assert.Equal(t, c.where, pe.Pos.String(), c.src)
			assert.Contains(t, err.Error(), c.what, c.src)
		}
	}
}
