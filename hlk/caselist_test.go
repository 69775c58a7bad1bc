package hlk

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A caselist reads back what Plan lists, exactly, and composes with the
// other selections and with shards.
func TestCaselistSelectsExactly(t *testing.T) {
	suites := defaultSuites(t)
	c := Config{Driver: Reference, Suites: suites, Only: []string{"hlk"}}
	planned, err := Plan(c)
	require.NoError(t, err)
	var buf strings.Builder
	require.NoError(t, WriteCaselist(&buf, planned))
	// CRLF lines, a comment and a blank line read the same.
	text := "# a caselist\r\n\r\n" + strings.ReplaceAll(buf.String(), "\n", "\r\n")
	cl, err := ReadCaselist(strings.NewReader(text), "cl.txt")
	require.NoError(t, err)
	require.Len(t, cl.Cases, len(planned))

	all := Config{Driver: Reference, Suites: suites, Caselist: cl}
	again, err := Plan(all)
	require.NoError(t, err)
	assert.Equal(t, planned, again, "a caselist selects exactly the cases it lists")

	// Names with regex characters select themselves only.
	odd := Config{Driver: Reference, Suites: suites}
	every, err := Plan(odd)
	require.NoError(t, err)
	var bracket []PlannedCase
	for _, p := range every {
		if strings.ContainsAny(p.Path, "[|") && len(bracket) < 3 {
			bracket = append(bracket, p)
		}
	}
	require.NotEmpty(t, bracket, "a case name with [ or |")
	odd.Caselist = &Caselist{Name: "odd"}
	for _, p := range bracket {
		odd.Caselist.Cases = append(odd.Caselist.Cases, CaseRef(p))
	}
	got, err := Plan(odd)
	require.NoError(t, err)
	assert.Equal(t, bracket, got)

	// It composes: --profile and shards cut the list further.
	one := all
	one.Profiles = []string{"discrete"}
	got, err = Plan(one)
	require.NoError(t, err)
	assert.Len(t, got, len(planned)/len(hwmodel.ProfileNames()))
	var joined []PlannedCase
	for k := 1; k <= 4; k++ {
		sh := all
		sh.Shard, sh.Shards = k, 4
		part, err := Plan(sh)
		require.NoError(t, err)
		joined = append(joined, part...)
	}
	assert.ElementsMatch(t, planned, joined)

	for _, bad := range []struct{ text, want string }{
		{"hlk/nope.ebs,discrete\n", "cl.txt:1: no case hlk/nope.ebs in the suites"},
		{planned[0].Path + ",nowhere\n", "cl.txt:1: "},
	} {
		cl, err := ReadCaselist(strings.NewReader(bad.text), "cl.txt")
		require.NoError(t, err)
		_, err = Plan(Config{Driver: Reference, Suites: suites, Caselist: cl})
		assert.ErrorContains(t, err, bad.want)
	}
}

// Malformed caselists and baselines are errors naming the line.
func TestListsRefuseWhatIsMalformed(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"no comma here\n", `cl.txt:1: "no comma here" has 1 comma-separated fields; want 2`},
		{"# c\nnoslash,discrete\n", `cl.txt:2: "noslash": want suite/case first`},
		{"a/b,discrete\n\na/b,discrete\n", "cl.txt:3: a/b on discrete is line 1 too"},
		{"a/b,\n", "field 2 is empty"},
		{"", "cl.txt: no case in the list"},
		{strings.Repeat("x", MaxListBytes+1), "more than 16777216 bytes"},
	} {
		_, err := ReadCaselist(strings.NewReader(c.text), "cl.txt")
		assert.ErrorContains(t, err, c.want, c.text[:min(len(c.text), 40)])
	}
	for _, c := range []struct{ text, want string }{
		{"a/b,discrete\n", "b.txt:1: \"a/b,discrete\" has 2 comma-separated fields; want 3"},
		{"a/b,discrete,Pass\n", "status Pass: a baseline lists the cases that do not pass"},
		{"a/b,discrete,Broken\n", `no status "Broken"`},
		{"a/b, c,discrete,Fail\na/b, c,discrete,Crash\n", "b.txt:2: a/b, c on discrete is line 1 too"},
	} {
		_, err := ReadBaseline(strings.NewReader(c.text), "b.txt")
		assert.ErrorContains(t, err, c.want, c.text)
	}
	_, err := ReadFlakes(strings.NewReader("ok\n(unclosed\n"), "f.txt")
	assert.ErrorContains(t, err, "f.txt:2: error parsing regexp")
}

