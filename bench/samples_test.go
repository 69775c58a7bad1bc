package bench

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/hlk"
	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
)

// sampleTable lists the transcribed samples as docs/bench.md carries
// them: where each comes from and what its transcription could not say.
func sampleTable() string {
	var b strings.Builder
	b.WriteString("\nThe samples, transcribed from " + "`" + samplesRepo + "`" + " (MIT); each runs bench's compiled `legacy`, `enhanced` and `oracle` " +
		"from its barrier-free frame and the sample's own barriers as `app-legacy` and, where the sample has an enhanced path, `app-enhanced`:\n\n")
	b.WriteString("| sample | forms | the frame | source | notes |\n|---|---|---|---|---|\n")
	for _, w := range Samples {
		var forms []string
		for _, s := range append(slices.Clone(Strategies), AppStrategies...) {
			if w.Has(s) {
				forms = append(forms, "`"+string(s)+"`")
			}
		}
		notes := w.Sample.Notes
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", w.Name, strings.Join(forms, ", "), w.About,
			strings.TrimPrefix(w.Sample.Source, samplesRepo+" "), notes)
	}
	return b.String()
}

var lineRange = regexp.MustCompile(`\.(cpp|h):\d+-\d+`)

// Every sample cites its source by file and line range, says what its
// transcription leaves out, and has a legacy form.
func TestSamplesCite(t *testing.T) {
	require.NotEmpty(t, Samples)
	names := map[string]bool{}
	for _, w := range All() {
		require.False(t, names[w.Name], "two workloads named %s", w.Name)
		names[w.Name] = true
	}
	for _, w := range Samples {
		s := w.Sample
		require.NotNil(t, s, w.Name)
		assert.True(t, strings.HasPrefix(s.Source, samplesRepo+" "), "%s: %q", w.Name, s.Source)
		assert.Regexp(t, lineRange, s.Source, w.Name)
		assert.NotEmpty(t, s.Notes, w.Name)
		assert.NotEmpty(t, s.Legacy, w.Name)
		assert.NotEmpty(t, w.About, w.Name)
		for _, form := range []string{s.Legacy, s.Enhanced} {
			if form != "" {
				assert.Contains(t, form, "\nexpect reference\n", "%s: a form checks the bytes", w.Name)
			}
		}
	}
}

// work is a form without its barriers and creation states, printed: the
// work it does.
func work(t *testing.T, name, src string) string {
	t.Helper()
	sc, err := barrierFree(name, src)
	require.NoError(t, err, name)
	return formatted(t, sc)
}

// A sample's forms do the same work as its frame, and the frame has no
// barrier: the strategies differ in their barriers only. The frame bench
// compiles keeps the legacy form's positions, so that its errors name the
// form's lines: each of its commands sits on the form's line that writes
// that command.
func TestSampleFormsDoTheSameWork(t *testing.T) {
	for _, w := range Samples {
		cases, err := scenario.Parse(w.Name+".ebs", w.Frame, nil)
		require.NoError(t, err, w.Name)
		for _, st := range cases[0].Steps {
			if l, ok := st.(*scenario.ListStep); ok {
				for _, c := range l.Cmds {
					assert.NotContains(t, []string{"barrier", "resource-barrier"}, c.Op, "%s: line %d", w.Name, c.Line)
				}
			}
		}
		if w.Sample.Enhanced != "" {
			assert.Equal(t, work(t, w.Name, w.Sample.Legacy), work(t, w.Name, w.Sample.Enhanced), w.Name)
		}
		frame, err := frameOf(w)
		require.NoError(t, err, w.Name)
		assert.Empty(t, scenario.Diff(cases[0], frame), "%s: the frame printed is the frame compiled", w.Name)
		lines := strings.Split(w.Sample.Legacy, "\n")
		for _, st := range frame.Steps {
			l, ok := st.(*scenario.ListStep)
			if !ok {
				continue
			}
			for _, c := range l.Cmds {
				if c.Line < 1 || c.Line > len(lines) || strings.Fields(lines[c.Line-1])[0] != c.Op {
					t.Errorf("%s: %s at line %d, not the legacy form's line", w.Name, c.Op, c.Line)
				}
			}
		}
	}
}

