package resource

import (
	"fmt"

	"github.com/ebref/ebref/ddi"
)

// SubresourceCount is mips × array slices × planes (D3D12's numbering; a
// buffer has one subresource).
func (r *Resource) SubresourceCount() uint32 {
	return r.MipLevels * r.ArraySize * r.planes()
}

func (r *Resource) planes() uint32 {
	if r.Desc.IsBuffer() {
		return 1
	}
	return r.Format.PlaneCount()
}

// PlaneCount is the number of plane slices.
func (r *Resource) PlaneCount() uint32 { return r.planes() }

func (r *Resource) index(mip, slice, plane uint32) uint32 {
	return mip + slice*r.MipLevels + plane*r.MipLevels*r.ArraySize
}

// Index is D3D12CalcSubresource: mip + slice × mips + plane × mips × slices.
// Out-of-range coordinates give an error naming the coordinate.
func (r *Resource) Index(mip, slice, plane uint32) (uint32, error) {
	switch {
	case mip >= r.MipLevels:
		return 0, fieldErr(ErrOutOfBounds, "MipSlice", fmt.Sprint(mip), "the resource has %d mips", r.MipLevels)
	case slice >= r.ArraySize:
		return 0, fieldErr(ErrOutOfBounds, "ArraySlice", fmt.Sprint(slice), "the resource has %d array slices", r.ArraySize)
	case plane >= r.planes():
		return 0, fieldErr(ErrOutOfBounds, "PlaneSlice", fmt.Sprint(plane), "the resource has %d planes", r.planes())
	}
	return r.index(mip, slice, plane), nil
}

// Decompose is the inverse of Index.
func (r *Resource) Decompose(sub uint32) (mip, slice, plane uint32, err error) {
	if sub >= r.SubresourceCount() {
		return 0, 0, 0, fieldErr(ErrOutOfBounds, "Subresource", fmt.Sprint(sub), "the resource has %d subresources", r.SubresourceCount())
	}
	return sub % r.MipLevels, sub / r.MipLevels % r.ArraySize, sub / (r.MipLevels * r.ArraySize), nil
}

// Footprint returns a subresource's footprint.
func (r *Resource) Footprint(sub uint32) (Footprint, error) {
	if sub >= uint32(len(r.Footprints)) {
		return Footprint{}, fieldErr(ErrOutOfBounds, "Subresource", fmt.Sprint(sub), "the resource has %d subresources", len(r.Footprints))
	}
	// Footprints are stored in index order.
	return r.Footprints[sub], nil
}

// Selection is a set of subresources: a box of mips × slices × planes (one
// subresource and "all" are boxes too). It is a small value; iterate it with
// Each.
type Selection struct {
	FirstMip, NumMips     uint32
	FirstSlice, NumSlices uint32
	FirstPlane, NumPlanes uint32
	mips, slices          uint32 // the resource's counts, for indexing
}

// Count is the number of subresources selected.
func (s Selection) Count() uint32 { return s.NumMips * s.NumSlices * s.NumPlanes }

// Contains reports whether subresource sub is selected.
func (s Selection) Contains(sub uint32) bool {
	if s.mips == 0 || s.slices == 0 {
		return false
	}
	m, sl, p := sub%s.mips, sub/s.mips%s.slices, sub/(s.mips*s.slices)
	return m >= s.FirstMip && m < s.FirstMip+s.NumMips &&
		sl >= s.FirstSlice && sl < s.FirstSlice+s.NumSlices &&
		p >= s.FirstPlane && p < s.FirstPlane+s.NumPlanes
}

// Each calls f for every selected subresource index, in ascending order.
func (s Selection) Each(f func(sub uint32)) {
	for p := s.FirstPlane; p < s.FirstPlane+s.NumPlanes; p++ {
		for sl := s.FirstSlice; sl < s.FirstSlice+s.NumSlices; sl++ {
			for m := s.FirstMip; m < s.FirstMip+s.NumMips; m++ {
				f(m + sl*s.mips + p*s.mips*s.slices)
			}
		}
	}
}

// All selects every subresource.
func (r *Resource) All() Selection {
	return Selection{0, r.MipLevels, 0, r.ArraySize, 0, r.planes(), r.MipLevels, r.ArraySize}
}

// Single selects one subresource by index.
func (r *Resource) Single(sub uint32) (Selection, error) {
	m, sl, p, err := r.Decompose(sub)
	if err != nil {
		return Selection{}, err
	}
	return Selection{m, 1, sl, 1, p, 1, r.MipLevels, r.ArraySize}, nil
}

// Resolve interprets a D3D12DDI_BARRIER_SUBRESOURCE_RANGE_0088 for this
// resource (000 "D3D12_BARRIER_SUBRESOURCE_RANGE"): with NumMipLevels 0,
// IndexOrFirstMipLevel is one subresource index, or 0xffffffff for all of
// them, and the other members are ignored; otherwise the range is the box of
// NumMipLevels mips from IndexOrFirstMipLevel × NumArraySlices slices from
// FirstArraySlice × NumPlanes planes from FirstPlane. A box member of 0 is an
// empty range, an error (errata E-SUBRESOURCE-ZERO-COUNTS); a box reaching
// past the resource is out of bounds. Errors name the member.
func (r *Resource) Resolve(rg ddi.SubresourceRange) (Selection, error) {
	if rg.NumMipLevels == 0 {
		if rg.IndexOrFirstMipLevel == ddi.AllSubresources {
			return r.All(), nil
		}
		if rg.IndexOrFirstMipLevel >= r.SubresourceCount() {
			return Selection{}, fieldErr(ErrOutOfBounds, "Subresources.IndexOrFirstMipLevel", fmt.Sprint(rg.IndexOrFirstMipLevel),
				"as a subresource index (NumMipLevels 0) it must be below the resource's %d subresources, or 0xffffffff for all", r.SubresourceCount())
		}
		return r.Single(rg.IndexOrFirstMipLevel)
	}
	check := func(firstField, countField string, first, count, limit uint32, what string) error {
		if count == 0 {
			return fieldErr(ErrEmptyRange, "Subresources."+countField, "0", "selects no %s; with NumMipLevels %d a range needs at least one", what, rg.NumMipLevels)
		}
		if first >= limit || count > limit-first {
			return fieldErr(ErrOutOfBounds, "Subresources."+firstField+"/"+countField, fmt.Sprintf("%d+%d", first, count),
				"the resource has %d %s", limit, what)
		}
		return nil
	}
	if err := check("IndexOrFirstMipLevel", "NumMipLevels", rg.IndexOrFirstMipLevel, rg.NumMipLevels, r.MipLevels, "mips"); err != nil {
		return Selection{}, err
	}
	if err := check("FirstArraySlice", "NumArraySlices", rg.FirstArraySlice, rg.NumArraySlices, r.ArraySize, "array slices"); err != nil {
		return Selection{}, err
	}
	if err := check("FirstPlane", "NumPlanes", rg.FirstPlane, rg.NumPlanes, r.planes(), "planes"); err != nil {
		return Selection{}, err
	}
	return Selection{rg.IndexOrFirstMipLevel, rg.NumMipLevels, rg.FirstArraySlice, rg.NumArraySlices,
		rg.FirstPlane, rg.NumPlanes, r.MipLevels, r.ArraySize}, nil
}
