//go:build linux && amd64

package dditrace

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needBPF skips a test where this process may not load BPF programs.
func needBPF(t testing.TB) {
	t.Helper()
	if err := Check(); err != nil {
		t.Skipf("tracing needs privileges here: %v", err)
	}
}

var (
	tracedOnce sync.Once
	tracedBin  string
	tracedErr  error
)

// tracedProgram builds testdata/traced once.
func tracedProgram(t *testing.T) string {
	t.Helper()
	tracedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dditrace")
		if err != nil {
			tracedErr = err
			return
		}
		tracedBin = filepath.Join(dir, "traced")
		out, err := exec.Command("go", "build", "-o", tracedBin, "./testdata/traced").CombinedOutput()
		if err != nil {
			tracedErr = fmt.Errorf("building testdata/traced: %v\n%s", err, out)
		}
	})
	require.NoError(t, tracedErr)
	return tracedBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if tracedBin != "" {
		os.RemoveAll(filepath.Dir(tracedBin))
	}
	os.Exit(code)
}

// callLines renders captured calls the way testdata/traced writes the
// calls it made.
func callLines(calls []*Call) []string {
	var lines []string
	for _, c := range calls {
		lines = append(lines, fmt.Sprintf("%s %d %x", EntryPoints[c.Entry].Capture.Version(), c.Count, sha256.Sum256(c.Records)))
	}
	sort.Strings(lines)
	return lines
}

func ddiByName(r *Report, symbolSuffix string) DDI {
	for _, d := range r.DDIs {
		if strings.HasSuffix(d.Symbol, symbolSuffix) {
			return d
		}
	}
	return DDI{}
}

// wantCalls are the calls testdata/traced makes of each entry point it
// links: 9+300+200 Barrier calls on 0094 records, 6 on 0088, 1 list plus
// 4 goroutines' lists, and so on.
var wantCalls = map[string]uint64{
	"(*CommandList).Barrier":                509,
	"(*CommandList).Barrier0088":            6,
	"(*Device).createHeapAndResource":       1,
	"(*Device).DestroyResource":             1,
	"(*Device).CheckResourceAllocationInfo": 1,
	"(*Device).CreateCommandListFlags":      5,
	"(*CommandList).Close":                  5,
	"(*CommandList).Destroy":                5,
	"(*Queue).ExecuteCommandLists":          1,
	"(*Queue).Signal":                       1,
	"(*Queue).Wait":                         1,
}

// checkTracedRun checks a trace of one run of testdata/traced against
// what it says it did.
func checkTracedRun(t *testing.T, r *Report, calls []*Call, expect string, wantCalls map[string]uint64) {
	t.Helper()
	want, err := os.ReadFile(expect)
	require.NoError(t, err)
	assert.Equal(t, strings.TrimSpace(string(want)), strings.Join(callLines(calls), "\n"),
		"the records captured are the records passed, call by call")
	for _, d := range r.DDIs {
		sym := strings.TrimPrefix(d.Symbol, umdPkg)
		assert.Equal(t, wantCalls[sym], d.Calls, "%s entered", d.Name)
		assert.Equal(t, d.Calls, d.Returned, "%s returned", d.Name)
		var inHist uint64
		for _, n := range d.Histogram {
			inHist += n
		}
		assert.Equal(t, d.Returned, inHist)
		if d.Returned > 0 {
			assert.GreaterOrEqual(t, float64(d.TotalNs)/float64(d.Returned), r.Overhead.FloorNs/4, "%s: latencies are the probes' at least", d.Name)
		}
	}
	assert.Equal(t, []string{"DestroyHeapAndResource: heap", "CalcPrivateHeapAndResourceSizes (_0088)",
		"GetCaps (D3D12_OPTIONS_DATA_0089)", "ResetCommandList"}, r.Missing, "the linker drops what the program never calls")
	assert.NotZero(t, ddiByName(r, "(*CommandList).Barrier").StackGrowths,
		"one of the calls from fresh goroutines grew its stack at entry and was counted once")
	assert.True(t, r.Captured.Complete(), "%+v", r.Captured)
	assert.Equal(t, uint64(515), r.Captured.Calls)
	lists, goroutines := map[uint64]bool{}, map[uint64]bool{}
	for _, c := range calls {
		assert.Equal(t, uint32(r.PID), c.PID)
		assert.NotZero(t, c.Goroutine)
		assert.NotZero(t, c.G)
		lists[c.List], goroutines[c.Goroutine] = true, true
	}
	// A destroyed list's memory may be the next list's, so the four
	// goroutines' lists are at least one address.
	assert.GreaterOrEqual(t, len(lists), 2, "the main list and the goroutines' lists")
	assert.Greater(t, len(goroutines), 300, "the main goroutine, 300 fresh ones and four at once")
	assert.Positive(t, r.Overhead.CallNs)
	assert.Positive(t, r.Overhead.FloorNs)
	assert.Equal(t, calibrationRecords, r.Overhead.CaptureRecords)
	assert.GreaterOrEqual(t, r.Overhead.CaptureNs, 0.0)
	assert.Equal(t, 15, len(r.DDIs))
}

