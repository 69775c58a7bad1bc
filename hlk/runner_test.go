package hlk

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/ddi"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func defaultSuites(t testing.TB) []Suite {
	t.Helper()
	s, err := Suites()
	require.NoError(t, err)
	return s
}

// The reference driver passes every suite on every profile.
func TestDefaultRunIsConformant(t *testing.T) {
	rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: defaultSuites(t)})
	require.NoError(t, err)
	bad := 0
	for _, c := range rep.Cases {
		if !c.Status.Conformant() {
			if bad < 20 {
				t.Errorf("%s on %s: %s %v", c.Path(), c.Profile, c.Status, c.Messages)
			}
			bad++
		}
	}
	assert.True(t, rep.Conformant())
	assert.Greater(t, len(rep.Cases), 5000)
	counts := rep.Counts()
	assert.Greater(t, counts[Pass], 5000)
	t.Logf("%d cases: %v", len(rep.Cases), counts)
	assert.Contains(t, rep.Environment.CostBound, "reference driver's record")

	// The record is this run's cost exactly: a case that got cheaper, or
	// a new case, is recorded before it lands.
	var b strings.Builder
	require.NoError(t, WriteCostRecord(&b, rep))
	if b.String() != referenceCosts {
		got, err := ParseCostRecord(strings.NewReader(b.String()))
		require.NoError(t, err)
		want, err := ReferenceCosts()
		require.NoError(t, err)
		n := 0
		for k, v := range got.rows {
			if w, ok := want.rows[k]; !ok || !slices.Equal(v, w) {
				if n < 10 {
					t.Errorf("%s on %s: costs %v, recorded %v", k.path, k.profile, v, w)
				}
				n++
			}
		}
		for k := range want.rows {
			if _, ok := got.rows[k]; !ok && n < 10 {
				t.Errorf("%s on %s is recorded but did not run", k.path, k.profile)
				n++
			}
		}
		t.Errorf("hlk/costs/reference.txt is not this run's cost (%d rows differ): go run ./tools/ebref hlk --write-costs hlk/costs/reference.txt, and read its diff", n)
	}
}

// Every fault the driver offers is caught by some case of the
// hand-written and write×read suites (the full set, with the rule tables,
// is `ebref hlk --mutation`).
func TestMutationCatchesEveryFault(t *testing.T) {
	c := Config{Driver: Reference, Suites: defaultSuites(t), Only: []string{"hlk", "barriers", "cost", "write-read"}}
	var last, total, calls int // progress counts every pass, not the first only
	c.Progress = func(done, t int, _ *CaseResult) { last, total = done, t; calls++ }
	base, rows, err := Mutation(context.Background(), c)
	require.NoError(t, err)
	require.True(t, base.Conformant())
	passes := 1 + len(Reference.Faults())
	assert.Equal(t, passes*len(base.Cases), total)
	assert.Equal(t, total, last)
	assert.Equal(t, total, calls)
	require.Len(t, rows, len(Reference.Faults()))
	for _, r := range rows {
		assert.Positive(t, r.Caught, "no case catches %s", r.Fault)
		// No cost bound here: every catch is a safety catch.
		assert.Equal(t, r.Caught, r.Safety, "%s", r.Fault)
	}
	assert.True(t, AllCaught(rows))
	for _, r := range rows {
		assert.Empty(t, r.Fragile(), "%s: fewer than %d cases catch it on these profiles, where it changes the packets", r.Fault, MinCatches)
		changed := false
		for _, p := range r.ByProfile {
			changed = changed || p.Changed
		}
		assert.True(t, changed, "%s changes no packet anywhere", r.Fault)
	}
	var b strings.Builder
	require.NoError(t, WriteMutation(&b, rows))
	assert.Contains(t, b.String(), "every fault is caught by safety, by at least 3 cases")
}

