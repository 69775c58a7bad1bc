package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/internal/dditrace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenWriter fails every write, as a closed pipe does.
type brokenWriter struct{}

func (brokenWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestExitStatuses runs each command on each cause of each exit status of
// the one table every command keeps (main.go, README): 0 done, 1 the work
// found a failure, 2 usage or input error, 3 ebref could not finish.
func TestExitStatuses(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	smoke := "../../hlk/testdata/smoke.ebs"
	failing := write("failing.ebs", "buffer B 4096\nexpect bytes B[0+1] = 42\n")
	broken := write("broken.ebs", "buffer B\n")
	records := string(ddi.AppendEncodedBarriers(nil, sample()[:2]))
	badPackets := write("bad.bin", "\xff\xff\xff\xff")
	noDir := filepath.Join(dir, "no", "such", "dir", "out.json")
	one := []string{"--suite", "hlk", "--profile", "discrete", "--run", "aliasing.ebs: a buffer deactivated, a render target activated with DISCARD$", "--quiet"}
	okReport, badReport := filepath.Join(dir, "ok.json"), filepath.Join(dir, "bad.json")
	code, _, stderr := ebref(t, nil, append([]string{"hlk", "--json", okReport, "--shard", "1/1"}, one...)...)
	require.Equal(t, 0, code, stderr)
	code, _, _ = ebref(t, nil, append([]string{"hlk", "--json", badReport, "--shard", "1/1", "--inject", "drop-wait"}, one...)...)
	require.Equal(t, 1, code)

	for _, c := range []struct {
		want  int
		stdin string
		args  []string
	}{
		{0, "", []string{"rules"}},
		{2, "", []string{"rules", "--nope"}},
		{0, "", []string{"caps"}},
		{2, "", []string{"caps", "--profile", "nope"}},
		{0, records, []string{"decode", "-"}},
		{2, records[:80], []string{"decode", "-"}},
		{2, "", []string{"decode", filepath.Join(dir, "absent")}},
		{1, "", []string{"disasm", badPackets}},
		{2, "", []string{"disasm", filepath.Join(dir, "absent")}},
		{0, "", []string{"run", smoke, "--profile", "discrete"}},
		{1, "", []string{"run", failing, "--profile", "discrete"}},
		{2, "", []string{"run", broken}},
		{3, "", []string{"run", smoke, "--trace", noDir}},
		{2, "", []string{"run", smoke, "--trace", smoke}},
		{0, "", append([]string{"hlk"}, one...)},
		{1, "", append([]string{"hlk", "--inject", "drop-wait"}, one...)},
		{2, "", []string{"hlk", "--shard", "0/1"}},
		{2, "", []string{"hlk", "--caselist", broken}},
		{3, "", append([]string{"hlk", "--json", noDir}, one...)},
		{3, "", append([]string{"hlk", "--translator", filepath.Join(dir, "no-such-translator")}, one...)},
		{0, "", []string{"hlk", "merge", okReport}},
		{1, "", []string{"hlk", "merge", badReport}},
		{2, "", []string{"hlk", "merge", broken}},
		{0, "", []string{"bench", "--workload", "compute-to-pixel", "--profile", "coherent", "--strategy", "oracle", "--quiet"}},
		{2, "", []string{"bench", "--workload", "nope"}},
		{3, "", []string{"bench", "--workload", "compute-to-pixel", "--profile", "coherent", "--strategy", "oracle", "--quiet", "--json", noDir}},
		{2, "", []string{"translator"}},
		{2, "", []string{"translator", "replay", filepath.Join(dir, "absent"), "--", "true"}},
		{2, "", []string{"trace"}},
		{2, "", []string{"nope"}},
	} {
		code, stdout, stderr := ebref(t, []byte(c.stdin), c.args...)
		assert.Equal(t, c.want, code, "%v: %s", c.args, stderr)
		switch c.want {
		case 1:
			assert.NotEmpty(t, stdout+stderr, "%v says what failed", c.args)
		case 2, 3:
			assert.NotEmpty(t, stderr, "%v says why", c.args)
		}
	}
	// Standard output that cannot be written: 3, for every command that
	// writes it.
	var errb bytes.Buffer
	code = run(&env{nil, brokenWriter{}, &errb}, []string{"rules"})
	assert.Equal(t, 3, code, errb.String())
	assert.Contains(t, errb.String(), "writing the output: broken pipe")
	// No privilege to trace: 3.
	if dditrace.Check() != nil {
		code, _, stderr := ebref(t, nil, "trace", "--pid", "1")
		assert.Equal(t, 3, code, stderr)
	}
	// Every --help ends with the table.
	for _, cmd := range commands {
		code, stdout, _ := ebref(t, nil, cmd.name, "--help")
		assert.Equal(t, 0, code, cmd.name)
		assert.Contains(t, stdout, exitTable, cmd.name)
	}
}

// One way of speaking: ebref help CMD is CMD --help; --profile takes a
// list on every command that takes it; run ends with a summary line.
func TestOneWayOfSpeaking(t *testing.T) {
	code, stdout, _ := ebref(t, nil, "help", "run")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "usage: ebref run FILE.ebs")
	code, stdout, _ = ebref(t, nil, "help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, exitTable)

	smoke := "../../hlk/testdata/smoke.ebs"
	code, stdout, stderr := ebref(t, nil, "run", smoke, "--profile", "coherent,discrete")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasSuffix(stdout, "\n2 case runs: 2 pass, 0 fail (coherent 1 pass, 0 fail; discrete 1 pass, 0 fail)\n"), stdout[max(0, len(stdout)-200):])
	code, stdout, _ = ebref(t, nil, "caps", "--profile", "coherent,unified3d")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "Profile coherent:")
	assert.Contains(t, stdout, "Profile unified3d:")
	code, stdout, stderr = ebref(t, nil, "bench", "--workload", "compute-to-pixel", "--profile", "coherent,discrete", "--strategy", "oracle", "--quiet")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "coherent (oracle)")
	assert.Contains(t, stdout, "discrete (oracle)")
	for _, cmd := range []string{"run", "hlk", "bench", "caps"} {
		args := []string{cmd, "--profile", "discrete,discrete"}
		if cmd == "run" {
			args = append(args, smoke)
		}
		code, _, stderr := ebref(t, nil, args...)
		assert.Equal(t, 2, code, cmd)
		assert.Contains(t, stderr, "--profile: discrete is named twice", cmd)
	}
}

// Every command's synopsis (the text before its description) names every
// flag it takes; hlk, whose flags are many, says [flags] and lists them.
func TestSynopsesAreComplete(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)
	for _, cmd := range append(slices.Clone(commands), command{name: "hlk merge"}) {
		args := append(strings.Fields(cmd.name), "--help")
		code, stdout, _ := ebref(t, nil, args...)
		require.Equal(t, 0, code, cmd.name)
		synopsis, _, _ := strings.Cut(stdout, "\n\n")
		flags := flagLine.FindAllStringSubmatch(stdout, -1)
		if cmd.name == "hlk" {
			assert.Contains(t, synopsis, "[flags]")
			assert.NotEmpty(t, flags)
			continue
		}
		for _, f := range flags {
			assert.Contains(t, synopsis, "--"+f[1], "ebref %s's synopsis lacks --%s", cmd.name, f[1])
		}
	}
}