// barrierFree drops barrier calls and blocks and creation states and
// layouts, and keeps the form's positions.
func TestBarrierFree(t *testing.T) {
	src := "buffer B 64 in upload state GENERIC_READ\ntexture T 4x4 flags RENDER_TARGET layout RENDER_TARGET\nbuffer C 64 layout UNDEFINED\nqueue Q DIRECT\nlist L DIRECT\n" +
		"  resource-barrier transition T PRESENT -> RENDER_TARGET\n  resource-barriers\n    uav T\n  end\n  call\n    buffer B sync ALL -> ALL\n  end\n" +
		"  barrier texture T sync NONE -> NONE access NO_ACCESS -> NO_ACCESS layout RENDER_TARGET -> RENDER_TARGET\n  barriers\n  draw rt T\nend\nexecute Q L\n"
	sc, err := barrierFree("t", src)
	require.NoError(t, err)
	want := "buffer B 64 in upload\ntexture T 4x4 flags RENDER_TARGET\nbuffer C 64\nqueue Q DIRECT\nlist L DIRECT\n  draw rt T\nend\nexecute Q L\n"
	assert.Equal(t, want, formatted(t, sc))
	assert.Empty(t, scenario.Diff(parseOne(t, want), sc), "the tree is the text without barriers, as parsed")
	assert.Equal(t, 15, sc.Steps[4].(*scenario.ListStep).Cmds[0].Line, "the draw keeps its line")
	if _, err := barrierFree("t", "list L DIRECT\n  nonsense\nend\n"); err == nil {
		t.Error("a form that does not parse: no error")
	}
}

// A declared bug of a sample is found, as declared, on every profile, and
// the report says so loudly; the forms without one are clean.
func TestSampleBugs(t *testing.T) {
	rs := rows(t)
	found := map[string]int{}
	for _, r := range rs {
		if !r.Strategy.app() {
			assert.Empty(t, r.SampleBug, "%s %s %s", r.Workload, r.Profile, r.Strategy)
			continue
		}
		w, err := Lookup(r.Workload)
		require.NoError(t, err)
		if _, declared := w.Sample.Bugs[r.Strategy]; declared {
			if assert.NotEmpty(t, r.SampleBug, "%s %s %s: the declared bug is not found: %v", r.Workload, r.Profile, r.Strategy, r.Failures) {
				found[r.Workload+"/"+string(r.Strategy)]++
			}
			continue
		}
		assert.True(t, r.Clean(), "%s %s %s: %v", r.Workload, r.Profile, r.Strategy, r.Failures)
	}
	for _, w := range Samples {
		for s := range w.Sample.Bugs {
			assert.Equal(t, len(hwmodel.ProfileNames()), found[w.Name+"/"+string(s)], "%s %s", w.Name, s)
		}
	}
	var b strings.Builder
	require.NoError(t, WriteTable(&b, rs))
	out := b.String()
	assert.Contains(t, out, "THE SAMPLES' OWN BUGS")
	assert.NotContains(t, out, "not hazard-free", "a declared sample bug is not a failing run")
	for _, w := range Samples {
		tables := 1 // the samples' table
		if w.Has(Enhanced) {
			tables++ // and the compiled strategies'
		}
		assert.Equal(t, tables*len(hwmodel.ProfileNames()), strings.Count(out, "\n"+w.Name+" "), w.Name)
	}
	// A declared bug does not excuse another failure.
	r := Row{Workload: "nbody-gravity", Strategy: AppLegacy, ReferenceOK: true, Failures: []string{"hazard: read-after-write: ..."}, Hazards: 1}
	w, err := Lookup("nbody-gravity")
	require.NoError(t, err)
	assert.Empty(t, sampleBug(w, AppLegacy, &r))
	assert.True(t, r.Failed())
}

// Bench's compiler writes every sample's frame in every compiled
// strategy.
func TestSamplesCompile(t *testing.T) {
	for _, w := range Samples {
		for _, s := range Strategies {
			_, err := Source(w, s)
			assert.NoError(t, err, "%s %s", w.Name, s)
		}
	}
}