// TestMutationNamesFragileCatches: a fault that changes packets on a
// profile where fewer than MinCatches cases catch it by safety is
// reported thin, however many cases catch it by cost; one only the cost
// record catches is not caught.
func TestMutationNamesFragileCatches(t *testing.T) {
	rows := []MutationRow{{Fault: "drop-x", Caught: 9, Safety: 4, ByProfile: []MutationProfile{
		{Profile: "a", Caught: 3, Safety: 3, Changed: true}, {Profile: "b", Caught: 6, Safety: 1, Changed: true}, {Profile: "c", Caught: 0}}}}
	assert.Equal(t, []string{"b"}, rows[0].Fragile())
	assert.False(t, NoneFragile(rows))
	assert.True(t, AllCaught(rows))
	var b strings.Builder
	require.NoError(t, WriteMutation(&b, rows))
	assert.Contains(t, b.String(), "thin: fewer than 3 cases catch drop-x on b by safety")
	assert.Contains(t, b.String(), "1!")

	costOnly := []MutationRow{{Fault: "drop-y", Caught: 5, Example: "s/c on a", ByProfile: []MutationProfile{{Profile: "a", Caught: 5, Changed: true}}}}
	assert.False(t, AllCaught(costOnly))
	b.Reset()
	require.NoError(t, WriteMutation(&b, costOnly))
	assert.Contains(t, b.String(), "NOT CAUGHT BY SAFETY")
	assert.Contains(t, b.String(), "not caught by safety")
}

func TestPlanFiltersAndShards(t *testing.T) {
	suites := defaultSuites(t)
	all, err := Plan(Config{Driver: Reference, Suites: suites})
	require.NoError(t, err)

	only, err := Plan(Config{Driver: Reference, Suites: suites, Only: []string{"rules"}, Profiles: []string{"discrete"}})
	require.NoError(t, err)
	for _, c := range only {
		assert.True(t, strings.HasPrefix(c.Path, "rules/"), c.Path)
		assert.Equal(t, "discrete", c.Profile)
	}
	assert.Less(t, len(only), len(all))

	re := regexp.MustCompile(`aliasing`)
	ali, err := Plan(Config{Driver: Reference, Suites: suites, Run: re})
	require.NoError(t, err)
	require.NotEmpty(t, ali)
	for _, c := range ali {
		assert.Contains(t, c.Path, "aliasing")
	}

	// The shards partition the run, in order.
	var joined []PlannedCase
	for k := 1; k <= 3; k++ {
		part, err := Plan(Config{Driver: Reference, Suites: suites, Shard: k, Shards: 3})
		require.NoError(t, err)
		joined = append(joined, part...)
	}
	assert.ElementsMatch(t, all, joined)

	_, err = Plan(Config{Driver: Reference, Suites: suites, Shard: 4, Shards: 3})
	assert.ErrorContains(t, err, "shard 4/3")
	_, err = Plan(Config{Driver: Reference, Suites: suites, Only: []string{"nope"}})
	assert.ErrorContains(t, err, `no suite "nope"`)
	_, err = Plan(Config{Driver: Reference, Suites: suites, Profiles: []string{"nope"}})
	assert.Error(t, err)
	_, err = Execute(context.Background(), Config{Driver: Reference, Suites: suites, Inject: "nope"})
	assert.ErrorContains(t, err, `no fault "nope"`)
}