// A baseline passes a run whose failures it lists, fails it on one it
// does not list (or lists with another status), and reports a case it
// lists that now passes.
func TestBaselineJudgesNewFailuresOnly(t *testing.T) {
	r := &Report{Cases: []CaseResult{
		{Suite: "s", Case: "expected, with a comma", Profile: "p", Status: Fail},
		{Suite: "s", Case: "new", Profile: "p", Status: Fail},
		{Suite: "s", Case: "differs", Profile: "p", Status: Crash},
		{Suite: "s", Case: "fixed", Profile: "p", Status: Pass},
		{Suite: "s", Case: "fine", Profile: "p", Status: Pass},
	}}
	b, err := ReadBaseline(strings.NewReader("s/expected, with a comma,p,Fail\ns/differs,p,Fail\ns/fixed,p,Timeout\ns/gone,p,Fail\ns/other-shard,p,Fail\n"), "b.txt")
	require.NoError(t, err)
	known := map[CaseRef]bool{}
	for _, c := range r.Cases {
		known[CaseRef{c.Path(), c.Profile}] = true
	}
	known[CaseRef{"s/other-shard", "p"}] = true
	o := b.Judge(r, known, false)
	assert.Equal(t, 1, o.Expected)
	assert.Equal(t, []CaseRef{{"s/new", "p"}, {"s/differs", "p"}}, o.New)
	assert.Equal(t, []CaseRef{{"s/fixed", "p"}}, o.Fixed)
	assert.Equal(t, []string{"b.txt:4: s/gone on p is no case of this run's suites and profiles"}, o.Unknown)
	assert.False(t, o.Pass)

	r.Cases = r.Cases[3:] // only the fixed one and a pass
	o = b.Judge(r, known, false)
	assert.True(t, o.Pass, "an unexpected pass alone passes")
	o = b.Judge(r, known, true)
	assert.False(t, o.Pass, "unless unexpected passes fail the run")

	var buf strings.Builder
	r.Cases = []CaseResult{{Suite: "s", Case: "b", Profile: "p", Status: Fail}, {Suite: "s", Case: "a", Profile: "p", Status: Timeout}, {Suite: "s", Case: "c", Profile: "p", Status: Pass}}
	r.Environment.Build, r.Environment.Profiles = "exe-sha256:mine", []string{"p"}
	for _, c := range r.Cases {
		known[CaseRef{c.Path(), c.Profile}] = true
	}
	require.NoError(t, WriteBaseline(&buf, r))
	back, err := ReadBaseline(strings.NewReader(buf.String()), "w.txt")
	require.NoError(t, err)
	assert.True(t, back.Judge(r, known, true).Pass, "a run passes the baseline it wrote")
	assert.Empty(t, back.Judge(r, known, true).Unknown, "its own build and profiles")
	assert.Contains(t, buf.String(), "s/a,p,Timeout\ns/b,p,Fail\n")
	// A baseline of another build or other profiles is said so, as a
	// warning: the run still judges by it.
	other := *r
	other.Environment.Build, other.Environment.Profiles = "exe-sha256:other", []string{"q"}
	o = back.Judge(&other, known, true)
	assert.True(t, o.Pass)
	require.Len(t, o.Unknown, 2)
	assert.Equal(t, "w.txt was written by build exe-sha256:mine; this run is build exe-sha256:other: its cases may have changed since", o.Unknown[0])
	assert.Equal(t, "w.txt was written on profiles p; this run is on q", o.Unknown[1])
}

// flakyDriver fails to open a device the first time, then is the
// reference.
type flakyDriver struct {
	Driver
	opens atomic.Int32
}

func (f *flakyDriver) Open(p *hwmodel.Profile, o DeviceOptions) (Device, error) {
	if f.opens.Add(1) == 1 {
		return nil, errors.New("a flake")
	}
	return f.Driver.Open(p, o)
}

// A known flake that fails is run once more, and the second run counts,
// with a note; a failure that is no known flake is not retried.
func TestFlakesAreRetriedOnce(t *testing.T) {
	suites := defaultSuites(t)
	c := Config{Suites: suites, Only: []string{"hlk"}, Profiles: []string{"discrete"}, Jobs: 1,
		Run: regexp.MustCompile(`aliasing.ebs: a buffer deactivated, a render target activated with DISCARD$`)}
	c.Driver = &flakyDriver{Driver: Reference}
	rep, err := Execute(context.Background(), c)
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	assert.NotEqual(t, Pass, rep.Cases[0].Status, "not a known flake: its failure counts")

	c.Driver = &flakyDriver{Driver: Reference}
	c.Flakes = []*regexp.Regexp{regexp.MustCompile(`aliasing`)}
	rep, err = Execute(context.Background(), c)
	require.NoError(t, err)
	assert.Equal(t, Pass, rep.Cases[0].Status)
	require.Len(t, rep.Cases[0].Notes, 1)
	assert.Contains(t, rep.Cases[0].Notes[0], "flaky: retried as a known flake; the first run was")
	assert.Equal(t, []string{"aliasing"}, rep.Environment.Flakes)
}
