package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBench(t *testing.T) {
	out := filepath.Join(t.TempDir(), "bench.json")
	code, stdout, stderr := ebref(t, nil, "bench", "--workload", "mip-chain", "--profile", "coherent", "--json", out)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "not calibrated against any hardware")
	assert.Contains(t, stdout, "coherent (legacy / enhanced / oracle / best)")
	assert.Contains(t, stdout, "\nmip-chain ")
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep struct {
		Rows []struct {
			Workload, Profile, Strategy string
			Cycles                      uint64
		}
	}
	require.NoError(t, json.Unmarshal(raw, &rep))
	require.Len(t, rep.Rows, 4)
	assert.Equal(t, "legacy", rep.Rows[0].Strategy)
	assert.Equal(t, "enhanced", rep.Rows[1].Strategy)
	assert.Equal(t, "oracle", rep.Rows[2].Strategy)
	assert.Equal(t, "best", rep.Rows[3].Strategy)
	assert.Less(t, rep.Rows[1].Cycles, rep.Rows[0].Cycles)
	assert.LessOrEqual(t, rep.Rows[2].Cycles, rep.Rows[1].Cycles)
	assert.LessOrEqual(t, rep.Rows[3].Cycles, rep.Rows[2].Cycles)
}

func TestBenchUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--workload", "nope"}, `no workload "nope" (the workloads: deferred-gbuffer,`},
		{[]string{"--profile", "nope"}, `"nope"`},
		{[]string{"--workload", "execute-indirect", "--strategy", "app-enhanced"}, "execute-indirect has no app-enhanced form"},
		{[]string{"--strategy", "minimal"}, `no strategy "minimal" (strategies: [legacy enhanced oracle best], translator with a translator, [app-legacy app-enhanced] on samples)`},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		code, stdout, stderr := ebref(t, nil, append([]string{"bench"}, c.args...)...)
		assert.Equal(t, 2, code, "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.Contains(t, stderr, "usage: ebref bench", "%v", c.args)
		assert.Empty(t, stdout, "%v", c.args)
	}
	// Outputs ebref cannot write: found before the run, exit 3.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--json", filepath.Join(t.TempDir(), "no", "such", "dir.json")}, "--json: cannot write"},
		{[]string{"--trace", filepath.Join(t.TempDir(), "no", "such", "dir.json")}, "--trace: cannot write"},
		{[]string{"--svg", "/dev/null/charts"}, "--svg: mkdir /dev/null: not a directory"},
	} {
		code, stdout, stderr := ebref(t, nil, append([]string{"bench"}, c.args...)...)
		assert.Equal(t, 3, code, "%v", c.args)
		assert.Contains(t, stderr, c.want, "%v", c.args)
		assert.Empty(t, stdout, "%v", c.args)
	}
}

// The oracle runs on its own, and --emit says what it runs instead of a
// scenario of its own.
func TestBenchOracle(t *testing.T) {
	code, stdout, stderr := ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--profile", "coherent", "--strategy", "oracle")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "coherent (oracle)")
	assert.Contains(t, stdout, "compute-to-pixel  1             4825706")
	// Progress shows in a log (before, bench said nothing for 45 s).
	assert.Contains(t, stderr, "ebref bench: 1/1, 0 failed, ")
	code, _, stderr = ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--profile", "coherent", "--strategy", "oracle", "--quiet")
	require.Equal(t, 0, code)
	assert.Empty(t, stderr, "--quiet")
	code, stdout, stderr = ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--strategy", "oracle", "--emit")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "oracle: the enhanced scenario, its synchronisation replaced")
	assert.NotContains(t, stdout, "\nscenario ")
}

