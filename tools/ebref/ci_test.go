package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Each CI system's variables map to K/N; contradictions are errors.
func TestShardFromEnvironment(t *testing.T) {
	for _, c := range []struct {
		env         map[string]string
		count, k, n int
		said, err   string
	}{
		{env: nil},
		{env: map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "4"}, k: 1, n: 4, said: "shard 1/4 from Bazel"},
		{env: map[string]string{"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "4"}, k: 4, n: 4, said: "from GitLab CI"},
		{env: map[string]string{"CI_NODE_TOTAL": "1"}}, // a GitLab job without parallel
		{env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, count: 3, k: 3, n: 3, said: "a Kubernetes Indexed Job"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "2", "EBREF_SHARD_COUNT": "5"}, k: 3, n: 5},
		{env: map[string]string{"EBREF_SHARD_COUNT": "5"}}, // a count alone is no shard
		{env: map[string]string{"JOB_COMPLETION_INDEX": "2"}, err: "--shard-count or EBREF_SHARD_COUNT is missing"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "2", "EBREF_SHARD_COUNT": "5"}, count: 4, err: "--shard-count 4 and EBREF_SHARD_COUNT=5 disagree"},
		{env: map[string]string{"TEST_SHARD_INDEX": "4", "TEST_TOTAL_SHARDS": "4"}, err: "not a shard of Bazel (the index is 0-based, below the total)"},
		{env: map[string]string{"CI_NODE_INDEX": "0", "CI_NODE_TOTAL": "4"}, err: "the index is 1-based"},
		{env: map[string]string{"TEST_SHARD_INDEX": "x", "TEST_TOTAL_SHARDS": "4"}, err: "not a shard"},
		{env: map[string]string{"TEST_SHARD_INDEX": "1"}, err: "TEST_TOTAL_SHARDS is missing"},
		{env: map[string]string{"TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "2", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"},
			err: "the environment names shards of two CI systems"},
	} {
		k, n, said, err := shardFromEnv(envOf(c.env), c.count)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, "%v", c.env)
			continue
		}
		require.NoError(t, err, "%v", c.env)
		assert.Equal(t, [2]int{c.k, c.n}, [2]int{k, n}, "%v", c.env)
		assert.Contains(t, said, c.said, "%v", c.env)
	}
	status := filepath.Join(t.TempDir(), "status")
	require.NoError(t, touchShardStatus(envOf(map[string]string{"TEST_SHARD_STATUS_FILE": status})))
	_, err := os.Stat(status)
	assert.NoError(t, err, "Bazel's status file is touched")
}

// A matrix wider than the selection: the empty shards write empty reports
// and exit 0, and merge joins them into the whole run; the run's caselist
// reads back; a run gates on its baseline.
func TestCIRunsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	const n = 3
	sel := []string{"hlk", "--suite", "hlk", "--profile", "discrete", "--run", "aliasing.ebs: a buffer deactivated, a render target activated with DISCARD$", "--quiet"}
	var parts []string
	for k := 0; k < n; k++ {
		t.Setenv("TEST_SHARD_INDEX", string(rune('0'+k)))
		t.Setenv("TEST_TOTAL_SHARDS", "3")
		p := filepath.Join(dir, "r"+string(rune('0'+k))+".json")
		code, _, stderr := ebref(t, nil, append(sel, "--json", p)...)
		assert.Equal(t, 0, code, stderr)
		assert.Contains(t, stderr, "shard "+string(rune('1'+k))+"/3 from Bazel")
		parts = append(parts, p)
	}
	os.Unsetenv("TEST_SHARD_INDEX")
	os.Unsetenv("TEST_TOTAL_SHARDS")
	code, stdout, stderr := ebref(t, nil, append([]string{"hlk", "merge"}, parts...)...)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "CONFORMANT: 1 cases")

	code, list, stderr := ebref(t, nil, "hlk", "--suite", "validation", "--list")
	require.Equal(t, 0, code, stderr)
	cl := filepath.Join(dir, "cl.txt")
	require.NoError(t, os.WriteFile(cl, []byte(list), 0o644))
	code, again, _ := ebref(t, nil, "hlk", "--caselist", cl, "--list")
	require.Equal(t, 0, code)
	assert.Equal(t, list, again, "--list reads back through --caselist")

	// A baseline of a faulty run passes that run and fails a worse one.
	base := filepath.Join(dir, "base.txt")
	report := filepath.Join(dir, "f.json")
	code, _, stderr = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete", "--inject", "drop-flush", "--quiet", "--json", report, "--write-baseline", base)
	require.Equal(t, 1, code, stderr)
	code, stdout, stderr = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete", "--inject", "drop-flush", "--quiet", "--baseline", base)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "the run PASSES its baseline")
	code, stdout, _ = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete", "--inject", "drop-wait", "--quiet", "--baseline", base)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout, "new failures (not in the baseline)")
	code, stdout, _ = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete", "--quiet", "--baseline", base)
	assert.Equal(t, 0, code, "the fixed cases alone pass")
	assert.Contains(t, stdout, "unexpected passes")
	code, _, _ = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete", "--quiet", "--baseline", base, "--fail-on-unexpected-pass")
	assert.Equal(t, 1, code)

	// --rerun-failed runs exactly the failures.
	code, stdout, stderr = ebref(t, nil, "hlk", "--rerun-failed", report, "--inject", "drop-flush", "--quiet")
	assert.Equal(t, 1, code, stderr)
	rep := readReport(t, report)
	fails := rep.Counts()[hlk.Fail]
	assert.Contains(t, stdout, "NOT CONFORMANT: "+itoa(fails)+" cases: 0 pass, "+itoa(fails)+" fail")

	// Progress: without a terminal, a line now and then, and the last.
	// The count is the selection's, as --list gives it: the suite grows.
	code, stdout, _ = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete", "--list")
	require.Equal(t, 0, code)
	listed := itoa(strings.Count(stdout, "\n"))
	require.NotEqual(t, "0", listed)
	code, _, stderr = ebref(t, nil, "hlk", "--suite", "hlk", "--profile", "discrete")
	assert.Equal(t, 0, code)
	assert.Contains(t, stderr, "ebref hlk: "+listed+"/"+listed+", 0 failed, ")
	assert.True(t, strings.HasPrefix(stderr, "ebref hlk: 1/"+listed+", "), stderr)
}

func itoa(n int) string { return strconv.Itoa(n) }

func readReport(t *testing.T, p string) *hlk.Report {
	t.Helper()
	f, err := os.Open(p)
	require.NoError(t, err)
	defer f.Close()
	r, err := hlk.ReadJSON(f)
	require.NoError(t, err)
	return r
}
