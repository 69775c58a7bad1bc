package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const smoke = "../../hlk/testdata/smoke.ebs"

func TestRunScenario(t *testing.T) {
	code, stdout, stderr := ebref(t, nil, "run", smoke, "--profile", "discrete")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{
		"== ../../hlk/testdata/smoke.ebs on discrete: Pass",
		"list L (DIRECT)",
		`MARKER        tag=0x00000002 "Barrier #2"`,
		"; barrier 0: TEXTURE RT RENDER_TARGET->PIXEL_SHADING", // the resource by its scenario name, not its handle
		"CACHE         flush=COLOR inval=TEXTURE_L0",
		"; Barrier #2: 1 barriers, 1 waits",
		"16 dwords; cost 2233 cycles (150 stalled), 256 lines flushed",
		"hazards: none",
		"cost: ",
		"  DIRECT#0: ",
		" cycles = issue ",
		"ok   ../../hlk/testdata/smoke.ebs:14:1: expect reference RT OUT: equal to the reference",
	} {
		assert.Contains(t, stdout, want)
	}

	// With the flush dropped the expectation fails, the hazard is named,
	// and the exit status is 1.
	code, stdout, _ = ebref(t, nil, "run", smoke, "--profile", "unified3d", "--inject", "drop-flush")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "FAIL ../../hlk/testdata/smoke.ebs:14:1: expect reference RT OUT: differs from the reference")
	assert.Contains(t, stdout, "missing-flush")

	code, stdout, _ = ebref(t, nil, "run", smoke, "--json")
	require.Equal(t, 0, code)
	var out []struct {
		Case         string `json:"case"`
		Profile      string `json:"profile"`
		Status       string `json:"status"`
		Expectations []struct {
			Position string `json:"position"`
			OK       bool   `json:"ok"`
		} `json:"expectations"`
		Counters map[string]uint64 `json:"counters"`
		Engines  []struct {
			Engine   string            `json:"engine"`
			Counters map[string]uint64 `json:"counters"`
		} `json:"engines"`
		Lists []struct {
			Calls []string `json:"barrier_calls"`
		} `json:"lists"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	require.Len(t, out, len(hwmodel.ProfileNames()))
	assert.Equal(t, "Pass", out[0].Status)
	assert.Contains(t, out[0].Lists[0].Calls[0], "Barrier #2: TEXTURE")
	assert.Equal(t, "../../hlk/testdata/smoke.ebs:14:1", out[0].Expectations[0].Position)
	assert.True(t, out[0].Expectations[0].OK)
	assert.Equal(t, uint64(1), out[0].Counters["packets-WAIT"])
	for _, c := range out {
		require.NotEmpty(t, c.Engines, c.Profile)
		for _, e := range c.Engines {
			k := e.Counters
			assert.Equal(t, k["cycles"], k["issue-cycles"]+k["wait-cycles"]+k["cache-cycles"]+k["compression-cycles"]+
				k["batch-end-cycles"]+k["stall-cycles"], "%s %s: the CP's parts add up", c.Profile, e.Engine)
		}
	}

	// Standard input works; parse errors are status 2 with file:line:col.
	code, _, stderr = ebref(t, []byte("buffer B 4096\nlist L DIRECT\n  dispatch uav Q\nend\n"), "run", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "<stdin>:3:16: no resource is named Q")

	code, _, stderr = ebref(t, nil, "run")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "expected one scenario file")
	code, _, stderr = ebref(t, nil, "run", smoke, "--profile", "tiny")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "tiny")
	code, _, stderr = ebref(t, nil, "run", smoke, "--inject", "drop-everything")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "drop-everything")
	code, _, stderr = ebref(t, nil, "run", "no-such-file.ebs")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no-such-file.ebs")
	code, _, stderr = ebref(t, nil, "run", smoke, "--case", "nothing-matches")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "no case")
}

// Includes in a file on disk resolve relative to it.
func TestRunWithInclude(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "_setup.ebs"), []byte("buffer B 4096 flags UNORDERED_ACCESS\nqueue Q COMPUTE\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.ebs"), []byte(`include "_setup.ebs"
list L COMPUTE
  dispatch uav B
end
execute Q L
expect reference B
`), 0o644))
	code, stdout, stderr := ebref(t, nil, "run", filepath.Join(dir, "main.ebs"), "--profile", "coherent")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, ": Pass")
}

func TestHLK(t *testing.T) {
	dir := t.TempDir()
	js, ju := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.xml")
	code, stdout, stderr := ebref(t, nil, "hlk", "--suite", "hlk,cost", "--json", js, "--junit", ju)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "CONFORMANT: ")
	assert.Contains(t, stdout, "hlk                          discrete")
	raw, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep hlk.Report
	require.NoError(t, json.Unmarshal(raw, &rep))
	assert.NotEmpty(t, rep.Cases)
	assert.Equal(t, "ebref umd", rep.Environment.Driver)
	assert.NotEmpty(t, rep.Environment.Go)
	x, err := os.ReadFile(ju)
	require.NoError(t, err)
	assert.NoError(t, xml.Unmarshal(x, new(struct{})))
	assert.Contains(t, string(x), `<testsuite name="hlk@discrete"`)

	// An injected fault makes the run fail, with the hazards in the summary.
	code, stdout, _ = ebref(t, nil, "hlk", "--suite", "hlk", "--inject", "drop-invalidate", "--profile", "discrete")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "NOT CONFORMANT")
	assert.Contains(t, stdout, "missing-invalidate")

	// Shards, merged, are the whole run.
	var parts []string
	for _, k := range []string{"1/2", "2/2"} {
		p := filepath.Join(dir, strings.ReplaceAll(k, "/", "of")+".json")
		code, _, stderr := ebref(t, nil, "hlk", "--suite", "hlk", "--shard", k, "--json", p)
		require.Equal(t, 0, code, stderr)
		parts = append(parts, p)
	}
	merged := filepath.Join(dir, "merged.json")
	code, stdout, stderr = ebref(t, nil, append([]string{"hlk", "merge", "--json", merged}, parts...)...)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "CONFORMANT")
	raw, err = os.ReadFile(merged)
	require.NoError(t, err)
	var m hlk.Report
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.Equal(t, []string{"1/2", "2/2"}, m.Environment.Shards)

	// One shard is not a run, and JSON that is not a report is unreadable.
	code, stdout, stderr = ebref(t, nil, "hlk", "merge", parts[0])
	assert.Equal(t, 2, code)
	assert.NotContains(t, stdout, "CONFORMANT")
	assert.Contains(t, stderr, "shards 2/2 are missing")
	for i, junk := range []string{"{}", "null"} {
		p := filepath.Join(dir, fmt.Sprintf("junk%d.json", i))
		require.NoError(t, os.WriteFile(p, []byte(junk), 0o644))
		code, _, stderr = ebref(t, nil, "hlk", "merge", p)
		assert.Equal(t, 2, code, junk)
		assert.Contains(t, stderr, "not an ebref hlk report", junk)
	}

	code, stdout, stderr = ebref(t, nil, "hlk", "--suite", "validation", "--profile", "coherent", "--run", "DISCARD", "--list")
	require.Equal(t, 0, code)
	assert.Equal(t, "validation/barrier.ebs: DISCARD without LayoutBefore UNDEFINED,coherent\n", stdout, "a caselist line")
	assert.Contains(t, stderr, "1 cases")

	emit := filepath.Join(dir, "emit")
	code, stdout, _ = ebref(t, nil, "hlk", "--emit", emit)
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "scenario files")
	gen, err := os.ReadFile(filepath.Join(emit, "rules", "layout-access", "cells.ebs"))
	require.NoError(t, err)
	assert.Contains(t, string(gen), `scenario "RENDER_TARGET with RENDER_TARGET"`)
	// An emitted generated file runs on its own.
	code, _, stderr = ebref(t, nil, "run", filepath.Join(emit, "write-read", "copy.ebs"), "--profile", "discrete")
	assert.Equal(t, 0, code, stderr)

	for _, bad := range [][]string{
		{"hlk", "--shard", "3/2"}, {"hlk", "--shard", "x"}, {"hlk", "--suite", "nope"}, {"hlk", "--profile", "nope"},
		{"hlk", "--run", "("}, {"hlk", "--inject", "nope"}, {"hlk", "extra"}, {"hlk", "merge"}, {"hlk", "merge", "missing.json"},
		{"hlk", "--jobs", "100000"}, {"hlk", "--jobs", "-1"}, {"hlk", "--timeout", "0s"}, {"hlk", "--timeout", "-1s"},
		{"hlk", "--run", "no case has this name"},
	} {
		code, _, stderr := ebref(t, nil, bad...)
		assert.Equal(t, 2, code, "%v: %s", bad, stderr)
		assert.NotEmpty(t, stderr, "%v", bad)
	}
	// A shard beyond the selection's size is empty, not an error: a CI
	// matrix may be wider than what it runs.
	empty := filepath.Join(dir, "empty.json")
	code, _, stderr = ebref(t, nil, "hlk", "--suite", "validation", "--shard", "5000/5000", "--json", empty)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "shard 5000/5000 of the selection's cases is empty")
	er := readReport(t, empty)
	assert.Empty(t, er.Cases)
	assert.Equal(t, "EMPTY", er.Summary.Verdict)
}

// TestHLKRandom: --random N --seed S runs N programs from seed S in the
// suite random; a failing one is shrunk and its path printed, once per
// case; its file holds the shrunk scenario for its profile.
func TestHLKRandom(t *testing.T) {
	code, stdout, stderr := ebref(t, nil, "hlk", "--suite", "random", "--random", "4", "--seed", "77")
	require.Equal(t, 0, code, stderr+stdout)
	assert.Regexp(t, `CONFORMANT: (2[0-9]|30) cases`, stdout) // 4 programs and their negative forms, on 5 profiles

	code, stdout, _ = ebref(t, nil, "hlk", "--suite", "random", "--list", "--random", "2", "--seed", "9")
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "random/seed-9.ebs")
	assert.Contains(t, stdout, "random/seed-10.ebs")
	assert.NotContains(t, stdout, "random/seed-11.ebs")

	dir := t.TempDir()
	code, stdout, stderr = ebref(t, nil, "hlk", "--suite", "random", "--random", "12", "--seed", "1",
		"--profile", "discrete", "--inject", "drop-invalidate", "--shrink-dir", dir)
	require.Equal(t, 1, code, stderr+stdout)
	shrunk := regexp.MustCompile(`shrunk random/(\S+) on discrete: (\S+)`).FindAllStringSubmatch(stdout, -1)
	require.NotEmpty(t, shrunk, stdout)
	assert.LessOrEqual(t, len(shrunk), 3)
	for _, m := range shrunk {
		assert.Equal(t, dir, filepath.Dir(m[2]))
		b, err := os.ReadFile(m[2])
		require.NoError(t, err)
		assert.Contains(t, string(b), "profiles discrete\n")
		// The shrunk file runs as it is, and fails with the fault.
		code, out, _ := ebref(t, nil, "run", m[2], "--inject", "drop-invalidate")
		assert.Equal(t, 1, code, out)
		code, out, _ = ebref(t, nil, "run", m[2])
		assert.Equal(t, 0, code, out)
	}

	for _, bad := range [][]string{{"--random", "-1"}, {"--random", "99999999"}, {"--seed", "x"}} {
		code, _, stderr := ebref(t, nil, append([]string{"hlk"}, bad...)...)
		assert.Equal(t, 2, code, "%v", bad)
		assert.NotEmpty(t, stderr)
	}
}

func TestHLKMutationOnASuite(t *testing.T) {
	code, stdout, stderr := ebref(t, nil, "hlk", "--mutation", "--suite", "hlk,barriers,write-read")
	require.Equal(t, 0, code, stderr+stdout)
	assert.Contains(t, stdout, "fault")
	assert.Contains(t, stdout, "drop-ranged-flush")
	assert.Contains(t, stdout, "every fault is caught")

	// The rule-table suites record barriers and run nothing: no fault
	// changes what they see, and the mutation run says so.
	code, stdout, _ = ebref(t, nil, "hlk", "--mutation", "--suite", "rules/queue-syncs", "--profile", "coherent")
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "NOT CAUGHT")
}

// TestRunTrace: --trace writes Chrome trace-event JSON: a named process per
// case and profile, a named thread per engine and stage, a complete event
// per packet that never overlaps the one before on its thread, and CP
// events that add up to the engine's cycles less its stalls.
func TestRunTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	code, stdout, stderr := ebref(t, nil, "run", smoke, "--profile", "discrete", "--trace", path)
	require.Equal(t, 0, code, stderr)
	var tr struct {
		TraceEvents []struct {
			Name string         `json:"name"`
			Ph   string         `json:"ph"`
			Ts   uint64         `json:"ts"`
			Dur  uint64         `json:"dur"`
			Tid  int            `json:"tid"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &tr))
	threads := map[int]string{}
	last := map[int]uint64{}
	var cp uint64
	var process string
	for _, ev := range tr.TraceEvents {
		switch {
		case ev.Ph == "M" && ev.Name == "process_name":
			process = ev.Args["name"].(string)
		case ev.Ph == "M" && ev.Name == "thread_name":
			threads[ev.Tid] = ev.Args["name"].(string)
		case ev.Ph == "X":
			name, ok := threads[ev.Tid]
			require.True(t, ok, "event %s on an unnamed thread", ev.Name)
			assert.GreaterOrEqual(t, ev.Ts, last[ev.Tid], "%s: %s overlaps the event before it", name, ev.Name)
			last[ev.Tid] = ev.Ts + ev.Dur
			if name == "DIRECT#0 CP" {
				cp += ev.Dur
			}
		}
	}
	assert.Equal(t, "../../hlk/testdata/smoke.ebs on discrete", process)
	assert.Contains(t, threads, 1)
	assert.Equal(t, "DIRECT#0 CP", threads[1])
	assert.Contains(t, slices.Collect(maps.Values(threads)), "DIRECT#0 COLOR")
	m := regexp.MustCompile(`DIRECT#0: (\d+) cycles = .* stalls (\d+);`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	var cycles, stalls uint64
	fmt.Sscan(m[1], &cycles)
	fmt.Sscan(m[2], &stalls)
	assert.Equal(t, cycles-stalls, cp, "the CP's events cover its busy time")

	code, _, stderr = ebref(t, nil, "run", smoke, "--trace", filepath.Join(t.TempDir(), "no", "such", "dir.json"))
	assert.Equal(t, 3, code, "a trace ebref cannot write")
	assert.Contains(t, stderr, "--trace")
}

