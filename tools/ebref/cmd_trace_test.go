package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ebref/ebref/internal/dditrace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTraceUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "want --pid PID or -- COMMAND"},
		{[]string{"--pid", "7", "--", "x"}, "--pid and a command: choose one"},
		{[]string{"--pid", "-7"}, "--pid -7: want a process id"},
		{[]string{"--duration", "-1s", "--", "x"}, "--duration -1s: want a positive duration"},
		{[]string{"stray", "--", "x"}, `unexpected argument "stray": a command to trace follows --`},
		{[]string{"--bogus"}, "flag provided but not defined: -bogus"},
	} {
		code, _, stderr := ebref(t, nil, append([]string{"trace"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
		assert.Contains(t, stderr, "usage: ebref trace", "%v", tc.args)
	}
	code, stdout, _ := ebref(t, nil, "trace", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "docs/trace.md")
}

// build builds a package of this module into dir, readable by anyone.
func build(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	require.NoError(t, os.Chmod(dir, 0o755))
	out := filepath.Join(dir, name)
	b, err := exec.Command("go", "build", "-o", out, pkg).CombinedOutput()
	require.NoError(t, err, "%s", b)
	return out
}

func needBPF(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and traces programs")
	}
	if err := dditrace.Check(); err != nil {
		t.Skipf("tracing needs privileges here: %v", err)
	}
}

// The whole path a user takes: trace a program, write its Barrier calls,
// decode them.
func TestTraceOutDecodes(t *testing.T) {
	needBPF(t)
	dir := t.TempDir()
	traced := build(t, dir, "../../internal/dditrace/testdata/traced", "traced")
	out := filepath.Join(dir, "calls.bin")
	code, stdout, stderr := ebref(t, nil, "trace", "--out", out, "--", traced)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "barrier calls: 515\n", "the traced program's own output")
	assert.Contains(t, stdout, "Barrier (PFND3D12DDI_BARRIER_0094)")
	assert.Contains(t, stdout, "probe overhead: about")
	assert.Contains(t, stdout, "more for 16 records, outside its latency")
	assert.Contains(t, stdout, "@Barrier (PFND3D12DDI_BARRIER_0094) latency (ns), 509 calls")
	assert.Contains(t, stdout, "wrote 515 Barrier calls")

	f, err := os.Open(out + ".calls.jsonl")
	require.NoError(t, err)
	defer f.Close()
	records := map[string]uint64{}
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		var l callLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		assert.Equal(t, records[l.File], l.First, "calls follow one another in their file")
		assert.Equal(t, l.Count, l.Captured)
		assert.NotZero(t, l.Goroutine)
		records[l.File] += l.Captured
	}
	assert.Equal(t, 515, lines)
	require.Len(t, records, 2)

	code, stdout, stderr = ebref(t, nil, "decode", out)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, int(records[out]), strings.Count(stdout, "\n"))
	code, stdout, stderr = ebref(t, nil, "decode", "--ddi", "0088", out+".0088")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, int(records[out+".0088"]), strings.Count(stdout, "\n"))
	assert.Contains(t, stdout, `"type":"BUFFER"`)
}