// A run merged from its shards reports what the whole run reports, and
// survives a JSON round trip.
func TestShardsMergeToTheWholeRun(t *testing.T) {
	suites := defaultSuites(t)
	c := Config{Driver: Reference, Suites: suites, Only: []string{"hlk", "validation"}}
	whole, err := Execute(context.Background(), c)
	require.NoError(t, err)
	var parts []*Report
	for k := 1; k <= 2; k++ {
		sc := c
		sc.Shard, sc.Shards = k, 2
		r, err := Execute(context.Background(), sc)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, WriteJSON(&buf, r))
		back, err := ReadJSON(&buf)
		require.NoError(t, err)
		parts = append(parts, back)
	}
	merged, err := Merge(parts...)
	require.NoError(t, err)
	assert.Equal(t, []string{"1/2", "2/2"}, merged.Environment.Shards)
	require.Len(t, merged.Cases, len(whole.Cases))
	key := func(r *Report) map[string]Status {
		m := map[string]Status{}
		for _, c := range r.Cases {
			m[c.Path()+"@"+c.Profile] = c.Status
		}
		return m
	}
	assert.Equal(t, key(whole), key(merged))
	assert.Equal(t, whole.Conformant(), merged.Conformant())

	_, err = Merge(parts[0], parts[0])
	assert.ErrorContains(t, err, "shard 1/2 is both report 0 and report 1")
	_, err = Merge(parts[0])
	assert.EqualError(t, err, "hlk: the run is incomplete: shards 2/2 are missing", "one shard is not a run")
	_, err = Merge(whole)
	assert.ErrorContains(t, err, "is not one shard", "an unsharded report is not a shard")
	for _, change := range []struct {
		what string
		set  func(e *Environment)
	}{
		{"injected fault", func(e *Environment) { e.Inject = "drop-wait" }},
		{"version", func(e *Environment) { e.Version = "other" }},
		{"profiles", func(e *Environment) { e.Profiles = []string{"coherent"} }},
		{"suites", func(e *Environment) { e.Only = []string{"rules"} }},
		{"case filter", func(e *Environment) { e.Run = "x" }},
		{"build", func(e *Environment) { e.Build = "exe-sha256:0000000000000000" }},
		{"Go version", func(e *Environment) { e.Go = "go1.0" }},
		{"random programs", func(e *Environment) { e.Seed = 2 }},
		{"random programs", func(e *Environment) { e.Random = 10 }},
		{"suite digest", func(e *Environment) { e.Suites = "sha256:0" }},
	} {
		other := *parts[1]
		change.set(&other.Environment)
		_, err = Merge(parts[0], &other)
		assert.ErrorContains(t, err, change.what, "reports of two runs do not merge")
	}
	three := *parts[1]
	three.Environment.Shards = []string{"2/3"}
	_, err = Merge(parts[0], &three)
	assert.ErrorContains(t, err, "report 0 of 2 shards")

	// Each shard must hold exactly the cases its selection plans for it
	// (issue 32: a shard cut short, emptied or edited merged CONFORMANT).
	n := len(parts[1].Cases)
	for _, change := range []struct {
		what string
		set  func(r *Report)
	}{
		{"holds 0 cases of the " + fmt.Sprint(n), func(r *Report) { r.Cases = nil }},
		{"records 0 planned cases", func(r *Report) { r.Cases, r.Environment.Planned = nil, 0 }},
		{fmt.Sprintf("holds %d cases of the %d", n/2, n), func(r *Report) { r.Cases = r.Cases[:n/2] }},
		{"holds " + fmt.Sprint(n+1) + " cases", func(r *Report) { r.Cases = append(r.Cases, r.Cases[0]) }},
		{"its selection plans", func(r *Report) { r.Cases[1].Suite = "rules/layout-access" }},
		{"its selection plans", func(r *Report) { r.Cases[0].Profile = "nonexistent" }},
		{"its selection plans", func(r *Report) { r.Cases[0], r.Cases[1] = r.Cases[1], r.Cases[0] }},
	} {
		other := *parts[1]
		other.Cases = slices.Clone(parts[1].Cases)
		change.set(&other)
		_, err = Merge(parts[0], &other)
		assert.ErrorContains(t, err, "report 1 (shard 2/2) ")
		assert.ErrorContains(t, err, change.what)
	}

	_, err = ReadJSON(strings.NewReader(`{"cases":[{"status":"Maybe"}]}`))
	assert.ErrorContains(t, err, `no status "Maybe"`)
	for _, junk := range []string{`{}`, `null`, `{"cases":[]}`, `[]`} {
		_, err = ReadJSON(strings.NewReader(junk))
		assert.Error(t, err, junk)
	}
}

// The JUnit report is well-formed and counts what the run counted.
func TestJUnitReport(t *testing.T) {
	c := Config{Driver: Reference, Suites: defaultSuites(t), Only: []string{"hlk"}, Inject: "drop-flush"}
	rep, err := Execute(context.Background(), c)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, WriteJUnit(&buf, rep))
	var doc junitSuites
	require.NoError(t, xml.Unmarshal(buf.Bytes(), &doc))
	counts := rep.Counts()
	assert.Equal(t, len(rep.Cases), doc.Tests)
	assert.Equal(t, counts[Fail], doc.Failures)
	assert.Equal(t, counts[NotSupported]+counts[Skipped], doc.Skipped)
	assert.Positive(t, doc.Failures, "drop-flush fails some hlk case")
	assert.Len(t, doc.Suites, len(hwmodel.ProfileNames()), "one per profile")
	// Times are seconds to the millisecond, with no float artefacts.
	times := regexp.MustCompile(`time="([^"]*)"`).FindAllStringSubmatch(buf.String(), -1)
	require.NotEmpty(t, times)
	for _, m := range times {
		assert.Regexp(t, `^\d+\.\d{3}$`, m[1])
	}
	// A failure's position is a path from the repository's root.
	assert.Contains(t, buf.String(), "hlk/suites/hlk/")
	assert.NotContains(t, buf.String(), " suites/hlk/")
	var summary strings.Builder
	require.NoError(t, WriteSummary(&summary, rep))
	assert.Contains(t, summary.String(), "NOT CONFORMANT")
	assert.Contains(t, summary.String(), "fault drop-flush injected")
}