// TestRunTraceFenceFlows: each fence wait is drawn as a flow from the
// signal that released it, on another engine's track, never before it.
func TestRunTraceFenceFlows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	code, _, stderr := ebref(t, nil, "run", "../../hlk/suites/barriers/queues.ebs", "--profile", "discrete", "--trace", path)
	require.Equal(t, 0, code, stderr)
	var tr struct {
		TraceEvents []struct {
			Name string `json:"name"`
			Ph   string `json:"ph"`
			Ts   uint64 `json:"ts"`
			Pid  int    `json:"pid"`
			Tid  int    `json:"tid"`
			ID   int    `json:"id"`
			Bp   string `json:"bp"`
		} `json:"traceEvents"`
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &tr))
	type end struct {
		ts       uint64
		pid, tid int
	}
	starts := map[int]end{}
	flows := 0
	for _, ev := range tr.TraceEvents {
		switch ev.Ph {
		case "s":
			starts[ev.ID] = end{ev.Ts, ev.Pid, ev.Tid}
		case "f":
			s, ok := starts[ev.ID]
			require.True(t, ok, "flow %d ends before it starts", ev.ID)
			assert.Equal(t, "e", ev.Bp)
			assert.Equal(t, s.pid, ev.Pid)
			assert.NotEqual(t, s.tid, ev.Tid, "%s: a fence orders engines", ev.Name)
			assert.GreaterOrEqual(t, ev.Ts, s.ts, "%s: released before it was signalled", ev.Name)
			assert.Regexp(t, `^fence \d+ = \d+$`, ev.Name)
			flows++
		}
	}
	assert.Equal(t, len(starts), flows)
	assert.NotZero(t, flows)
}

