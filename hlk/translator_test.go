package hlk

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ebref/ebref/cmdbuf"
	"github.com/ebref/ebref/hwmodel"
	"github.com/ebref/ebref/umd"
	"github.com/ebref/ebref/umd/translator"
)

// TestReferenceThroughTheSeam: the reference meets every line (no case
// has a note), and the reference translation plugged in as any
// translator is (umd.ReferenceOpener through umd.Options.Translator: its
// reply checked and broken at the boundary) records, case for case, the
// packets the device's own reference records. Both are fed from the
// seam's requests alone (every call goes through it), so this and the
// cost record (hlk/costs/reference.txt, written when the driver still
// planned from its own resources) show what the request carries is
// enough to translate every call of the default suites.
func TestReferenceThroughTheSeam(t *testing.T) {
	if testing.Short() {
		t.Skip("the default suites twice")
	}
	suites := defaultSuites(t)
	in, err := Execute(context.Background(), Config{Driver: Reference, Suites: suites, AnyCost: true})
	require.NoError(t, err)
	var calls atomic.Int64
	via, err := Execute(context.Background(), Config{Suites: suites, AnyCost: true, Driver: WithTranslator(counting{umd.ReferenceOpener{}, &calls})})
	require.NoError(t, err)
	assert.Greater(t, calls.Load(), int64(30000), "Barrier calls the translator was asked")
	require.Len(t, via.Cases, len(in.Cases))
	differ := 0
	for i := range in.Cases {
		a, b := &in.Cases[i], &via.Cases[i]
		require.Equal(t, a.Path()+" on "+a.Profile, b.Path()+" on "+b.Profile)
		// The reference meets every line of every case, its promises
		// about its own packets and cost included.
		assert.Empty(t, a.Notes, "%s on %s", a.Path(), a.Profile)
		if a.Status != b.Status || a.Packets != b.Packets {
			if differ++; differ <= 5 {
				t.Errorf("%s on %s: %s %s in process, %s %s through the seam %v", a.Path(), a.Profile, a.Status, a.Packets, b.Status, b.Packets, b.Messages)
			}
		}
	}
	assert.Zero(t, differ, "cases whose packets differ")
}

// counting counts the calls its translators translate.
type counting struct {
	translator.Opener
	n *atomic.Int64
}

func (c counting) Open(p *hwmodel.Profile) (translator.Translator, error) {
	t, err := c.Opener.Open(p)
	return countingT{t, c.n}, err
}

type countingT struct {
	translator.Translator
	n *atomic.Int64
}

func (c countingT) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	c.n.Add(1)
	return c.Translator.Translate(req, dst)
}

// nopAfter is the reference translation with a NOP after each call's
// packets: safe, and different.
type nopAfter struct{ umd.ReferenceOpener }

func (nopAfter) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return nopT{umd.NewReference(p)}, nil
}

type nopT struct{ ref *umd.Reference }

func (t nopT) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	dst, err := t.ref.Translate(req, dst)
	return cmdbuf.AppendNop(dst, 0), err
}

// TestCompareCalls: the reference through the seam differs from itself
// in no call; a translation with one more packet differs in every call,
// each diff naming the list, the call and both runs' packets.
func TestCompareCalls(t *testing.T) {
	sc := parseOne(t, `scenario "two calls"
buffer B 4096 flags UNORDERED_ACCESS
queue Q DIRECT
list L DIRECT
  dispatch uav B
  barrier buffer B sync COMPUTE_SHADING -> COMPUTE_SHADING access UNORDERED_ACCESS -> UNORDERED_ACCESS
  dispatch uav B
  barrier buffer B sync COMPUTE_SHADING -> COPY access UNORDERED_ACCESS -> COPY_SOURCE
end
execute Q L
expect no-hazard
`)
	p, err := hwmodel.LookupProfile("discrete")
	require.NoError(t, err)
	ref := Run(Reference, sc, p, "")
	require.Equal(t, Pass, ref.Status, ref.Failures)
	diffs, calls := CompareCalls(Run(WithTranslator(umd.ReferenceOpener{}), sc, p, ""), ref)
	assert.Equal(t, 2, calls)
	assert.Empty(t, diffs)
	diffs, calls = CompareCalls(Run(WithTranslator(nopAfter{}), sc, p, ""), ref)
	assert.Equal(t, 2, calls)
	require.Len(t, diffs, 2)
	assert.Equal(t, "L", diffs[0].List)
	assert.Equal(t, append(slices.Clone(diffs[0].RefPackets), "NOP n=0"), diffs[0].Packets)
}

// TestNotesInReports: a translator's notes reach the JSON report's notes,
// JUnit's system-out and the summary's counts, and fail nothing.
func TestNotesInReports(t *testing.T) {
	rep, err := Execute(context.Background(), Config{Suites: defaultSuites(t), Only: []string{"cost"}, Profiles: []string{"discrete"},
		Driver: WithTranslator(nopAfter{})})
	require.NoError(t, err)
	assert.True(t, rep.Conformant(), "a NOP more is safe")
	noted := 0
	for i := range rep.Cases {
		noted += len(rep.Cases[i].Notes)
	}
	require.NotZero(t, noted, "a NOP more costs more than the reference's record")
	var junit bytes.Buffer
	require.NoError(t, WriteJUnit(&junit, rep))
	assert.Contains(t, junit.String(), "<system-out>"+NoteCostlier)
	assert.NotContains(t, junit.String(), "<failure")
	var js bytes.Buffer
	require.NoError(t, WriteJSON(&js, rep))
	assert.Contains(t, js.String(), `"notes": [`)
	var summary strings.Builder
	require.NoError(t, WriteSummary(&summary, rep))
	assert.Contains(t, summary.String(), "costlier than the reference's record")
	assert.Contains(t, summary.String(), "cost against the reference's record")
}