// panicky and slow drivers wrap the reference one to show Crash and
// Timeout; counting shows another driver plugs in through the interface.
type wrapped struct {
	Driver
	panicOn string
	sleep   time.Duration
	opened  *atomic.Int64
}

func (w wrapped) Name() string { return "wrapped" }

func (w wrapped) Open(p *hwmodel.Profile, o DeviceOptions) (Device, error) {
	w.opened.Add(1)
	if w.panicOn == p.Name {
		panic("the driver fell over")
	}
	time.Sleep(w.sleep)
	return w.Driver.Open(p, o)
}

func TestStatusesFromAnotherDriver(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
buffer B 4096 flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  dispatch uav B
end
execute Q L
expect reference B
`, nil)
	require.NoError(t, err)
	suites := []Suite{{Name: "t", Cases: sc}}
	var n atomic.Int64
	rep, err := Execute(context.Background(), Config{Suites: suites, Driver: wrapped{Reference, "unified3d", 0, &n}})
	require.NoError(t, err)
	require.Len(t, rep.Cases, len(hwmodel.ProfileNames()))
	assert.Equal(t, int64(len(hwmodel.ProfileNames())), n.Load(), "the runner opened devices through the plugged-in driver")
	assert.Equal(t, "wrapped", rep.Environment.Driver)
	byProfile := map[string]CaseResult{}
	for _, c := range rep.Cases {
		byProfile[c.Profile] = c
	}
	assert.Equal(t, Pass, byProfile["discrete"].Status)
	crash := byProfile["unified3d"]
	assert.Equal(t, Crash, crash.Status)
	assert.Contains(t, crash.Messages[0], "the driver fell over")
	assert.Contains(t, crash.Stack, "runtime/debug.Stack")
	assert.False(t, rep.Conformant())

	rep, err = Execute(context.Background(), Config{Suites: suites, Profiles: []string{"coherent"},
		Driver: wrapped{Reference, "", 200 * time.Millisecond, &n}, Timeout: 20 * time.Millisecond})
	require.NoError(t, err)
	assert.Equal(t, Timeout, rep.Cases[0].Status)
}

func TestSkippedAndNotSupported(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
scenario "only on discrete"
profiles discrete
scenario "needs compression"
require compression
`, nil)
	require.NoError(t, err)
	rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: []Suite{{Name: "t", Cases: sc}}})
	require.NoError(t, err)
	st := map[string]Status{}
	for _, c := range rep.Cases {
		st[c.Case+"@"+c.Profile] = c.Status
	}
	assert.Equal(t, Pass, st["t.ebs: only on discrete@discrete"])
	assert.Equal(t, Skipped, st["t.ebs: only on discrete@coherent"])
	assert.Equal(t, NotSupported, st["t.ebs: needs compression@coherent"])
	assert.Equal(t, Pass, st["t.ebs: needs compression@unified3d"])
	assert.True(t, rep.Conformant(), "Skipped and NotSupported keep a run conformant")
}