// --barriers prints a record per call after the table; --svg writes a chart
// per profile; --trace writes a trace Perfetto opens: a process per
// workload, strategy and profile, slices per packet and counter tracks.
func TestBenchBarriersAndTrace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.json")
	charts := filepath.Join(t.TempDir(), "charts")
	report := filepath.Join(t.TempDir(), "bench.json")
	code, stdout, stderr := ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--profile", "discrete", "--barriers", "--trace", path,
		"--svg", charts, "--json", report)
	require.Equal(t, 0, code, stderr)
	svg, err := os.ReadFile(filepath.Join(charts, "discrete.svg"))
	require.NoError(t, err)
	assert.Contains(t, string(svg), "<title>compute-to-pixel, oracle: 1.000</title>")
	entries, err := os.ReadDir(charts)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "a chart per profile that ran")
	assert.Contains(t, stdout, "ebref bench --barriers:")
	assert.Contains(t, stdout, "compute-to-pixel on discrete, enhanced: 6 records") // two of them split begins
	// Resources by the workload's names, as --emit writes them, not by handle.
	code, emitted, stderr := ebref(t, nil, "bench", "--emit", "--workload", "compute-to-pixel")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, emitted, "texture AO ")
	assert.Contains(t, stdout, "TEXTURE AO ")
	assert.NotRegexp(t, `(BUFFER|TEXTURE|RANGED) 0x`, stdout)
	raw, err := os.ReadFile(report)
	require.NoError(t, err)
	var rep struct {
		Rows []struct {
			Barriers []struct {
				Barriers []string `json:"barriers"`
			} `json:"barriers"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal(raw, &rep))
	var named []string
	for _, r := range rep.Rows {
		for _, b := range r.Barriers {
			named = append(named, b.Barriers...)
		}
	}
	assert.Contains(t, strings.Join(named, "\n"), "TEXTURE AO ")
	assert.NotRegexp(t, `(BUFFER|TEXTURE|RANGED) 0x`, strings.Join(named, "\n"))
	raw, err = os.ReadFile(path)
	require.NoError(t, err)
	var tr struct {
		TraceEvents []struct {
			Name string         `json:"name"`
			Ph   string         `json:"ph"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(raw, &tr))
	phases, processes, counters := map[string]int{}, map[string]bool{}, map[string]bool{}
	for _, ev := range tr.TraceEvents {
		phases[ev.Ph]++
		if ev.Name == "process_name" {
			processes[ev.Args["name"].(string)] = true
		}
		if ev.Ph == "C" {
			counters[ev.Name] = true
		}
	}
	assert.NotZero(t, phases["X"])
	for _, s := range []string{"legacy", "enhanced", "oracle"} {
		assert.True(t, processes["compute-to-pixel, "+s+" on discrete"], "%v", processes)
	}
	assert.Equal(t, map[string]bool{"stall cycles": true, "flushed lines": true, "decompressed bytes": true}, counters)
	// A chart that cannot be written fails the command after the run.
	blocked := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(blocked, "coherent.svg"), 0o755))
	code, _, stderr = ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--profile", "coherent", "--strategy", "oracle", "--svg", blocked)
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, "--svg: "+filepath.Join(blocked, "coherent.svg")+" is a directory")
	// A trace that cannot be written fails the command after the run.
	code, _, stderr = ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--profile", "coherent", "--strategy", "oracle", "--trace", "/dev/full")
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr, "ebref bench: --trace: write /dev/full: no space left on device")
}

// What --emit prints is a scenario file `ebref run` runs: a case per
// strategy, each passing.
func TestBenchEmitRuns(t *testing.T) {
	code, src, stderr := ebref(t, nil, "bench", "--emit", "--workload", "uav-pingpong")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, 2, strings.Count(src, "\nscenario "), src)
	code, stdout, stderr := ebref(t, []byte(src), "run", "-", "--profile", "discrete")
	require.Equal(t, 0, code, stderr+stdout)
	assert.Contains(t, stdout, "uav-pingpong, legacy on discrete: Pass")
	assert.Contains(t, stdout, "uav-pingpong, enhanced on discrete: Pass")
}
