package ddi

import (
	"encoding/json"
	"fmt"
	"strings"
)

// BarrierRecord is a barrier as `ebref decode` prints it: one JSON object
// holding only the members the barrier's type has, enums by name, resource
// handles as 16-digit hex (NULL is 0x0000000000000000).
type BarrierRecord struct {
	Index        int                   `json:"index"`
	Type         string                `json:"type"`
	SyncBefore   string                `json:"sync_before,omitempty"`
	SyncAfter    string                `json:"sync_after,omitempty"`
	AccessBefore string                `json:"access_before,omitempty"`
	AccessAfter  string                `json:"access_after,omitempty"`
	LayoutBefore string                `json:"layout_before,omitempty"`
	LayoutAfter  string                `json:"layout_after,omitempty"`
	Resource     string                `json:"resource,omitempty"`
	Subresource  *uint32               `json:"subresource,omitempty"`
	Subresources *SubresourceRangeJSON `json:"subresources,omitempty"`
	Flags        string                `json:"flags,omitempty"`
	Range        *RangeJSON            `json:"range,omitempty"`
}

// MarshalJSON writes the members in the C structure's order, which puts a
// 0094 ranged barrier's flags first, a 0088 ranged barrier's after its
// syncs and accesses, and a texture barrier's last.
func (r BarrierRecord) MarshalJSON() ([]byte, error) {
	type plain BarrierRecord // without this method
	switch {
	case r.Type != BarrierTypeRanged.String():
		return json.Marshal(plain(r))
	case r.Subresources == nil: // 0094
		return json.Marshal(struct {
			Index       int        `json:"index"`
			Type        string     `json:"type"`
			Flags       string     `json:"flags"`
			Resource    string     `json:"resource"`
			Subresource *uint32    `json:"subresource"`
			Range       *RangeJSON `json:"range"`
		}{r.Index, r.Type, r.Flags, r.Resource, r.Subresource, r.Range})
	}
	return json.Marshal(struct {
		Index        int                   `json:"index"`
		Type         string                `json:"type"`
		SyncBefore   string                `json:"sync_before"`
		SyncAfter    string                `json:"sync_after"`
		AccessBefore string                `json:"access_before"`
		AccessAfter  string                `json:"access_after"`
		Flags        string                `json:"flags"`
		Resource     string                `json:"resource"`
		Subresources *SubresourceRangeJSON `json:"subresources"`
		Range        *RangeJSON            `json:"range"`
	}{r.Index, r.Type, r.SyncBefore, r.SyncAfter, r.AccessBefore, r.AccessAfter, r.Flags, r.Resource, r.Subresources, r.Range})
}

// SubresourceRangeJSON is a subresource range with snake_case members.
type SubresourceRangeJSON struct {
	IndexOrFirstMipLevel uint32 `json:"index_or_first_mip_level"`
	NumMipLevels         uint32 `json:"num_mip_levels"`
	FirstArraySlice      uint32 `json:"first_array_slice"`
	NumArraySlices       uint32 `json:"num_array_slices"`
	FirstPlane           uint32 `json:"first_plane"`
	NumPlanes            uint32 `json:"num_planes"`
}

// RangeJSON is a byte range.
type RangeJSON struct {
	Begin uint64 `json:"begin"`
	End   uint64 `json:"end"`
}

func subresourcesJSON(r SubresourceRange) *SubresourceRangeJSON {
	return &SubresourceRangeJSON{r.IndexOrFirstMipLevel, r.NumMipLevels, r.FirstArraySlice, r.NumArraySlices, r.FirstPlane, r.NumPlanes}
}

func resourceHex(h HResource) string { return fmt.Sprintf("0x%016x", uint64(h)) }

func (r *BarrierRecord) setCommon(g *GlobalBarrier) {
	r.SyncBefore, r.SyncAfter = g.SyncBefore.String(), g.SyncAfter.String()
	r.AccessBefore, r.AccessAfter = g.AccessBefore.String(), g.AccessAfter.String()
}

