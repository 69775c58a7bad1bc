package hlk

import (
	"context"
	"github.com/ebref/ebref/hlk/gen"
	"regexp"
	"strings"
	"testing"

	"github.com/ebref/ebref/hlk/scenario"
	"github.com/ebref/ebref/hwmodel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A seed is a shape program: the same text every time, another for
// another seed.
func TestShapeProgramsAreDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		p, n, d := gen.GenerateShapes(seed)
		p2, n2, d2 := gen.GenerateShapes(seed)
		assert.Equal(t, []string{p, n, d}, []string{p2, n2, d2}, "seed %d", seed)
		other, _, _ := gen.GenerateShapes(seed + 1000)
		assert.NotEqual(t, p, other, "seed %d", seed)
	}
}

// Every shape issue 33 names shows up within a few hundred seeds, spread
// over lists, submissions and queues.
func TestShapeProgramsBuildTheMissingShapes(t *testing.T) {
	forms := map[string]*regexp.Regexp{
		"buffers placed side by side":                      regexp.MustCompile(`(?m)^buffer T\d+_0 65536 .* at H 0x(\w+)\nbuffer T\d+_1 65536 .* at H `),
		"work at a buffer's end, next to its neighbour":    regexp.MustCompile(`\[61440\+4096\]`),
		"a 0088 ranged barrier over a window":              regexp.MustCompile(`ranged T\d+_\d .* range 61440\+4096`),
		"one call over touching buffers, descending":       regexp.MustCompile(`(?m)^\s+buffer (T\d+)_2 sync .*\n\s+buffer (T\d+)_1 sync .*\n\s+buffer (T\d+)_0 sync `),
		"a 0088 call over touching buffers, descending":    regexp.MustCompile(`(?m)^\s+ranged (T\d+)_1 sync .*\n\s+ranged (T\d+)_0 sync `),
		"an atomic copy right after a write of its source": regexp.MustCompile(`(?m)^\s+(dispatch uav|draw ps-uav|clear-uav) (AS\d+).*\n\s+atomic-copy AD\d+ \d+ AS\d+ \d+`),
		"a 64-bit atomic copy":                             regexp.MustCompile(`atomic-copy AD\d+ \d+ AS\d+ \d+ 64`),
		"COMMON before, on a buffer":                       regexp.MustCompile(`barrier buffer CB\d+ sync \S+ -> \S+ access COMMON -> `),
		"COMMON after, on a buffer":                        regexp.MustCompile(`barrier buffer CB\d+ sync \S+ -> \S+ access \S+ -> COMMON\n`),
		"COMMON before, on a texture":                      regexp.MustCompile(`barrier texture CT\d+ .* access COMMON -> \S+ layout (RENDER_TARGET|UNORDERED_ACCESS) -> `),
		"COMMON after, on a texture":                       regexp.MustCompile(`barrier texture CT\d+ .* access \S+ -> COMMON layout `),
		"COMMON on a simultaneous-access texture":          regexp.MustCompile(`barrier texture CS\d+ .* access (COMMON -> \S+|\S+ -> COMMON) layout COMMON -> COMMON`),
		"work in the gaps of a selection":                  regexp.MustCompile(`(?m)dispatch uav (GT\d+)@1 GT\d+@3.*\n\s+barrier texture GT\d+ .* subresources mips 0\+1`),
		"a synchronous buffer copy, then compute":          regexp.MustCompile(`(?m)^  copy-buffer SB\d+ .*\n  barrier buffer SB\d+ sync COPY -> COMPUTE_SHADING`),
		"a footprint copy, then compute":                   regexp.MustCompile(`copy-buffer-to-texture ST\d+@`),
		"a discard, then compute":                          regexp.MustCompile(`(?m)discard SD\d+\n(.*\n)?\s+barrier texture SD\d+ sync RENDER_TARGET -> COMPUTE_SHADING`),
		"a resolve, then compute":                          regexp.MustCompile(`barrier texture SR\d+ sync RESOLVE -> COMPUTE_SHADING`),
		"a discard of every subresource, then a copy":      regexp.MustCompile(`(?m)discard (SW\d+)\n(\s+\S.*\n)*?\s+copy-buffer-to-texture SW\d+@[12] UP`),
		"two resolves into one subresource, no barrier":    regexp.MustCompile(`(?m)^\s+resolve (RD\d+)@0 RM\d+@0\n(\s+\S.*\n)*?\s+resolve RD\d+@0 RN\d+@0`),
		"two asynchronous resolves with a barrier between": regexp.MustCompile(`(?m)barrier texture RD\d+ sync RESOLVE -> RESOLVE .*\n\s+resolve RD\d+@0 RN`),
		"an extended-async list":                           regexp.MustCompile(`flags ALLOW_EXTENDED_ASYNC`),
		"a compute queue":                                  regexp.MustCompile(`queue QC COMPUTE`),
		"a copy queue":                                     regexp.MustCompile(`queue QP COPY`),
		"a fence":                                          regexp.MustCompile(`signal Q. F 1\nwait Q. F 1`),
		"several lists in one submission":                  regexp.MustCompile(`execute QD L\d+ L\d+`),
		"several submissions":                              regexp.MustCompile(`(?s)execute .*execute `),
	}
	var all, destroys strings.Builder
	negatives := 0
	for seed := uint64(1); seed <= 300; seed++ {
		p, n, d := gen.GenerateShapes(seed)
		all.WriteString(p)
		if n != "" {
			negatives++
			assert.Contains(t, n, "  #drop: ", "seed %d", seed)
			assert.True(t, strings.HasSuffix(n, "expect detected\n"), "seed %d", seed)
		}
		destroys.WriteString(d)
	}
	for name, re := range forms {
		assert.Regexp(t, re, all.String(), "no shape program has %s", name)
	}
	assert.Greater(t, negatives, 100, "negative forms among 300 programs")
	assert.Contains(t, destroys.String(), "destroy B1\nexpect error OBJECT_DELETED_WHILE_STILL_IN_USE")
	assert.Contains(t, destroys.String(), "queue QC COMPUTE")
}