func TestTraceJSONAndFailingCommand(t *testing.T) {
	needBPF(t)
	dir := t.TempDir()
	traced := build(t, dir, "../../internal/dditrace/testdata/traced", "traced")
	code, stdout, stderr := ebref(t, nil, "trace", "--json", "--", traced)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "barrier calls: 515", "a traced command's output goes to stderr under --json")
	var doc struct {
		PID     int
		DDIs    []dditrace.DDI
		Command struct {
			ExitCode int `json:"exit_code"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc), stdout)
	assert.Positive(t, doc.PID)
	assert.Equal(t, uint64(509), doc.DDIs[0].Calls)
	assert.Zero(t, doc.Command.ExitCode)

	code, _, stderr = ebref(t, nil, "trace", "--", traced, "-no-such-flag")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "ebref trace: the traced command failed: "+traced+" exit status 2")

	code, _, stderr = ebref(t, nil, "trace", "--out", filepath.Join(dir, "no", "such", "dir"), "--", traced)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--out: open")

	// A trace that could not start leaves no files behind.
	out := filepath.Join(dir, "none.bin")
	code, _, stderr = ebref(t, nil, "trace", "--out", out, "--", "true")
	assert.Equal(t, 2, code, "a command with nothing to trace")
	assert.Contains(t, stderr, "links none of ebref's DDI entry points")
	assert.NoFileExists(t, out)
	assert.NoFileExists(t, out+".calls.jsonl")
	// Only what it created: a path that was there stays (a file of the
	// user's here; a device such as /dev/full or /dev/null, whose removal
	// as root would break the machine, likewise).
	require.NoError(t, os.WriteFile(out, []byte("mine"), 0o644))
	code, _, _ = ebref(t, nil, "trace", "--out", out, "--", "true")
	assert.Equal(t, 2, code)
	assert.FileExists(t, out)
	assert.NoFileExists(t, out+".calls.jsonl")
}

// The issue's own example: ebref traced running its conformance suites.
// Without the privilege, the same command says what is missing.
func TestTraceEbref(t *testing.T) {
	needBPF(t)
	dir := t.TempDir()
	bin := build(t, dir, ".", "ebref")
	out, err := exec.Command(bin, "trace", "--", bin, "hlk", "--suite", "hlk", "--profile", "discrete").CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, want := range []string{"CONFORMANT", "Barrier (PFND3D12DDI_BARRIER_0094)", "ExecuteCommandLists", "@GetCaps"} {
		assert.Contains(t, string(out), want)
	}

	setpriv, err := exec.LookPath("setpriv")
	if os.Geteuid() != 0 || err != nil {
		t.Skip("dropping privileges needs root and setpriv")
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", bin, "trace", "--", bin, "rules")
	out, err = cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	assert.Equal(t, 3, exit.ExitCode(), "no privilege to trace")
	assert.Contains(t, string(out), "ebref trace: loading BPF programs needs root, or CAP_BPF with CAP_PERFMON")
}

// --pid with --duration traces a running process for that long, then lets
// it be.
func TestTracePIDForADuration(t *testing.T) {
	needBPF(t)
	cmd, stdin := startWaiting(t, build(t, t.TempDir(), "../../internal/dditrace/testdata/traced", "traced"))

	pid := strconv.Itoa(cmd.Process.Pid)
	code, out, stderr := ebref(t, nil, "trace", "--pid", pid, "--duration", "300ms", "--json")
	require.Equal(t, 0, code, stderr)
	var doc struct {
		PID     int
		Seconds float64
		DDIs    []dditrace.DDI
		Command *struct{}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc), out)
	assert.Equal(t, cmd.Process.Pid, doc.PID)
	assert.GreaterOrEqual(t, doc.Seconds, 0.3)
	assert.Nil(t, doc.Command, "no command was started")
	for _, d := range doc.DDIs {
		assert.Zero(t, d.Calls, "%s: the process made no call while traced", d.Name)
	}
	// The process goes on untraced.
	_, err := stdin.Write([]byte("go\n"))
	require.NoError(t, err)
	require.NoError(t, cmd.Wait())
}

// startWaiting starts testdata/traced with -wait and returns once it has
// made its device and waits for a line on the stdin it returns.
func startWaiting(t *testing.T, traced string) (*exec.Cmd, io.Writer) {
	t.Helper()
	cmd := exec.Command(traced, "-wait")
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line, "it has created its device and waits")
	return cmd, stdin
}

// An interrupt ends a trace of a running process: the report is printed
// and the exit status is 0.
func TestTraceInterrupted(t *testing.T) {
	needBPF(t)
	dir := t.TempDir()
	traced := build(t, dir, "../../internal/dditrace/testdata/traced", "traced")
	bin := build(t, dir, ".", "ebref")
	target, _ := startWaiting(t, traced) // its stdin held open: it waits for ever

	tracer := exec.Command(bin, "trace", "--pid", strconv.Itoa(target.Process.Pid))
	var stdout strings.Builder
	tracer.Stdout = &stdout
	stderr, err := tracer.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, tracer.Start())
	line, err := bufio.NewReader(stderr).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, fmt.Sprintf("ebref trace: tracing pid %d; interrupt to stop\n", target.Process.Pid), line)
	require.NoError(t, tracer.Process.Signal(os.Interrupt))
	require.NoError(t, tracer.Wait(), "the interrupted trace ends well")
	assert.Contains(t, stdout.String(), fmt.Sprintf("traced pid %d", target.Process.Pid))
	assert.Contains(t, stdout.String(), "Barrier (PFND3D12DDI_BARRIER_0094)")
}