// An expectation that does not hold fails the case and says what was
// found instead; an unexpected error or hazard fails it too.
func TestExpectationsThatFail(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
buffer B 4096 flags UNORDERED_ACCESS
buffer C 4096
queue Q DIRECT
list L DIRECT
  dispatch uav B
  copy-buffer C 0 B 0 4096
end
execute Q L
expect bytes B[0+2] = 0102
expect error 1334
expect warning 954
expect hazard missing-flush on C
expect packets in L WAIT == 3
expect cost cycles < 1
`, nil)
	require.NoError(t, err)
	p, _ := hwmodel.LookupProfile("discrete")
	r := Run(Reference, sc[0], p, "")
	assert.Equal(t, Fail, r.Status)
	require.Len(t, r.Expectations, 6)
	for _, e := range r.Expectations {
		assert.False(t, e.OK, e.Text)
		assert.NotEmpty(t, e.Detail)
	}
	assert.Contains(t, r.Expectations[0].Detail, "found")
	assert.Contains(t, r.Expectations[1].Detail, "none")
	assert.Contains(t, r.Expectations[4].Detail, "1", "the copy's implicit WAIT")
	assert.Equal(t, "t.ebs:10:1", r.Expectations[0].Pos.String())
	// The copy reads B with no barrier after the dispatch: a hazard,
	// though not the one expected.
	assert.NotEmpty(t, r.Hazards)

	unexpected, err := scenario.Parse("t.ebs", `
buffer B 4096
list L DIRECT
  barrier buffer B sync NONE -> COPY access COPY_DEST -> COPY_SOURCE
end
`, nil)
	require.NoError(t, err)
	r = Run(Reference, unexpected[0], p, "")
	assert.Equal(t, Fail, r.Status)
	assert.Contains(t, strings.Join(r.Failures, "\n"), "unexpected error")
	assert.Equal(t, ddi.CommandListTypeDirect, r.Lists[0].Type)
}

// TestExpectedMessagesAreCounted: each error or warning line claims one
// message, so two identical lines need two; count N claims every match and
// wants exactly N.
func TestExpectedMessagesAreCounted(t *testing.T) {
	p, _ := hwmodel.LookupProfile("discrete")
	run := func(expect string) Result {
		sc, err := scenario.Parse("t.ebs", `
texture T 16x16 mips 2 flags SHADER_RESOURCE layout COMMON
list L DIRECT
  barrier texture T sync COPY -> COPY access COPY_DEST -> COPY_SOURCE layout COMMON -> COMMON \
      subresources mips 0+1 slices 0+0 planes 0+0
end
`+expect, nil)
		require.NoError(t, err)
		return Run(Reference, sc[0], p, "")
	}
	const w = "expect warning EBREF_SUBRESOURCE_ZERO_COUNT in L\n"
	assert.Equal(t, Pass, run(w+w).Status, "two lines, two warnings")
	r := run(w + w + w)
	assert.Equal(t, Fail, r.Status, "three lines, two warnings")
	assert.Contains(t, r.Expectations[2].Detail, "none unclaimed")
	assert.Equal(t, Pass, run("expect warning EBREF_SUBRESOURCE_ZERO_COUNT in L count 2\n").Status)
	r = run("expect warning EBREF_SUBRESOURCE_ZERO_COUNT count 3\n")
	assert.Equal(t, Fail, r.Status)
	assert.Equal(t, "2 matching", r.Expectations[0].Detail)
	assert.Equal(t, Pass, run("expect warning EBREF_SUBRESOURCE_ZERO_COUNT field Subresources.NumPlanes count 1\n").Status)
}

// BenchmarkDefaultRun runs every suite on every profile (the README's main
// job) and reports cases per second.
func BenchmarkDefaultRun(b *testing.B) {
	suites := defaultSuites(b)
	var cases int
	for b.Loop() {
		rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: suites})
		if err != nil || !rep.Conformant() {
			b.Fatal(err, "not conformant")
		}
		cases = len(rep.Cases)
	}
	b.ReportMetric(float64(cases), "cases")
	b.ReportMetric(float64(cases*b.N)/b.Elapsed().Seconds(), "cases/s")
}

// TestTimeoutStopsTheCase: a case past its time limit is Timeout, and its
// run stops (the machine checks the case's context mid-work) instead of
// running on in the background.
func TestTimeoutStopsTheCase(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
texture T 16384x16384 flags UNORDERED_ACCESS layout UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  clear-uav T 7
  clear-uav T 8
  clear-uav T 9
end
execute Q L
`, nil)
	require.NoError(t, err)
	base := runtime.NumGoroutine()
	rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: []Suite{{Name: "t", Cases: sc}}, Profiles: []string{"coherent"},
		Timeout: 50 * time.Millisecond, Jobs: 1})
	require.NoError(t, err)
	require.Len(t, rep.Cases, 1)
	assert.Equal(t, Timeout, rep.Cases[0].Status)
	// The stopped case's goroutine ends; poll rather than sleep a fixed
	// time (the bound is generous, the usual wait a few milliseconds).
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), base, "the timed-out case still runs")
}