// The shape programs are valid and their negative forms are seen, on
// every profile: the positive ones match the reference with no hazard,
// no negative one is masked, and placed buffers in use are refused.
func TestShapeProgramsPassAndTheirNegativesAreSeen(t *testing.T) {
	for seed := uint64(1); seed <= 24; seed++ {
		p, n, d := gen.GenerateShapes(seed)
		for i, text := range []string{p, n, d} {
			if text == "" {
				continue
			}
			cases, err := scenario.Parse("shape.ebs", text, nil)
			require.NoError(t, err, "seed %d form %d:\n%s", seed, i, text)
			require.Len(t, cases, 1)
			for _, prof := range []string{"discrete", "coherent"} {
				p, err := hwmodel.LookupProfile(prof)
				require.NoError(t, err)
				r := Run(Reference, cases[0], p, "")
				assert.Equal(t, Pass, r.Status, "seed %d form %d on %s: %v\n%s", seed, i, prof, r.Failures, text)
				for _, note := range r.Notes {
					assert.NotContains(t, note, NoteMasked, "seed %d form %d on %s", seed, i, prof)
					if i < 2 {
						assert.NotContains(t, note, NoteInvalid, "seed %d form %d on %s", seed, i, prof)
					}
				}
			}
		}
	}
}

// A shape program that a fault breaks shrinks to a smaller one that still
// fails with it.
func TestShapeProgramsShrink(t *testing.T) {
	prof, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	for seed := uint64(1); seed <= 40; seed++ {
		p, _, _ := gen.GenerateShapes(seed)
		cases, err := scenario.Parse("p.ebs", p, nil)
		require.NoError(t, err)
		if Run(Reference, cases[0], prof, "drop-wait").Status != Fail {
			continue
		}
		out, err := Shrink(context.Background(), Reference, "p.ebs", p, prof, "drop-wait")
		require.NoError(t, err)
		assert.Less(t, strings.Count(out, "\n"), strings.Count(p, "\n"), "seed %d", seed)
		c, err := scenario.Parse("shrunk.ebs", out, nil)
		require.NoError(t, err, out)
		assert.Equal(t, Fail, Run(Reference, c[0], prof, "drop-wait").Status, out)
		return
	}
	t.Fatal("no shape program of seeds 1-40 fails with drop-wait on discrete")
}

// The suite random holds a shape program for every eighth random program.
func TestRandomSuiteHoldsShapes(t *testing.T) {
	s, err := RandomSuite(24, 100)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, c := range s.Cases {
		names[c.Name()] = true
	}
	assert.True(t, names["shapes-100.ebs"])
	assert.True(t, names["shapes-102.ebs"])
	assert.False(t, names["shapes-103.ebs"])
}