// A sample's forms are input: a mistake in one is an error naming the
// workload, the form and the line, in bounded time; a strategy a sample
// does not have is refused by name.
func TestSampleErrorsNameWorkloadAndLine(t *testing.T) {
	base, err := Lookup("execute-indirect")
	require.NoError(t, err)
	bad := func(f func(string) string) *Workload {
		s := *base.Sample
		s.Legacy = f(s.Legacy)
		return sample(&Workload{Name: "broken", About: base.About, Sample: &s})
	}
	cases := []struct {
		w    *Workload
		want []string
		// frame: the frame, the form's tree without barriers, fails
		// too: in the work, which the frame has, or where the form
		// does not parse, a barrier's mistake too.
		frame bool
	}{
		{bad(func(s string) string {
			return strings.Replace(s, "buffer PROC 24580", "buffer PROC 99999999999999999999999", 1)
		}),
			[]string{"broken (app-legacy): broken.app-legacy.ebs:5:"}, true},
		{bad(func(s string) string {
			return strings.Replace(s, "INDIRECT_ARGUMENT -> COPY_DEST", "INDIRECT_ARGUMENT -> NOT_A_STATE", 1)
		}),
			[]string{"broken (app-legacy): broken.app-legacy.ebs:33:", "NOT_A_STATE"}, true},
		{bad(func(s string) string { return strings.Replace(s, "dispatch srv CB", "dispatch srv NOPE", 1) }),
			[]string{"broken (app-legacy): broken.app-legacy.ebs:17:", "NOPE"}, true},
	}
	for _, c := range cases {
		_, err := Scenario(c.w, AppLegacy)
		require.Error(t, err)
		for _, want := range c.want {
			assert.Contains(t, err.Error(), want)
		}
		// The frame, derived from the same lines, fails at the same line.
		_, err = Source(c.w, Legacy)
		if c.frame {
			require.Error(t, err)
			assert.Contains(t, err.Error(), strings.Replace(c.want[0], "broken (app-legacy): broken.app-legacy.ebs:", "broken.ebs:", 1))
		} else {
			assert.NoError(t, err, "the frame has no barrier")
		}
	}
	_, err = Source(base, AppEnhanced)
	assert.ErrorContains(t, err, "execute-indirect has no app-enhanced form")
	_, err = Run(context.Background(), Config{Workloads: []*Workload{bad(func(s string) string { return s + "\nbogus line\n" })},
		Profiles: []string{"coherent"}, Strategies: []Strategy{AppLegacy}})
	assert.ErrorContains(t, err, "broken (app-legacy): broken.app-legacy.ebs:")
	_, err = ParseStrategy("app-vulkan")
	assert.ErrorContains(t, err, "app-legacy app-enhanced")
}

// The JSON report carries a sample's own forms by strategy name, and the
// bug a form was found with.
func TestSampleJSON(t *testing.T) {
	var b strings.Builder
	r := Row{Workload: "nbody-gravity", Profile: "discrete", Strategy: AppLegacy, ReferenceOK: true,
		Failures: []string{"BARRIER_INTEROP_INVALID_STATE"}, SampleBug: "why"}
	require.NoError(t, WriteJSON(&b, []Row{r}))
	assert.Contains(t, b.String(), `"strategy": "app-legacy"`)
	assert.Contains(t, b.String(), `"sample_bug": "why"`)
}

// BenchmarkSample is the CPU cost of recording and simulating one frame
// of each sample in each of its strategies on each profile
// (go test ./bench -run NONE -bench Sample -benchmem).
func BenchmarkSample(b *testing.B) {
	for _, w := range Samples {
		for _, s := range append(slices.Clone(Strategies), AppStrategies...) {
			if !w.Has(s) {
				continue
			}
			sc, err := Scenario(w, s)
			if err != nil {
				b.Fatal(err)
			}
			_, buggy := w.Sample.Bugs[s]
			for _, p := range hwmodel.Profiles() {
				b.Run(w.Name+"/"+string(s)+"/"+p.Name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if r := hlk.RunContext(context.Background(), driverFor(s, nil), sc, p, ""); r.Status != hlk.Pass && !buggy {
							b.Fatal(r.Failures)
						}
					}
				})
			}
		}
	}
}