func TestTraceCommand(t *testing.T) {
	needBPF(t)
	traceCommand(t)
}

// Kernels before 6.6 have no uprobe_multi links: a uprobe each.
func TestTraceCommandWithSingleUprobes(t *testing.T) {
	needBPF(t)
	haveMulti := haveUprobeMulti
	defer func() { haveUprobeMulti = haveMulti }()
	haveUprobeMulti = func() bool { return false }
	traceCommand(t)
}

func traceCommand(t *testing.T) {
	bin := tracedProgram(t)
	expect := filepath.Join(t.TempDir(), "expect")
	var calls []*Call
	var stdout, stderr bytes.Buffer
	res, err := Run(context.Background(), Options{Command: []string{bin, "-expect", expect},
		Stdout: &stdout, Stderr: &stderr,
		OnCall: func(c *Call) error { calls = append(calls, c); return nil }})
	require.NoError(t, err, stderr.String())
	require.True(t, res.Command.Success(), "traced: %s%s", stdout.String(), stderr.String())
	assert.Equal(t, "barrier calls: 515\n", stdout.String())
	checkTracedRun(t, res.Report, calls, expect, wantCalls)
	assert.Equal(t, bin, res.Report.Executable)
}

// A process already running is traced by its pid from the next call on.
func TestTracePID(t *testing.T) {
	needBPF(t)
	expect := filepath.Join(t.TempDir(), "expect")
	cmd := exec.Command(tracedProgram(t), "-wait", "-expect", expect)
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "ready\n", line)

	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome, 1)
	attached := make(chan int, 1)
	var calls []*Call
	go func() {
		res, err := Run(context.Background(), Options{PID: cmd.Process.Pid,
			Attached: func(pid int) { attached <- pid },
			OnCall:   func(c *Call) error { calls = append(calls, c); return nil }})
		done <- outcome{res, err}
	}()
	// Run returns when the process exits: let it go once the probes are in.
	select {
	case pid := <-attached:
		require.Equal(t, cmd.Process.Pid, pid)
	case o := <-done:
		require.FailNow(t, "the trace ended before it attached", "%v", o.err)
	}
	_, err = stdin.Write([]byte("go\n"))
	require.NoError(t, err)
	require.NoError(t, cmd.Wait())
	o := <-done
	require.NoError(t, o.err)
	assert.Nil(t, o.res.Command)
	// The creation before the wait was not traced.
	want := maps.Clone(wantCalls)
	want["(*Device).createHeapAndResource"] = 0
	want["(*Device).CheckResourceAllocationInfo"] = 0
	checkTracedRun(t, o.res.Report, calls, expect, want)
}

// A ring buffer too small for a burst loses chunks: the report says how
// many, the calls they belonged to are never delivered, and the counts and
// every call delivered whole stay right.
func TestTraceLosesChunksVisibly(t *testing.T) {
	needBPF(t)
	var calls []*Call
	res, err := Run(context.Background(), Options{Command: []string{tracedProgram(t)}, RingBytes: 4 * os.Getpagesize(),
		Stdout: io.Discard, Stderr: io.Discard,
		OnCall: func(c *Call) error { calls = append(calls, c); return nil }})
	require.NoError(t, err)
	require.True(t, res.Command.Success())
	r := res.Report
	assert.Positive(t, r.Captured.LostChunks, "a 3000-record call is 54 chunks of 4 KiB")
	assert.False(t, r.Captured.Complete())
	assert.Less(t, len(calls), 515)
	for _, c := range calls {
		assert.Equal(t, int(c.Count)*EntryPoints[c.Entry].Capture.Stride(), len(c.Records))
	}
	assert.Equal(t, wantCalls["(*CommandList).Barrier"], ddiByName(r, "(*CommandList).Barrier").Calls)

	_, err = Run(context.Background(), Options{Command: []string{"true"}, RingBytes: 5000})
	assert.ErrorContains(t, err, "a ring buffer of 5000 bytes: want a power of two")
}

// What the tracer cannot trace it refuses before starting anything.
func TestTraceRefuses(t *testing.T) {
	needBPF(t)
	for name, o := range map[string]Options{
		"neither":                        {},
		"both":                           {PID: 1, Command: []string{"x"}},
		"negative pid":                   {PID: -3},
		"no such pid":                    {PID: 1 << 30},
		"no such file":                   {Command: []string{filepath.Join(t.TempDir(), "absent")}},
		"not a Go program linking ebref": {Command: []string{"true"}},
	} {
		res, err := Run(context.Background(), o)
		assert.Error(t, err, name)
		assert.Nil(t, res, name)
	}
	_, err := Run(context.Background(), Options{Command: []string{"true"}})
	assert.ErrorIs(t, err, ErrNotEbref)
}
