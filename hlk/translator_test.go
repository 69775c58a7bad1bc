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
	"github.com/ebref/ebref/ddi"
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

// TestFaultsThroughTheSeam: every fault that works on a reply's packets
// (umd applyFaults: dropped WAITs, narrowed drains, cleared flushes and
// invalidates, dropped DECOMPRESS, METADATA_INIT and split ends' waits)
// breaks the reference translated through the seam as it breaks the
// driver in process: some case of the suites below fails with it. The
// faults are the judge's own proof that its cases can fail, so a fault
// the seam stopped applying (a narrowed drain left whole) would let
// `ebref hlk --mutation --translator` count a fault as caught by cases
// that never saw it; no scenario can tell, since none injects faults.
func TestFaultsThroughTheSeam(t *testing.T) {
	suites := defaultSuites(t)
	for _, fault := range []string{"drop-wait", "narrow-drain", "drop-flush", "drop-invalidate", "drop-decompress",
		"drop-metadata-init", "drop-split-end-wait"} {
		t.Run(fault, func(t *testing.T) {
			c := Config{Driver: WithTranslator(umd.ReferenceOpener{}), Suites: suites, Only: []string{"barriers", "hlk"},
				Profiles: []string{"discrete"}, Inject: fault, AnyCost: true}
			rep, err := Execute(context.Background(), c)
			require.NoError(t, err)
			failed := 0
			for i := range rep.Cases {
				if !rep.Cases[i].Status.Conformant() {
					failed++
				}
			}
			assert.Positive(t, failed, "%s through the seam fails no case of %d", fault, len(rep.Cases))
		})
	}
}

// TestGlobalFactsCarryEveryAccess: the fact beside a global barrier (and
// a NULL ranged one) says COMMON stands for every access, as the
// protocol promises (translator.Fact). The reference translation computes
// that set itself and never reads it, so no scenario judged through it can
// tell (tools/mutate's umd/seam.go:29, "&^" -> "&", survives every run);
// another translator would read it, and this test is what holds it.
func TestGlobalFactsCarryEveryAccess(t *testing.T) {
	var seen atomic.Int64
	c := Config{Driver: WithTranslator(factCheck{t, &seen}), Suites: defaultSuites(t), Only: []string{"barriers"},
		Profiles: []string{"discrete"}, AnyCost: true}
	rep, err := Execute(context.Background(), c)
	require.NoError(t, err)
	for i := range rep.Cases {
		require.True(t, rep.Cases[i].Status.Conformant(), "%s: %s %v", rep.Cases[i].Path(), rep.Cases[i].Status, rep.Cases[i].Messages)
	}
	assert.Positive(t, seen.Load(), "global barriers the translator was asked")
}

// factCheck is the reference translation, checking each global record's
// fact first.
type factCheck struct {
	t    *testing.T
	seen *atomic.Int64
}

func (factCheck) Name() string { return "fact-check" }

func (f factCheck) Open(p *hwmodel.Profile) (translator.Translator, error) {
	return factCheckT{f, umd.NewReference(p)}, nil
}

type factCheckT struct {
	factCheck
	ref *umd.Reference
}

func (f factCheckT) Translate(req *translator.Request, dst []uint32) ([]uint32, error) {
	every := ddi.DefinedAccessBits &^ ddi.AccessNoAccess
	for i := range req.Facts {
		var typ ddi.BarrierType
		if req.Entry == translator.Entry0088 {
			typ = req.Barrier0088(i).Type
		} else {
			typ = req.Barrier(i).Type
		}
		fa := &req.Facts[i]
		if typ == ddi.BarrierTypeGlobal || typ == ddi.BarrierTypeRanged && fa.Kind == translator.KindNone {
			f.seen.Add(1)
			assert.Equal(f.t, every, fa.CompatBefore, "call %d record %d (%s): CompatBefore", req.Call, i, typ)
			assert.Equal(f.t, every, fa.CompatAfter, "call %d record %d (%s): CompatAfter", req.Call, i, typ)
		}
	}
	return f.ref.Translate(req, dst)
}