// Record returns the barrier's printable record.
func (b *Barrier) Record(index int) BarrierRecord {
	r := BarrierRecord{Index: index, Type: b.Type.String()}
	switch b.Type {
	case BarrierTypeGlobal:
		r.setCommon(b.Global())
	case BarrierTypeTexture:
		t := b.Texture()
		r.setCommon(b.Global())
		r.LayoutBefore, r.LayoutAfter = t.LayoutBefore.String(), t.LayoutAfter.String()
		r.Resource = resourceHex(t.Resource)
		r.Subresources = subresourcesJSON(t.Subresources)
		r.Flags = t.Flags.String()
	case BarrierTypeBuffer:
		r.setCommon(b.Global())
		r.Resource = resourceHex(b.Buffer().Resource)
	case BarrierTypeRanged:
		x := b.Ranged()
		sub := x.Subresource
		r.Flags = x.Flags.String()
		r.Resource = resourceHex(x.Resource)
		r.Subresource = &sub
		r.Range = &RangeJSON{x.Range.Begin, x.Range.End}
	}
	return r
}

// Record returns the 0088 record's printable record: a ranged barrier has
// its syncs, accesses and subresource range.
func (b *Barrier0088) Record(index int) BarrierRecord {
	if x, ok := b.As0094(); ok {
		return x.Record(index)
	}
	r := BarrierRecord{Index: index, Type: b.Type.String()}
	if b.Type == BarrierTypeRanged {
		x := b.Ranged()
		r.setCommon(&x.GlobalBarrier)
		r.Flags = x.Flags.String()
		r.Resource = resourceHex(x.Resource)
		r.Subresources = subresourcesJSON(x.Subresources)
		r.Range = &RangeJSON{x.Range.Begin, x.Range.End}
	}
	return r
}

// SubresourcesText prints a subresource range the way the scenario language
// writes it: "all", "index N", or "mips A..B slices C..D planes E..F" with
// inclusive bounds.
func SubresourcesText(r SubresourceRange) string {
	if r.NumMipLevels == 0 {
		if r.IndexOrFirstMipLevel == AllSubresources {
			return "all"
		}
		return fmt.Sprintf("index %d", r.IndexOrFirstMipLevel)
	}
	span := func(first, n uint32) string {
		if n == 0 {
			return fmt.Sprintf("%d..(none)", first)
		}
		return fmt.Sprintf("%d..%d", first, uint64(first)+uint64(n)-1)
	}
	return fmt.Sprintf("mips %s slices %s planes %s", span(r.IndexOrFirstMipLevel, r.NumMipLevels),
		span(r.FirstArraySlice, r.NumArraySlices), span(r.FirstPlane, r.NumPlanes))
}

// Text prints the barrier on one line in the scenario language's words:
//
//	TEXTURE sync RENDER_TARGET -> PIXEL_SHADING access RENDER_TARGET -> SHADER_RESOURCE layout ... resource 0x1000 subresources all flags NONE
func (b *Barrier) Text() string {
	var s strings.Builder
	s.WriteString(b.Type.String())
	common := func(g *GlobalBarrier) {
		fmt.Fprintf(&s, " sync %s -> %s access %s -> %s", g.SyncBefore, g.SyncAfter, g.AccessBefore, g.AccessAfter)
	}
	switch b.Type {
	case BarrierTypeGlobal:
		common(b.Global())
	case BarrierTypeTexture:
		t := b.Texture()
		common(b.Global())
		fmt.Fprintf(&s, " layout %s -> %s resource 0x%x subresources %s flags %s",
			t.LayoutBefore, t.LayoutAfter, uint64(t.Resource), SubresourcesText(t.Subresources), t.Flags)
	case BarrierTypeBuffer:
		common(b.Global())
		fmt.Fprintf(&s, " resource 0x%x", uint64(b.Buffer().Resource))
	case BarrierTypeRanged:
		x := b.Ranged()
		sub := "all"
		if x.Subresource != AllSubresourcesIndex {
			sub = fmt.Sprint(x.Subresource)
		}
		fmt.Fprintf(&s, " flags %s resource 0x%x subresource %s range 0x%x..0x%x",
			x.Flags, uint64(x.Resource), sub, x.Range.Begin, x.Range.End)
	}
	return s.String()
}

// Text prints the 0088 record on one line as Barrier.Text does; a ranged
// barrier shows its syncs, accesses and subresource range.
func (b *Barrier0088) Text() string {
	if x, ok := b.As0094(); ok {
		return x.Text()
	}
	if b.Type != BarrierTypeRanged {
		return b.Type.String()
	}
	x := b.Ranged()
	return fmt.Sprintf("RANGED sync %s -> %s access %s -> %s flags %s resource 0x%x subresources %s range 0x%x..0x%x",
		x.SyncBefore, x.SyncAfter, x.AccessBefore, x.AccessAfter, x.Flags, uint64(x.Resource),
		SubresourcesText(x.Subresources), x.Range.Begin, x.Range.End)
}
