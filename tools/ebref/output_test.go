package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/internal/dditrace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An output is whole or not there: abort leaves the old file, commit
// replaces it, a link is kept and its target replaced, a device is
// written in place.
func TestOutputFileIsWholeOrNot(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))

	o, err := createOutput(p)
	require.NoError(t, err)
	o.WriteString("half")
	o.abort()
	assert.Equal(t, "old", read(t, p), "an aborted output leaves the old file")

	o, err = createOutput(p)
	require.NoError(t, err)
	o.WriteString("new")
	b, _ := os.ReadFile(p)
	assert.Equal(t, "old", string(b), "nothing shows before the commit")
	require.NoError(t, o.commit())
	assert.Equal(t, "new", read(t, p))
	o.abort() // after a commit, nothing
	assert.Equal(t, "new", read(t, p))

	link := filepath.Join(dir, "link.json")
	require.NoError(t, os.Symlink("r.json", link))
	o, err = createOutput(link)
	require.NoError(t, err)
	o.WriteString("through the link")
	require.NoError(t, o.commit())
	assert.Equal(t, "through the link", read(t, p))
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link stays a link")

	o, err = createOutput(os.DevNull)
	require.NoError(t, err)
	o.WriteString("x")
	require.NoError(t, o.commit())
	fi, err = os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeDevice, "a device is written, never replaced")

	_, err = createOutput(dir)
	assert.ErrorContains(t, err, "is a directory")
	_, err = createOutput(filepath.Join(dir, "absent", "r.json"))
	assert.ErrorContains(t, err, "cannot write "+filepath.Join(dir, "absent", "r.json")+": no such file or directory")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no temporary file is left behind")
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

// Two outputs on one file, or an output that is an input, are refused
// before anything runs or is written; so is a path that cannot be written.
func TestOutputsAreCheckedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	sc := filepath.Join(dir, "x.ebs")
	src := "buffer B 4096\n"
	require.NoError(t, os.WriteFile(sc, []byte(src), 0o644))
	r := filepath.Join(dir, "r.json")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run", sc, "--trace", sc}, 2, "--trace " + sc + " is the scenario file this command reads"},
		{[]string{"run", sc, "--trace", filepath.Join(dir, ".", "x.ebs")}, 2, "is the scenario file this command reads"},
		{[]string{"hlk", "--suite", "hlk", "--json", r, "--junit", r}, 2, "--json and --junit both name " + r},
		{[]string{"hlk", "--suite", "hlk", "--json", filepath.Join(dir, "no", "r.json")}, 3, "--json: cannot write"},
		{[]string{"hlk", "merge", sc, "--json", sc}, 2, "--json " + sc + " is a report this command reads"},
		{[]string{"bench", "--json", r, "--trace", r}, 2, "--json and --trace both name"},
	} {
		code, stdout, stderr := ebref(t, nil, c.args...)
		assert.Equal(t, c.code, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, c.args)
		assert.NotContains(t, stdout, "CONFORMANT", "%v ran", c.args)
	}
	assert.Equal(t, src, read(t, sc), "the scenario is untouched")
	_, err := os.Stat(r)
	assert.ErrorIs(t, err, os.ErrNotExist)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")

	// Outputs to one device are fine: both go to the stream.
	code, _, stderr := ebref(t, nil, "run", sc, "--profile", "discrete", "--trace", os.DevNull, "--json")
	assert.Equal(t, 0, code, stderr)
	// After --, an argument is a file, not a flag.
	dash := filepath.Join(dir, "-x.ebs")
	require.NoError(t, os.WriteFile(dash, []byte(src), 0o644))
	t.Chdir(dir)
	code, stdout, stderr := ebref(t, nil, "run", "--profile", "discrete", "--", "-x.ebs")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "-x.ebs on discrete: Pass")
	// A -- that is a flag's value does not end the flags: here it is the
	// --case pattern, which no case name matches.
	code, _, stderr = ebref(t, nil, "run", "--case", "--", "x.ebs")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no case of x.ebs matches")
}

// self runs the test binary as ebref (TestMain's mode "main").
func self(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "EBREF_TEST_SERVE=main")
	return cmd
}

// A closed pipe on standard output is a write error: the report file is
// written whole, and the command fails saying why (before, SIGPIPE killed
// it before it wrote the file).
func TestClosedStdoutStillWritesTheReport(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.json")
	cmd := self(t, "hlk", "--suite", "hlk", "--profile", "discrete", "--quiet", "--json", report)
	rd, wr, err := os.Pipe()
	require.NoError(t, err)
	rd.Close() // nobody reads: the first write is EPIPE
	cmd.Stdout = wr
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	wr.Close()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, stderr.String())
	assert.Equal(t, 3, ee.ExitCode(), "exit 3, not death by signal: %v; %s", ee, stderr.String())
	assert.Contains(t, stderr.String(), "broken pipe")
	b, err := os.ReadFile(report)
	require.NoError(t, err)
	rep, err := hlk.ReadJSON(bytes.NewReader(b))
	require.NoError(t, err, "the report is whole")
	assert.NotEmpty(t, rep.Cases)
}

