package scenario

import (
	"fmt"
	"strings"

	"github.com/ebref/ebref/ddi"
)

// FormatBarrier writes a barrier of a PFND3D12DDI_BARRIER_0094 call as a
// line of a `call` block (docs/scenarios.md), with its resource as a raw
// handle number, so that records decoded from a capture can be pasted into
// a scenario. Parsing the line gives the barrier back, member for member,
// except where the scenario language has no spelling: a ranged barrier
// whose Range ends before it begins, a barrier of an unknown type (whose
// union is written as zero), and the ignored members of a subresource
// given as an index; those are named in a trailing comment.
func FormatBarrier(b *ddi.Barrier) string {
	var s lineWriter
	switch b.Type {
	case ddi.BarrierTypeGlobal:
		g := b.Global()
		s.word("global")
		s.syncAccess(g.SyncBefore, g.SyncAfter, g.AccessBefore, g.AccessAfter)
	case ddi.BarrierTypeTexture:
		t := b.Texture()
		s.word("texture " + handle(t.Resource))
		s.syncAccess(t.SyncBefore, t.SyncAfter, t.AccessBefore, t.AccessAfter)
		s.word(fmt.Sprintf("layout %s -> %s", t.LayoutBefore, t.LayoutAfter))
		s.subresources(t.Subresources)
		if t.Flags != 0 {
			s.word("flags " + t.Flags.String())
		}
	case ddi.BarrierTypeBuffer:
		bb := b.Buffer()
		s.word("buffer " + handle(bb.Resource))
		s.syncAccess(bb.SyncBefore, bb.SyncAfter, bb.AccessBefore, bb.AccessAfter)
	case ddi.BarrierTypeRanged:
		r := b.Ranged()
		s.word("ranged " + handle(r.Resource))
		if r.Subresource == ddi.AllSubresourcesIndex {
			s.word("subresource all")
		} else {
			s.word(fmt.Sprintf("subresource %d", r.Subresource))
		}
		s.rangeOf(r.Range)
		if r.Flags != 0 {
			s.word("flags " + r.Flags.String())
		}
	default:
		s.word(fmt.Sprintf("type %d", uint32(b.Type)))
		s.lost("a barrier of an unknown type is written with its union zero")
	}
	return s.String()
}

// FormatBarrier0088 is FormatBarrier for a barrier of a
// PFND3D12DDI_BARRIER_0088 call, a line of a `call-0088` block: its ranged
// barrier carries syncs, accesses and a subresource range.
func FormatBarrier0088(b *ddi.Barrier0088) string {
	if b.Type != ddi.BarrierTypeRanged {
		b94, _ := b.As0094()
		return FormatBarrier(&b94)
	}
	r := b.Ranged()
	var s lineWriter
	s.word("ranged " + handle(r.Resource))
	s.syncAccess(r.SyncBefore, r.SyncAfter, r.AccessBefore, r.AccessAfter)
	s.subresources(r.Subresources)
	s.rangeOf(r.Range)
	if r.Flags != 0 {
		s.word("flags " + r.Flags.String())
	}
	return s.String()
}

// lineWriter builds a barrier line and the comment on what it cannot say.
type lineWriter struct {
	words, notes []string
}

func (s *lineWriter) word(w string) { s.words = append(s.words, w) }
func (s *lineWriter) lost(w string) { s.notes = append(s.notes, w) }

func (s *lineWriter) String() string {
	line := strings.Join(s.words, " ")
	if len(s.notes) > 0 {
		line += " # " + strings.Join(s.notes, "; ")
	}
	return line
}

func (s *lineWriter) syncAccess(sb, sa ddi.BarrierSync, ab, aa ddi.BarrierAccess) {
	s.word(fmt.Sprintf("sync %s -> %s access %s -> %s", sb, sa, ab, aa))
}

func (s *lineWriter) subresources(r ddi.SubresourceRange) {
	switch {
	case r.NumMipLevels == 0 && r.IndexOrFirstMipLevel == ddi.AllSubresources:
		s.word("subresources all")
	case r.NumMipLevels == 0:
		s.word(fmt.Sprintf("subresources %d", r.IndexOrFirstMipLevel))
	default:
		s.word(fmt.Sprintf("subresources mips %d+%d slices %d+%d planes %d+%d", r.IndexOrFirstMipLevel, r.NumMipLevels,
			r.FirstArraySlice, r.NumArraySlices, r.FirstPlane, r.NumPlanes))
		return
	}
	if r.FirstArraySlice|r.NumArraySlices|r.FirstPlane|r.NumPlanes != 0 {
		s.lost(fmt.Sprintf("FirstArraySlice %d NumArraySlices %d FirstPlane %d NumPlanes %d, which an index ignores",
			r.FirstArraySlice, r.NumArraySlices, r.FirstPlane, r.NumPlanes))
	}
}

func (s *lineWriter) rangeOf(r ddi.Range) {
	if r.End < r.Begin {
		s.lost(fmt.Sprintf("Range Begin %d End %d ends before it begins", r.Begin, r.End))
		return
	}
	s.word(fmt.Sprintf("range %d+%d", r.Begin, r.End-r.Begin))
}

// handle writes a resource handle as the scenario language reads a raw one.
func handle(h ddi.HResource) string {
	if h == 0 {
		return "NULL"
	}
	return fmt.Sprintf("0x%x", uint64(h))
}

func abbreviate(b []byte) []byte {
	if len(b) > 32 {
		return b[:32]
	}
	return b
}

// String restates an expectation.
func (e Expect) String() string {
	s := e.Kind
	switch e.Kind {
	case "reference", "detected":
		// A builder: a line may name a resource many thousand times.
		var b strings.Builder
		b.WriteString(s)
		for _, v := range e.Res {
			b.WriteString(" " + v.String())
		}
		s = b.String()
	case "bytes":
		s += fmt.Sprintf(" %s = % x", e.Res[0], abbreviate(e.Bytes))
	case "hazard":
		s += " " + e.Hazard.String()
		if len(e.Res) > 0 {
			s += " on " + e.Res[0].String()
		}
	case "error", "warning":
		s += fmt.Sprintf(" %d (%s)", e.ID, e.ID.Name())
		if e.List != "" {
			s += " in " + e.List
		}
		if e.Field != "" {
			s += " field " + e.Field
		}
		if e.Counted {
			s += fmt.Sprintf(" count %d", e.N)
		}
		if e.Text != "" {
			s += fmt.Sprintf(" text %q", e.Text)
		}
	case "packets":
		if e.List != "" {
			s += " in " + e.List
		}
		s += fmt.Sprintf(" %s %s %d", e.Op, e.Cmp, e.N)
	case "cost":
		s += fmt.Sprintf(" %s %s %d", e.Op, e.Cmp, e.N)
	}
	return s
}

// String writes a view as the language does.
func (v ViewRef) String() string {
	s := v.Res
	if v.IsRaw {
		s = fmt.Sprintf("0x%x", v.Raw)
		if v.Raw == 0 {
			s = "NULL"
		}
	}
	switch {
	case v.HasRange:
		s += fmt.Sprintf("[%d+%d]", v.Offset, v.Size)
	case v.HasSub:
		s += fmt.Sprintf("@%d", v.Sub)
	}
	return s
}
