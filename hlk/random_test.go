package hlk

import (
	"context"
	"github.com/ebref/ebref/hlk/gen"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A seed is a program: the same text every time, another for another seed.
func TestRandomProgramsAreDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		a, b := gen.GenerateRandom(seed), gen.GenerateRandom(seed)
		assert.Equal(t, a, b, "seed %d", seed)
		assert.NotEqual(t, a.Positive, gen.GenerateRandom(seed+1000).Positive, "seed %d", seed)
		assert.Contains(t, a.Positive, "--seed ")
	}
}

// The generator varies what hand-written suites hold fixed: every form
// shows up within a few hundred seeds.
func TestRandomProgramsVary(t *testing.T) {
	forms := map[string]string{
		"a split begin":                   "-> SPLIT ",
		"a split end":                     "sync SPLIT ->",
		"a global barrier":                " global sync ",
		"a call of several":               "  call\n",
		"the 0088 entry point":            "barrier-0088 ",
		"a 0088 call":                     "call-0088",
		"DISCARD":                         "flags DISCARD",
		"UNDEFINED without DISCARD":       "-> COPY_DEST\n",
		"SyncAfter NONE":                  " -> NONE access",
		"SyncBefore NONE":                 "sync NONE -> ",
		"a subresource index":             "subresources 1",
		"a mip range":                     "subresources mips ",
		"a slice range":                   " slices ",
		"an extended-async list":          "flags ALLOW_EXTENDED_ASYNC",
		"a compute queue":                 "queue QC COMPUTE",
		"a copy queue":                    "queue QP COPY",
		"a fence":                         "\nsignal QD F 1\n",
		"a legacy layout":                 "LEGACY_",
		"a queue-specific layout":         "COMPUTE_QUEUE_",
		"a multisampled texture":          "samples 4",
		"a depth texture":                 "format D32_FLOAT",
		"a 3D texture":                    " 4x4x2 mips ",
		"a stencil plane":                 "format D32_FLOAT_S8X24_UINT",
		"a plane range":                   " planes ",
		"an acceleration-structure build": "  build-as R",
		"an acceleration-structure copy":  "  copy-as R",
		"rays traced":                     "  dispatch-rays as R",
		"postbuild info":                  "  postbuild-info R",
		"a discard":                       "  discard R",
		"a predicate":                     "  predication R",
		"stream output":                   "  draw so R",
		"a shading-rate image":            " shading-rate R",
		"a video decode":                  "  decode in ",
		"a video encode":                  "  encode in ",
		"a buffer range":                  "+2048]",
		"an upload copied to a texture":   "copy-buffer-to-texture R",
		"a resolve":                       "resolve ",
		"indirect arguments":              " args ",
		"several lists in one execution":  "execute QD L1 L2",
	}
	var all strings.Builder
	negatives := 0
	for seed := uint64(1); seed <= 300; seed++ {
		p := gen.GenerateRandom(seed)
		all.WriteString(p.Positive)
		if p.Negative != "" {
			negatives++
		}
	}
	text := all.String()
	for name, s := range forms {
		assert.Contains(t, text, s, "no program has %s", name)
	}
	assert.Greater(t, negatives, 50, "negative forms among 300 programs")
	// An aliasing switch: one call deactivates the resource in use and
	// activates the other, which shares its memory.
	assert.Regexp(t, `(?m)^    (buffer|texture) R\d+ sync [A-Z_|]+ -> NONE access [A-Z_|]+ -> NO_ACCESS.*\n`+
		`    (texture R\d+ sync NONE -> .* layout UNDEFINED -> |buffer R\d+ sync NONE -> )`, text, "no program switches aliased resources")
	assert.Regexp(t, `(?m)^texture R\d+ .* at H 0x0\n(buffer|texture) R\d+ .* at H 0x0$`, text, "no two resources share memory")
}

// A negative form is its positive one with one barrier call (or split
// pair) marked dropped and `expect detected`; restoring the marks gives
// the positive program back.
func TestRandomNegativeFormsDropOneBarrier(t *testing.T) {
	n := 0
	for seed := uint64(1); seed <= 100; seed++ {
		p := gen.GenerateRandom(seed)
		if p.Negative == "" {
			continue
		}
		n++
		lines := strings.Split(strings.TrimRight(p.Negative, "\n"), "\n")
		dropped := 0
		for _, l := range lines {
			if strings.HasPrefix(l, dropMark) {
				dropped++
				assert.Regexp(t, `^#drop:\s+(barrier|barrier-0088|call|call-0088|end|buffer|texture|global) ?`, l)
			}
		}
		assert.Positive(t, dropped, "seed %d", seed)
		assert.True(t, strings.HasPrefix(lines[len(lines)-1], "expect detected"), "seed %d", seed)
		restored := strings.Join(positiveForm(lines), "\n")
		want := strings.Replace(p.Positive, "debug\n", "", 1)
		got := strings.Replace(restored, "debug\n", "", 1)
		got = strings.Replace(got, "one needed barrier left out (the #drop lines); the judge must see a hazard or wrong bytes",
			"its barriers derived from its accesses; it must match the reference with no hazard", 1)
		assert.Equal(t, strings.TrimRight(want, "\n"), got, "seed %d", seed)
	}
	assert.Positive(t, n)
}