// TestRunTraceIsBounded: past the bound the trace stays valid JSON, says
// in itself how many events it left out, and the command says so too.
func TestRunTraceIsBounded(t *testing.T) {
	defer func(n int) { maxTraceEvents = n }(maxTraceEvents)
	maxTraceEvents = 10
	path := filepath.Join(t.TempDir(), "trace.json")
	code, _, stderr := ebref(t, nil, "run", smoke, "--trace", path)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, "the file holds the first 10 events")
	var tr struct {
		TraceEvents []map[string]any  `json:"traceEvents"`
		OtherData   map[string]string `json:"otherData"`
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &tr))
	assert.Len(t, tr.TraceEvents, 10)
	assert.Contains(t, tr.OtherData["truncated"], "left out after the first 10")
}

// --write-costs records the default run and nothing else: the record it
// writes is the one the package embeds (TestDefaultRunIsConformant keeps
// that current), and a selection is refused before anything runs.
func TestHLKWriteCosts(t *testing.T) {
	for _, args := range [][]string{{"--suite", "cost"}, {"--profile", "discrete"}, {"--random", "5"}, {"--inject", "drop-flush"}, {"--list"}, {"--emit", "x"}} {
		code, _, stderr := ebref(t, nil, append([]string{"hlk", "--write-costs", filepath.Join(t.TempDir(), "c.txt")}, args...)...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, stderr, "--write-costs records the default run; it does not take "+args[0])
	}
	if testing.Short() {
		t.Skip("records the whole default run")
	}
	path := filepath.Join(t.TempDir(), "costs.txt")
	code, stdout, stderr := ebref(t, nil, "hlk", "--write-costs", path)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "recorded the cost of the ")
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	want, err := os.ReadFile("../../hlk/costs/reference.txt")
	require.NoError(t, err)
	assert.True(t, string(got) == string(want), "the record written differs from hlk/costs/reference.txt")

	code, _, stderr = ebref(t, nil, "hlk", "--write-costs", "/dev/null")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "/dev/null is not a regular file")
	code, _, stderr = ebref(t, nil, "hlk", "--write-costs", filepath.Join(t.TempDir(), "no", "such", "dir", "c.txt"))
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, "ebref hlk: --write-costs: ")
}