// TestCommandCosts: each command's packets' costs, summed over the
// executions of its list, add up to what the engine spent outside the ends
// of its submissions; a list executed twice costs twice; calls are
// numbered as their MARKERs.
func TestCommandCosts(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
texture RT 64x64 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
texture OUT 64x64 flags RENDER_TARGET layout RENDER_TARGET
queue Q direct
list L direct
  draw rt RT
  barrier texture RT sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> SHADER_RESOURCE
  draw ps-srv RT rt OUT
  barrier texture RT sync PIXEL_SHADING -> RENDER_TARGET access SHADER_RESOURCE -> RENDER_TARGET layout SHADER_RESOURCE -> RENDER_TARGET
end
execute Q L
execute Q L
`, nil)
	require.NoError(t, err)
	p, _ := hwmodel.LookupProfile("discrete")
	r := Run(Reference, sc[0], p, "")
	require.Equal(t, Pass, r.Status, r.Failures)
	require.Len(t, r.Lists, 1)
	l := r.Lists[0]
	require.Len(t, l.Calls, 2)
	assert.Equal(t, []int{2, 4}, []int{l.Calls[0].Ordinal, l.Calls[1].Ordinal}, "calls are numbered among all commands, as their MARKERs")
	for _, ln := range l.Lines {
		if ln.Op == "MARKER" && strings.Contains(ln.Text, `"Barrier #2"`) {
			assert.Equal(t, 2, l.CommandAt(ln.Offset))
			assert.Zero(t, l.CommandAt(ln.Offset+1), "no MARKER starts there")
		}
	}
	var sum hwmodel.Counters
	for _, n := range []int{1, 2, 3, 4} {
		c, ok := l.Costs[n]
		require.True(t, ok, "command %d has a cost", n)
		sum.Add(c)
	}
	assert.Len(t, l.Costs, 4)
	require.Len(t, r.Engines, 1)
	e := r.Engines[0].Counters
	assert.Equal(t, e.Packets, sum.Packets, "every packet of the list is some command's")
	assert.Equal(t, e.IssueCycles+e.WaitCycles+e.CacheCycles+e.CompressionCycles,
		sum.IssueCycles+sum.WaitCycles+sum.CacheCycles+sum.CompressionCycles)
	assert.Equal(t, e.DecompressedBytes, sum.DecompressedBytes)
	assert.Equal(t, uint64(2), l.Costs[2].PacketCount(cmdbuf.OpWait), "two executions, one WAIT each")
	assert.NotZero(t, l.Costs[2].DecompressedBytes, "the generic layout decompresses")

	// The counter samples run up to what the packets cost, in time order.
	ss := r.Engines[0].Samples
	require.NotEmpty(t, ss)
	for i := 1; i < len(ss); i++ {
		a, b := ss[i-1], ss[i]
		assert.True(t, b.Time >= a.Time && b.StallCycles >= a.StallCycles && b.FlushedLines >= a.FlushedLines &&
			b.DecompressedBytes >= a.DecompressedBytes, "%+v then %+v", a, b)
	}
	var lines uint64
	for _, n := range sum.FlushedLines {
		lines += n
	}
	last := ss[len(ss)-1]
	assert.Equal(t, lines, last.FlushedLines)
	assert.Equal(t, e.DecompressedBytes, last.DecompressedBytes)
	assert.Equal(t, sum.StallCycles, last.StallCycles, "the stalls of packets (not of the ends of submissions)")
	assert.LessOrEqual(t, last.Time, e.Cycles)
}

// A call's barriers print twice: by handle, as the DDI passed them, and
// with the resources named as the scenario names them, for a Barrier call
// and for what the runtime made of a ResourceBarrier call.
func TestBarrierCallsNamed(t *testing.T) {
	sc, err := scenario.Parse("t.ebs", `
buffer POOL 4096 flags UNORDERED_ACCESS
buffer OUT 4096 flags UNORDERED_ACCESS state COMMON
queue Q direct
list L direct
  dispatch uav POOL
  barrier buffer POOL sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> SHADER_RESOURCE
  dispatch srv POOL uav OUT
  resource-barriers
    transition OUT UNORDERED_ACCESS -> COPY_SOURCE
  end
  copy-buffer POOL 0 OUT 0 16
end
execute Q L
`, nil)
	require.NoError(t, err)
	p, _ := hwmodel.LookupProfile("discrete")
	r := Run(Reference, sc[0], p, "")
	require.Equal(t, Pass, r.Status, r.Failures)
	require.Len(t, r.Lists, 1)
	calls := r.Lists[0].Calls
	require.Len(t, calls, 2)
	assert.Equal(t, []string{"BUFFER POOL COMPUTE_SHADING->COMPUTE_SHADING UNORDERED_ACCESS->SHADER_RESOURCE"}, calls[0].Named)
	assert.Regexp(t, `^BUFFER 0x[0-9a-f]+ COMPUTE_SHADING`, calls[0].Barriers[0])
	require.Len(t, calls[1].Named, 1)
	assert.Regexp(t, `^BUFFER OUT `, calls[1].Named[0])
	assert.Equal(t, strings.Replace(calls[1].Named[0], "OUT", strings.Fields(calls[1].Barriers[0])[1], 1), calls[1].Barriers[0],
		"the same barrier, named")
}