// The suite is what `ebref hlk` runs: each program a case named by its
// seed, each negative form another.
func TestRandomSuite(t *testing.T) {
	s, err := RandomSuite(30, 100)
	require.NoError(t, err)
	assert.Equal(t, "random", s.Name)
	names := map[string]bool{}
	for _, c := range s.Cases {
		names[c.Name()] = true
		assert.Contains(t, s.Files, c.File)
	}
	assert.True(t, names["seed-100.ebs"])
	assert.True(t, names["seed-129.ebs"])
	assert.False(t, names["seed-130.ebs"])
	rep, err := Execute(context.Background(), Config{Driver: Reference, Suites: []Suite{s}})
	require.NoError(t, err)
	assert.True(t, rep.Conformant(), "%v", rep.Counts())
}

// Shrinking a case that fails with a fault gives a smaller scenario that
// still fails the same way with it, and passes without it.
func TestShrinkKeepsTheFailure(t *testing.T) {
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	shrunk := 0
	for seed := uint64(1); seed <= 40 && shrunk < 2; seed++ {
		p := gen.GenerateRandom(seed)
		cases, err := scenario.Parse("p.ebs", p.Positive, nil)
		require.NoError(t, err)
		if Run(Reference, cases[0], prof, "drop-invalidate").Status != Fail {
			continue
		}
		out, err := Shrink(context.Background(), Reference, "p.ebs", p.Positive, prof, "drop-invalidate")
		require.NoError(t, err)
		assert.Less(t, strings.Count(out, "\n"), strings.Count(p.Positive, "\n"), "seed %d", seed)
		assert.NotContains(t, out, "#", "comments go")
		c, err := scenario.Parse("shrunk.ebs", out, nil)
		require.NoError(t, err, out)
		assert.Equal(t, Fail, Run(Reference, c[0], prof, "drop-invalidate").Status, out)
		assert.Equal(t, Pass, Run(Reference, c[0], prof, "").Status, out)
		shrunk++
	}
	assert.Equal(t, 2, shrunk, "programs that drop-invalidate fails")
}

// A case that passes does not shrink; nor does a file of several cases.
func TestShrinkRefusesWhatDoesNotFail(t *testing.T) {
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	_, err = Shrink(context.Background(), Reference, "p.ebs", gen.GenerateRandom(1).Positive, prof, "")
	assert.ErrorContains(t, err, "does not fail on discrete")
	s, err := Suites()
	require.NoError(t, err)
	c := Config{Driver: Reference, Suites: s}
	_, err = ShrinkCase(context.Background(), c, CaseResult{Suite: "barriers", Case: "split.ebs: in one list, with independent work between the halves", Profile: "discrete"})
	assert.ErrorContains(t, err, "only a file of one case shrinks")
	_, err = ShrinkCase(context.Background(), c, CaseResult{Suite: "random", Case: "seed-0.ebs", Profile: "discrete"})
	assert.ErrorContains(t, err, "no such case")
}

// A resource bound beside the failing one in the same commands goes with
// its declaration, its writes and its views, leaving the commands.
func TestShrinkRemovesResources(t *testing.T) {
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	text := `scenario "two render targets, one flushed too little"
texture A 64x64 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
texture B 64x64 flags RENDER_TARGET|SHADER_RESOURCE layout RENDER_TARGET
texture OUT 64x64 flags RENDER_TARGET layout RENDER_TARGET
buffer EXTRA 4096 flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  draw rt A B
  barrier texture A sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> SHADER_RESOURCE
  barrier texture B sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout RENDER_TARGET -> SHADER_RESOURCE
  draw ps-srv A B ps-uav EXTRA rt OUT
end
execute Q L
expect reference A B OUT EXTRA
`
	out, err := Shrink(context.Background(), Reference, "p.ebs", text, prof, "drop-flush")
	require.NoError(t, err)
	assert.NotContains(t, out, "EXTRA", "a resource only bound beside others goes:\n%s", out)
	c, err := scenario.Parse("shrunk.ebs", out, nil)
	require.NoError(t, err, out)
	assert.Equal(t, Fail, Run(Reference, c[0], prof, "drop-flush").Status, out)
	assert.Equal(t, Pass, Run(Reference, c[0], prof, "").Status, out)
	t.Log(out)

	// Without the resource pass, line removal alone cannot take EXTRA out
	// of the two commands it shares.
	s := &shrinker{ctx: context.Background(), d: Reference, name: "p.ebs", p: prof, fault: "drop-flush"}
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	cand, ok := s.withoutResource(lines, 4, "EXTRA")
	require.True(t, ok)
	assert.Equal(t, "  draw ps-srv A B rt OUT", cand[9])
	assert.Equal(t, "expect reference A B OUT", cand[12])
}