// An interrupted bench ends its trace as valid JSON and leaves the old
// --json report (before, the report was emptied before the run and the
// trace was cut mid-array).
func TestInterruptedBenchKeepsItsFiles(t *testing.T) {
	dir := t.TempDir()
	report, trace := filepath.Join(dir, "b.json"), filepath.Join(dir, "b.trace")
	require.NoError(t, os.WriteFile(report, []byte("the old report"), 0o644))
	cmd := self(t, "bench", "--json", report, "--trace", trace)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	// The outputs are made after the interrupt is handled: once a
	// temporary trace shows, an interrupt stops the run, not the process.
	require.Eventually(t, func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, ".b.trace.tmp-*"))
		return len(m) == 1
	}, time.Minute, 10*time.Millisecond)
	time.Sleep(300 * time.Millisecond) // some cases run
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, stderr.String())
	assert.Equal(t, 3, ee.ExitCode(), stderr.String())
	assert.Contains(t, stderr.String(), "interrupted: no table or report written")
	assert.Equal(t, "the old report", read(t, report))
	var doc struct {
		TraceEvents []json.RawMessage `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal([]byte(read(t, trace)), &doc), "the trace is valid JSON")
	m, _ := filepath.Glob(filepath.Join(dir, ".*tmp-*"))
	assert.Empty(t, m, "no temporary file is left behind")
}

// trace --out stops at its bound, the files holding whole calls.
func TestTraceOutIsBounded(t *testing.T) {
	name := filepath.Join(t.TempDir(), "calls")
	w, err := newCallWriter(name)
	require.NoError(t, err)
	w.limit = 1000
	rec := make([]byte, dditrace.Capture0094.Stride())
	var calls int
	for calls = 0; calls < 100; calls++ {
		err = w.write(&dditrace.Call{Entry: entry0094(t), Count: 1, Records: rec})
		if err != nil {
			break
		}
	}
	require.ErrorIs(t, err, errOutLimit)
	assert.ErrorContains(t, err, "(1000 bytes): the trace stopped before call")
	require.NoError(t, w.close())
	records, err := os.Stat(name)
	require.NoError(t, err)
	lines, err := os.ReadFile(name + ".calls.jsonl")
	require.NoError(t, err)
	assert.Equal(t, int64(calls*len(rec)), records.Size(), "whole records only")
	assert.Equal(t, calls, strings.Count(string(lines), "\n"), "a line per call written")
	assert.LessOrEqual(t, records.Size()+int64(len(lines)), int64(1000))

	code, _, stderr := ebref(t, nil, "trace", "--out-limit", "0", "--pid", "1")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--out-limit 0: want a positive number of bytes")
}

func entry0094(t *testing.T) int {
	for i, e := range dditrace.EntryPoints {
		if e.Capture == dditrace.Capture0094 {
			return i
		}
	}
	t.Fatal("no entry point captures 0094 records")
	return 0
}

// countingWriter counts the writes it gets.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) { c.writes++; return c.Buffer.Write(p) }

// run --json writes each case as it runs, not the array at the end (a
// file of many cases once held them all).
func TestRunJSONStreams(t *testing.T) {
	sc := filepath.Join(t.TempDir(), "many.ebs")
	require.NoError(t, os.WriteFile(sc, []byte("param N 1 2 3 4 5 6 7 8\nbuffer B${N} 4096\n"), 0o644))
	var out countingWriter
	var errb bytes.Buffer
	code := run(&env{nil, &out, &errb}, []string{"run", sc, "--json", "--profile", "discrete"})
	require.Equal(t, 0, code, errb.String())
	var cases []map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &cases))
	assert.Len(t, cases, 8)
	assert.GreaterOrEqual(t, out.writes, 8, "a write per case")
}

// A shrunk program is never written through a link placed where it goes.
func TestShrunkProgramsFollowNoLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	require.NoError(t, os.WriteFile(victim, []byte("mine"), 0o644))
	link := filepath.Join(dir, "seed-1-discrete.ebs")
	require.NoError(t, os.Symlink(victim, link))
	assert.Error(t, writeNoFollow(link, []byte("shrunk")))
	assert.Equal(t, "mine", read(t, victim))
	require.NoError(t, writeNoFollow(filepath.Join(dir, "seed-2-discrete.ebs"), []byte("shrunk")))
}
